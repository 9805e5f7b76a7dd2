import 'leaflet/dist/leaflet.css';
import './planner.scss';
import L from 'leaflet';
import { type FormEvent, lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { trackEvent } from '../../lib/analytics/queue';
import { api, ensureSession, errorCode, errorData } from '../../lib/api/client';
import { escapeHtml } from '../../lib/core/html';
import { MAP_TYPE_LABELS, type MapTileLayer, type MapType, OSM_ATTRIBUTION } from '../../lib/core/map-types';
import {
	CUSTOM_NOTE_ICON_ID,
	ROUTE_PRIVACY_LABELS,
	ROUTE_PRIVACY_VALUES,
	ROUTE_SEARCH_ACTIVITIES,
	type RoutePrivacyValue,
	type RouteSaveInput,
} from '../../lib/routes/contract';
import {
	addWaypoint,
	buildSavePayload,
	closeLoop,
	EMPTY_PLANNER,
	insertWaypoint,
	type LatLng,
	measurePlan,
	moveWaypoint,
	type OpenedRoute,
	outAndBack,
	type PlannerMode,
	type PlannerState,
	planFromSavedRoute,
	planFromTrack,
	plannerDraftKey,
	type RoutedLeg,
	restoreRouted,
	restoreState,
	reverseRoute,
	type SavedRoute,
} from '../../lib/routes/planner';
import type { PlannerFeatures } from '../../lib/routes/planner-insights';
import { FRAME_MAX_ZOOM, FRAME_PADDING_PX } from '../../lib/routes/planner-preview';
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
import type { SaveConflict } from './PlannerConflict';
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

type Details = { name: string; description: string; activity: number; privacy: RoutePrivacyValue };
const EMPTY_DETAILS: Details = { name: '', description: '', activity: 16, privacy: 0 };
type Draft = { state: PlannerState; details: Details; routed: Map<string, RoutedLeg> };

function detailsOf(route: SavedRoute): Details {
	return {
		name: route.name,
		description: route.description,
		activity: route.activity_type,
		privacy: ROUTE_PRIVACY_VALUES.includes(route.privacy as RoutePrivacyValue)
			? (route.privacy as RoutePrivacyValue)
			: 0,
	};
}

/** How long edits must pause before the draft is written. */
const DRAFT_WRITE_DELAY_MS = 300;

function readStorage<T>(key: string): T | null {
	try {
		const text = window.localStorage.getItem(key);
		return text ? (JSON.parse(text) as T) : null;
	} catch {
		return null;
	}
}

function writeStorage(key: string, value: unknown): void {
	try {
		if (value === null) window.localStorage.removeItem(key);
		else window.localStorage.setItem(key, JSON.stringify(value));
	} catch {
		// Storage can be full or switched off; the page works without it.
	}
}

function readDraft(key: string): Draft | null {
	const raw = readStorage<{ state?: unknown; details?: Partial<Details>; routed?: unknown }>(key);
	const state = restoreState(raw?.state);
	if (!state || state.waypoints.length === 0) return null;
	const details = raw?.details ?? {};
	return {
		state,
		routed: restoreRouted(raw?.routed),
		details: {
			name: typeof details.name === 'string' ? details.name : '',
			description: typeof details.description === 'string' ? details.description : '',
			activity: ROUTE_SEARCH_ACTIVITIES.some(([id]) => id === details.activity)
				? (details.activity as number)
				: 16,
			privacy: ROUTE_PRIVACY_VALUES.includes(details.privacy as RoutePrivacyValue)
				? (details.privacy as RoutePrivacyValue)
				: 0,
		},
	};
}

/** Runs one of the route tools (undo, reverse, clear…), counted by its name. */
function control(name: string, run: () => unknown): void {
	trackEvent('route_control_performed', { control: name });
	run();
}

const COORDINATES = /^\s*(-?\d{1,2}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)\s*$/;

/** "lat, lng" typed by the member, or null when the text is a place name. */
export function parseCoordinates(text: string): LatLng | null {
	const match = COORDINATES.exec(text);
	if (!match) return null;
	const lat = Number(match[1]);
	const lng = Number(match[2]);
	return Math.abs(lat) <= 90 && Math.abs(lng) <= 180 ? { lat, lng } : null;
}

/**
 * The route planner: a click on the map adds a waypoint, each new gap drawn straight at once and swapped for the
 * road-following line when the routing service answers. Everything the map does can also be done from the
 * waypoint list and the "Add a point" form, so the planner works without a mouse.
 */
export default function Planner({ unit, layers, opened, features, rollouts }: PlannerProps) {
	const draftKey = plannerDraftKey(
		opened ? { kind: opened.kind, routeId: opened.routeId } : { kind: 'create' },
	);
	const [initialDetails, setInitialDetails] = useState<Details>(() =>
		opened ? detailsOf(opened.route) : EMPTY_DETAILS,
	);
	const [store] = useState(() => {
		const created = createPlannerStore();
		if (opened) {
			const plan = planFromSavedRoute(opened.route);
			created.reset(plan.state, plan.routed);
		}
		return created;
	});
	/** The version the edit is based on: sent with the save, so a save made elsewhere meanwhile is not lost. */
	const version = useRef(opened?.route.version ?? null);
	const [conflict, setConflict] = useState<SaveConflict | null>(null);
	const [theirs, setTheirs] = useState<SavedRoute | null>(null);
	/** The save that lost to a newer one, kept while the member chooses. */
	const pendingSave = useRef<RouteSaveInput | null>(null);
	// The map's line follows the store at once (below); the panels follow its view: in the same frame after the
	// member's own edit, a frame after the line when a routing answer completes it (usePlannerView).
	const { history, legs, pending, failures, streets } = usePlannerView(store);
	const state = history.present;

	const [mode, setMode] = useState<PlannerMode>('WALKING');
	const [followRoads, setFollowRoads] = useState(true);
	const [details, setDetails] = useState<Details>(initialDetails);
	const [offer, setOffer] = useState<Draft | null>(() => readDraft(draftKey));
	const [mapType, setMapType] = useState<MapType | undefined>(() => storedMapType(layers));
	const [place, setPlace] = useState('');
	const [placeError, setPlaceError] = useState('');
	const [saving, setSaving] = useState(false);
	const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
	const [saveError, setSaveError] = useState('');

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

	/** Set once the route is saved: nothing may write its draft back while the page is left. */
	const draftClosed = useRef(false);
	// The draft follows every edit, but never overwrites one still being offered back. A saved route opened
	// unchanged has nothing unsaved; drawn legs keep their shapes, so a restored draft is not routed again.
	// It is written once edits pause (a long route's draft is large) and at once when the page is left, from the
	// store as it is then: the panels' view may lag the route by a moment.
	// biome-ignore lint/correctness/useExhaustiveDependencies: the view's values say when the route changed
	useEffect(() => {
		if (offer) return;
		const write = () => {
			if (draftClosed.current) return;
			const { past, present } = store.$history.get();
			const untouched = opened
				? past.length === 0 && details === initialDetails
				: present.waypoints.length === 0 && !details.name && !details.description;
			if (untouched) writeStorage(draftKey, null);
			else
				writeStorage(draftKey, {
					state: present,
					details,
					routed: store.$legs
						.get()
						.filter((leg) => leg.status === 'routed')
						.map((leg) => [leg.key, { points: leg.points, distance: leg.distance, cues: leg.cues }]),
				});
		};
		const timer = window.setTimeout(write, DRAFT_WRITE_DELAY_MS);
		window.addEventListener('pagehide', write);
		return () => {
			window.clearTimeout(timer);
			window.removeEventListener('pagehide', write);
		};
	}, [store, state, details, offer, legs, opened, initialDetails, draftKey]);

	const restore = () => {
		if (!offer) return;
		store.reset(offer.state, offer.routed);
		setDetails(offer.details);
		setOffer(null);
		fitTo(map, offer.state.waypoints);
	};
	const discard = () => {
		writeStorage(draftKey, null);
		setOffer(null);
	};

	const openTrack = (track: OpenedTrack) => {
		const next = planFromTrack(track.points, options.current.mode);
		trackEvent('route_control_performed', { control: 'open_file' });
		store.edit(() => next);
		if (!details.name.trim() && track.name) setDetails({ ...details, name: track.name.slice(0, 100) });
		fitTo(map, next.waypoints);
	};

	const distance = measurePlan(legs);
	const count = state.waypoints.length;
	const summary = `Route ${formatDistance(distance, unit)}, ${count} ${count === 1 ? 'point' : 'points'}`;
	const busy = pending.size > 0;

	const addPlace = async (event: FormEvent) => {
		event.preventDefault();
		setPlaceError('');
		const text = place.trim();
		if (!text) {
			setPlaceError('Type "lat, lng" or a place name.');
			return;
		}
		const point = parseCoordinates(text);
		if (point) {
			addPoint(point);
			setPlace('');
			map?.panTo([point.lat, point.lng]);
			return;
		}
		try {
			const response = await fetch(
				`/api/geocode/search?${new URLSearchParams({ q: text, format: 'geojson', limit: '1' })}`,
				{ signal: AbortSignal.timeout(10_000), headers: { accept: 'application/json' } },
			);
			const found = response.ok
				? ((await response.json()) as { features?: { geometry: { coordinates: [number, number] } }[] })
				: null;
			const feature = found?.features?.[0];
			if (!feature) {
				setPlaceError(`No place called "${text}" was found.`);
				return;
			}
			const [lng, lat] = feature.geometry.coordinates;
			addPoint({ lat, lng });
			setPlace('');
			map?.panTo([lat, lng]);
		} catch {
			setPlaceError('The place search did not answer. Please try again.');
		}
	};

	const save = async (event: FormEvent) => {
		event.preventDefault();
		setSaveError('');
		setFieldErrors({});
		if (!details.name.trim()) {
			setFieldErrors({ name: ['Name is required.'] });
			return;
		}
		// From the store, not the panels' view, which may lag the newest click by a moment.
		const route = store.$legs.get();
		if (route.length === 0) {
			setSaveError('A route needs at least two points.');
			return;
		}
		setSaving(true);
		setConflict(null);
		try {
			const drawn = buildSavePayload(
				route,
				store.$history.get().present.notes ?? [],
				{
					name: details.name,
					description: details.description,
					activity_type: details.activity,
					privacy: details.privacy,
				},
				CUSTOM_NOTE_ICON_ID,
			);
			await send(drawn);
		} catch (error) {
			fail(error);
		}
	};

	/** Saves: an edit replaces its route if nobody saved it meanwhile; a new route or a copy is a route of the member's. */
	const send = async (payload: RouteSaveInput) => {
		await ensureSession();
		if (opened?.kind === 'edit') {
			try {
				const saved = await api<{ id: number; version: number }>(`/v7.1/route/${opened.routeId}/`, {
					method: 'PUT',
					body: { ...payload, version: version.current ?? undefined } as unknown as Record<string, unknown>,
				});
				version.current = saved.version;
				trackEvent('route_updated', { route_id: saved.id, points: payload.points.length });
				finish(saved.id);
			} catch (error) {
				const current = (errorData(error) as { current?: SavedRoute }).current;
				if (errorCode(error) !== 'precondition_failed' || !current) throw error;
				pendingSave.current = payload;
				setTheirs(current);
				setConflict({
					sentVersion: version.current ?? 0,
					savedVersion: current.version,
					savedName: current.name,
				});
				setSaving(false);
			}
			return;
		}
		const saved = await api<{ id: number }>('/v7.1/route/', {
			method: 'POST',
			body: payload as unknown as Record<string, unknown>,
		});
		if (opened?.kind === 'copy')
			trackEvent('route_copied', { route_id: saved.id, source_route_id: opened.routeId });
		else trackEvent('route_created', { route_id: saved.id, points: payload.points.length });
		finish(saved.id);
	};

	const finish = (id: number) => {
		draftClosed.current = true;
		writeStorage(draftKey, null);
		window.location.assign(`/routes/view/${id}`);
	};

	const keepMine = async () => {
		const payload = pendingSave.current;
		if (!payload || !theirs) return;
		version.current = theirs.version;
		setConflict(null);
		setSaving(true);
		try {
			await send(payload);
		} catch (error) {
			fail(error);
		}
	};

	const takeTheirs = () => {
		if (!theirs) return;
		const plan = planFromSavedRoute(theirs);
		const taken = detailsOf(theirs);
		version.current = theirs.version;
		store.reset(plan.state, plan.routed);
		setInitialDetails(taken);
		setDetails(taken);
		setConflict(null);
		setTheirs(null);
		pendingSave.current = null;
		fitTo(map, plan.state.waypoints);
	};

	const fail = (error: unknown) => {
		const data = errorData(error);
		const failures: Record<string, string[]> = {};
		for (const entry of data._diagnostics?.validation_failures ?? []) {
			for (const [field, messages] of Object.entries(entry)) {
				const key = field.split('.')[0].toLowerCase();
				failures[key] = [...(failures[key] ?? []), ...messages];
			}
		}
		setFieldErrors(failures);
		const known = ['name', 'description', 'activity_type', 'privacy'];
		const other = Object.entries(failures)
			.filter(([field]) => !known.includes(field))
			.flatMap(([, messages]) => messages);
		setSaveError(other.join(' ') || data.message || 'The route could not be saved. Please try again.');
		setSaving(false);
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
					<button type="button" onClick={discard}>
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
						onKeepMine={keepMine}
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
							onChange={(event) => setDetails({ ...details, name: event.target.value })}
						/>
						{fieldError('name')}
						<label htmlFor={`${ids}-description`}>Description</label>
						<textarea
							id={`${ids}-description`}
							value={details.description}
							maxLength={2000}
							aria-describedby={fieldErrors.description ? `${ids}-description-error` : undefined}
							onChange={(event) => setDetails({ ...details, description: event.target.value })}
						/>
						{fieldError('description')}
						<label htmlFor={`${ids}-activity`}>Activity</label>
						<select
							id={`${ids}-activity`}
							value={details.activity}
							onChange={(event) => setDetails({ ...details, activity: Number(event.target.value) })}
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
								setDetails({ ...details, privacy: Number(event.target.value) as RoutePrivacyValue })
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
