import 'leaflet/dist/leaflet.css';
import './planner.scss';
import { useStore } from '@nanostores/react';
import L from 'leaflet';
import { type FormEvent, lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { trackEvent } from '../../lib/analytics/queue';
import { escapeHtml } from '../../lib/core/html';
import { MAP_TYPE_LABELS, type MapTileLayer, type MapType, OSM_ATTRIBUTION } from '../../lib/core/map-types';
import {
	ROUTE_PRIVACY_LABELS,
	ROUTE_PRIVACY_VALUES,
	ROUTE_SEARCH_ACTIVITIES,
	type RoutePrivacyValue,
} from '../../lib/routes/contract';
import {
	addWaypoint,
	closeLoop,
	EMPTY_PLANNER,
	insertWaypoint,
	type LatLng,
	measurePlan,
	moveWaypoint,
	type OpenedRoute,
	outAndBack,
	type PlannerMode,
	planFromTrack,
	reverseRoute,
} from '../../lib/routes/planner';
import type { DraftStorage } from '../../lib/routes/planner-draft';
import type { PlannerFeatures } from '../../lib/routes/planner-insights';
import { createPlaceSearch } from '../../lib/routes/planner-place';
import { FRAME_MAX_ZOOM, FRAME_PADDING_PX } from '../../lib/routes/planner-preview';
import { createPlannerSave } from '../../lib/routes/planner-save';
import { createPlannerStore } from '../../lib/routes/planner-store';
import { formatDistance, type Unit } from '../../lib/routes/render';
import {
	MAP_TYPE_STORAGE_KEY,
	MAP_VIEW_STORAGE_KEY,
	rememberPreference,
} from '../../lib/site/cookie-choices';
import { storedMapType, storedPlannerView } from '../../lib/site/map-memory';
import type { Rollout } from '../../lib/site/rollouts';
import { addBaseLayer } from './map-layers';
import PlannerFileOpen, { type OpenedTrack } from './PlannerFileOpen';
import PlannerInsights from './PlannerInsights';
import { PlannerPointList } from './PlannerPointList';
import { PlannerLayers } from './planner-layers';
import { usePlannerView } from './use-planner-view';

export type PlannerProps = {
	unit: Unit;
	/** The configured map types, the default first. */
	layers: MapTileLayer[];
	/** The saved route an edit or a copy starts from; none when drawing a new route. */
	opened?: OpenedRoute;
	/** The MVP parts of the planner this member may use (the page knows who they are). */
	features: PlannerFeatures;
	/** The member's rollouts, which choose the map's engine: with them the tiles need not wait for the bootup. */
	rollouts?: Rollout[];
};

/** Needed only after a save lost to a newer one, so loaded then, with the answer that says so. */
const PlannerConflict = lazy(() => import('./PlannerConflict'));

const MODE_LABELS: Record<PlannerMode, string> = {
	WALKING: 'Walking',
	BICYCLING: 'Cycling',
	DRIVING: 'Driving',
};

/** This browser's local storage, or none where it is switched off. */
function localStorageOrNone(): DraftStorage | null {
	try {
		return window.localStorage;
	} catch {
		return null;
	}
}

/** Runs one of the route tools (undo, reverse, clear…), counted by its name. */
function control(name: string, run: () => unknown): void {
	trackEvent('route_control_performed', { control: name });
	run();
}

/**
 * The route planner: a click on the map adds a waypoint, each new gap drawn straight at once and swapped for the
 * road-following line when the routing service answers. Everything the map does can also be done from the
 * waypoint list and the "Add a point" form, so the planner works without a mouse.
 */
export default function Planner({ unit, layers, opened, features, rollouts }: PlannerProps) {
	const [{ store, saver, places }] = useState(() => {
		const created = createPlannerStore({ opened: opened?.route });
		return {
			store: created,
			saver: createPlannerSave({
				store: created,
				opened,
				storage: localStorageOrNone(),
				onSaved: (id) => window.location.assign(`/routes/view/${id}`),
			}),
			places: createPlaceSearch(),
		};
	});
	const { draft } = saver;
	const details = useStore(saver.$details);
	const offer = useStore(draft.$offer);
	const saving = useStore(saver.$saving);
	const fieldErrors = useStore(saver.$fieldErrors);
	const saveError = useStore(saver.$saveError);
	const conflict = useStore(saver.$conflict);
	const placeError = useStore(places.$error);
	// The map's line follows the store at once (below); the panels follow its view: in the same frame after the
	// member's own edit, a frame after the line when a routing answer completes it (usePlannerView).
	const { history, legs, pending, failures, streets } = usePlannerView(store);
	const state = history.present;

	const [mode, setMode] = useState<PlannerMode>('WALKING');
	const [followRoads, setFollowRoads] = useState(true);
	const [mapType, setMapType] = useState<MapType | undefined>(() => storedMapType(layers));
	const [place, setPlace] = useState('');

	const mapElement = useRef<HTMLElement>(null);
	const [map, setMap] = useState<L.Map | null>(null);
	const options = useRef({ mode, followRoads });
	options.current = { mode, followRoads };
	const ids = useId();

	const legOptions = () => ({
		mode: options.current.mode,
		followRoads: options.current.followRoads,
		// SPEC §3 map options: highways are avoided unless the member says otherwise.
		avoidHighways: true,
	});
	const addPoint = (point: LatLng) => {
		trackEvent('route_point_interaction_performed', { interaction: 'add' });
		return store.edit((s) => addWaypoint(s, point, legOptions()));
	};
	const fitTo = (target: L.Map | null, points: readonly LatLng[]) => {
		if (!target || points.length === 0) return;
		target.fitBounds(L.latLngBounds(points.map((p) => [p.lat, p.lng] as [number, number])), {
			padding: [FRAME_PADDING_PX, FRAME_PADDING_PX],
			maxZoom: FRAME_MAX_ZOOM,
		});
	};

	// The map, once: opened where the member last left it, a click adds a waypoint. Later choices (travel mode,
	// follow roads) are read through a ref, so the map is never rebuilt.
	// biome-ignore lint/correctness/useExhaustiveDependencies: made once per page
	useEffect(() => {
		if (!mapElement.current) return;
		const view = storedPlannerView();
		const created = L.map(mapElement.current, { scrollWheelZoom: true }).setView(
			[view.lat, view.lng],
			view.zoom,
		);
		created.attributionControl.addAttribution(escapeHtml(OSM_ATTRIBUTION));
		// An edited or copied route opens framed, wherever the map was last left.
		if (opened) fitTo(created, store.$history.get().present.waypoints);
		created.on('click', (event: L.LeafletMouseEvent) => {
			const at = { lat: event.latlng.lat, lng: event.latlng.lng };
			const taker = store.$mapClickTaker.get();
			if (!taker) return addPoint(at);
			store.$mapClickTaker.set(null);
			taker(at);
		});
		created.on('moveend', () => {
			const centre = created.getCenter();
			rememberPreference(
				'local',
				MAP_VIEW_STORAGE_KEY,
				JSON.stringify({ lat: centre.lat, lng: centre.lng, zoom: created.getZoom() }),
			);
		});
		setMap(created);
		return () => {
			setMap(null);
			created.remove();
		};
	}, []);

	useEffect(() => {
		const layer = layers.find((candidate) => candidate.type === mapType) ?? layers[0];
		if (!map || !layer) return;
		return addBaseLayer(map, layer, rollouts);
	}, [map, layers, mapType, rollouts]);

	const chooseMapType = (type: MapType) => {
		trackEvent('edit_map_type_tapped', { map_type: type });
		setMapType(type);
		// Not remembered when the visitor said no or storage is off; it still applies to this page.
		rememberPreference('local', MAP_TYPE_STORAGE_KEY, type);
	};

	// The route on the map: each gap dashed until it follows roads, waypoints as draggable numbered pins;
	// dragging a line adds a point there.
	useEffect(() => {
		if (!map) return;
		const drawn = new PlannerLayers(
			map,
			(index, point) => {
				trackEvent('route_point_interaction_performed', { interaction: 'move' });
				store.edit((s) => moveWaypoint(s, index, point));
			},
			(index, point) => {
				trackEvent('route_point_interaction_performed', { interaction: 'insert' });
				store.edit((s) => insertWaypoint(s, index, point));
			},
		);
		// Drawn straight from the store, not after React renders the panels, so a click's line shows in the
		// next frame; and once the code that changed the store has finished, so a gap's routing request has
		// already left.
		let queued = false;
		let live = true;
		const draw = () => {
			if (queued) return;
			queued = true;
			queueMicrotask(() => {
				queued = false;
				if (live) drawn.update(store.$legs.get(), store.$history.get().present.waypoints);
			});
		};
		draw();
		const unbind = [store.$legs.listen(draw), store.$history.listen(draw)];
		return () => {
			live = false;
			for (const stop of unbind) stop();
			drawn.remove();
		};
	}, [map, store]);

	// Ctrl+Z and Ctrl+Shift+Z, except while typing, where the field's own undo applies.
	useEffect(() => {
		const onKey = (event: KeyboardEvent) => {
			if (!(event.ctrlKey || event.metaKey) || event.key.toLowerCase() !== 'z') return;
			const target = event.target as HTMLElement | null;
			if (target?.closest('input, textarea, select, [contenteditable="true"]')) return;
			event.preventDefault();
			if (event.shiftKey) control('redo', store.redo);
			else control('undo', store.undo);
		};
		window.addEventListener('keydown', onKey);
		return () => window.removeEventListener('keydown', onKey);
	}, [store]);

	// The draft follows the route from the store, and is written at once when the page is left.
	useEffect(() => {
		const stop = draft.follow();
		window.addEventListener('pagehide', draft.write);
		return () => {
			stop();
			window.removeEventListener('pagehide', draft.write);
		};
	}, [draft]);

	const restore = () => {
		const restored = draft.restore();
		if (restored) fitTo(map, restored.state.waypoints);
	};

	const openTrack = (track: OpenedTrack) => {
		const next = planFromTrack(track.points, options.current.mode);
		trackEvent('route_control_performed', { control: 'open_file' });
		store.edit(() => next);
		if (!details.name.trim() && track.name) saver.setDetails({ name: track.name.slice(0, 100) });
		fitTo(map, next.waypoints);
	};

	const distance = measurePlan(legs);
	const count = state.waypoints.length;
	const summary = `Route ${formatDistance(distance, unit)}, ${count} ${count === 1 ? 'point' : 'points'}`;
	const busy = pending.size > 0;

	const addPlace = async (event: FormEvent) => {
		event.preventDefault();
		const point = await places.find(place);
		if (!point) return;
		addPoint(point);
		setPlace('');
		map?.panTo([point.lat, point.lng]);
	};

	const save = (event: FormEvent) => {
		event.preventDefault();
		void saver.save();
	};

	const takeTheirs = () => {
		const waypoints = saver.takeTheirs();
		if (waypoints) fitTo(map, waypoints);
	};

	const fieldError = (field: string) =>
		fieldErrors[field]?.length ? (
			<p className="planner__field-error" id={`${ids}-${field}-error`}>
				{fieldErrors[field].join(' ')}
			</p>
		) : null;

	return (
		<div className="planner" data-testid="planner">
			{offer && (
				<section className="planner__draft" aria-labelledby={`${ids}-draft`} data-testid="planner-draft">
					<h2 id={`${ids}-draft`}>Continue your unsaved route?</h2>
					<p>
						{offer.details.name ? `"${offer.details.name}", ` : ''}
						{offer.state.waypoints.length} {offer.state.waypoints.length === 1 ? 'point' : 'points'}.
					</p>
					<button type="button" onClick={restore}>
						Restore
					</button>
					<button type="button" onClick={draft.discard}>
						Discard
					</button>
				</section>
			)}

			<div className="planner__toolbar" role="toolbar" aria-label="Route tools">
				<label>
					Travel mode{' '}
					<select value={mode} onChange={(event) => setMode(event.target.value as PlannerMode)}>
						{(Object.keys(MODE_LABELS) as PlannerMode[]).map((value) => (
							<option key={value} value={value}>
								{MODE_LABELS[value]}
							</option>
						))}
					</select>
				</label>
				<label className="planner__check">
					<input
						type="checkbox"
						checked={followRoads}
						onChange={(event) => setFollowRoads(event.target.checked)}
					/>
					Follow roads
				</label>
				<button
					type="button"
					onClick={() => control('undo', store.undo)}
					disabled={history.past.length === 0}
				>
					Undo
				</button>
				<button
					type="button"
					onClick={() => control('redo', store.redo)}
					disabled={history.future.length === 0}
				>
					Redo
				</button>
				<button
					type="button"
					onClick={() => control('reverse', () => store.edit(reverseRoute))}
					disabled={count < 2}
				>
					Reverse
				</button>
				<button
					type="button"
					onClick={() => control('out_and_back', () => store.edit(outAndBack))}
					disabled={count < 2}
				>
					Out and back
				</button>
				<button
					type="button"
					onClick={() => control('close_loop', () => store.edit(closeLoop))}
					disabled={count < 2}
				>
					Close loop
				</button>
				<button
					type="button"
					onClick={() => control('clear', () => store.edit(() => EMPTY_PLANNER))}
					disabled={count === 0}
				>
					Clear
				</button>
				{layers.length > 1 && mapType && (
					<label>
						Map type{' '}
						<select
							value={mapType}
							onChange={(event) => chooseMapType(event.target.value as MapType)}
							data-testid="planner-map-type"
						>
							{layers.map((layer) => (
								<option key={layer.type} value={layer.type}>
									{MAP_TYPE_LABELS[layer.type]}
								</option>
							))}
						</select>
					</label>
				)}
			</div>

			<PlannerFileOpen onOpen={openTrack} />

			{conflict && (
				<Suspense>
					<PlannerConflict
						conflict={conflict}
						busy={saving}
						onKeepMine={saver.keepMine}
						onTakeTheirs={takeTheirs}
					/>
				</Suspense>
			)}

			<p className="planner__summary" role="status" aria-live="polite" data-testid="planner-summary">
				{summary}
				{busy ? ' (finding roads…)' : ''}
			</p>

			{failures.length > 0 && (
				<div className="planner__notice" data-testid="planner-notice">
					{failures.map((failure) => (
						<p key={failure.key}>{failure.message}</p>
					))}
					<button type="button" onClick={() => store.retryFailed()}>
						Try roads again
					</button>
				</div>
			)}

			<div className="planner__body">
				<section
					ref={mapElement}
					className="planner__map"
					aria-label="Route map: click to add a point"
					data-testid="planner-map"
				/>

				<div className="planner__side">
					<h2 id={`${ids}-points`}>Points</h2>
					{count === 0 ? (
						<p>Click the map or add a point below to start the route.</p>
					) : (
						<PlannerPointList
							store={store}
							waypoints={state.waypoints}
							legs={legs}
							streets={streets}
							unit={unit}
							labelledBy={`${ids}-points`}
						/>
					)}

					<form className="planner__add" onSubmit={addPlace} noValidate>
						<label htmlFor={`${ids}-place`}>Add a point</label>
						<input
							id={`${ids}-place`}
							value={place}
							onChange={(event) => setPlace(event.target.value)}
							placeholder="40.2637, -76.8839 or a place"
							aria-describedby={placeError ? `${ids}-place-error` : undefined}
							autoComplete="off"
						/>
						<button type="submit">Add</button>
						{placeError && (
							<p className="planner__field-error" id={`${ids}-place-error`} role="alert">
								{placeError}
							</p>
						)}
					</form>

					<form className="planner__save" onSubmit={save} noValidate aria-labelledby={`${ids}-save`}>
						<h2 id={`${ids}-save`}>Save the route</h2>
						<label htmlFor={`${ids}-name`}>Name</label>
						<input
							id={`${ids}-name`}
							value={details.name}
							maxLength={100}
							required
							aria-invalid={fieldErrors.name ? true : undefined}
							aria-describedby={fieldErrors.name ? `${ids}-name-error` : undefined}
							onChange={(event) => saver.setDetails({ name: event.target.value })}
						/>
						{fieldError('name')}
						<label htmlFor={`${ids}-description`}>Description</label>
						<textarea
							id={`${ids}-description`}
							value={details.description}
							maxLength={2000}
							aria-describedby={fieldErrors.description ? `${ids}-description-error` : undefined}
							onChange={(event) => saver.setDetails({ description: event.target.value })}
						/>
						{fieldError('description')}
						<label htmlFor={`${ids}-activity`}>Activity</label>
						<select
							id={`${ids}-activity`}
							value={details.activity}
							onChange={(event) => saver.setDetails({ activity: Number(event.target.value) })}
						>
							{ROUTE_SEARCH_ACTIVITIES.map(([id, label]) => (
								<option key={id} value={id}>
									{label}
								</option>
							))}
						</select>
						{fieldError('activity_type')}
						<label htmlFor={`${ids}-privacy`}>Privacy</label>
						<select
							id={`${ids}-privacy`}
							value={details.privacy}
							onChange={(event) =>
								saver.setDetails({ privacy: Number(event.target.value) as RoutePrivacyValue })
							}
						>
							{ROUTE_PRIVACY_VALUES.map((value) => (
								<option key={value} value={value}>
									{ROUTE_PRIVACY_LABELS[value]}
								</option>
							))}
						</select>
						{fieldError('privacy')}
						{saveError && (
							<p className="planner__field-error" role="alert">
								{saveError}
							</p>
						)}
						<button type="submit" className="planner__submit" disabled={saving || busy}>
							{saving ? 'Saving…' : busy ? 'Finding roads…' : 'Save route'}
						</button>
					</form>
				</div>
			</div>
			<PlannerInsights store={store} map={map} unit={unit} features={features} />
		</div>
	);
}
