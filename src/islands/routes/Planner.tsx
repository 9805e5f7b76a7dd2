import 'leaflet/dist/leaflet.css';
import './planner.scss';
import { useStore } from '@nanostores/react';
import L from 'leaflet';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { api, ensureSession, errorData } from '../../lib/api/client';
import {
	MAP_TYPE_STORAGE_KEY,
	MAP_VIEW_STORAGE_KEY,
	type MapTileLayer,
	OSM_ATTRIBUTION,
} from '../../lib/core/map-types';
import {
	CUSTOM_NOTE_ICON_ID,
	ROUTE_PRIVACY_LABELS,
	ROUTE_PRIVACY_VALUES,
	ROUTE_SEARCH_ACTIVITIES,
	type RoutePrivacyValue,
} from '../../lib/routes/contract';
import {
	addWaypoint,
	buildSavePayload,
	closeLoop,
	EMPTY_PLANNER,
	type LatLng,
	type LegStatus,
	measurePlan,
	moveWaypoint,
	outAndBack,
	PLANNER_DRAFT_STORAGE_KEY,
	type PlannerMode,
	type PlannerState,
	removeWaypoint,
	restoreState,
	reverseRoute,
	shiftWaypoint,
} from '../../lib/routes/planner';
import { createPlannerStore, withHeights } from '../../lib/routes/planner-store';
import { formatDistance, type Unit } from '../../lib/routes/render';
import { recallPreference, rememberPreference } from '../../lib/site/cookie-choices';

export type PlannerProps = {
	unit: Unit;
	/** The configured map types, the default first. */
	layers: MapTileLayer[];
};

/** The unsaved route, kept as the member edits and offered back when the page opens again. */
/** Where the planner's map was last left, so it opens there next time. */
/** Central Harrisburg, the demo region, when the member has no last map position. */
const DEFAULT_VIEW = { lat: 40.272, lng: -76.85, zoom: 15 };

const MODE_LABELS: Record<PlannerMode, string> = {
	WALKING: 'Walking',
	BICYCLING: 'Cycling',
	DRIVING: 'Driving',
};
const GAP_LABELS: Record<LegStatus, string> = {
	routed: 'following roads',
	pending: 'finding roads…',
	straight: 'straight line',
};

type Details = { name: string; description: string; activity: number; privacy: RoutePrivacyValue };
const EMPTY_DETAILS: Details = { name: '', description: '', activity: 16, privacy: 0 };
type Draft = { state: PlannerState; details: Details };

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

function readDraft(): Draft | null {
	const raw = readStorage<{ state?: unknown; details?: Partial<Details> }>(PLANNER_DRAFT_STORAGE_KEY);
	const state = restoreState(raw?.state);
	if (!state || state.waypoints.length === 0) return null;
	const details = raw?.details ?? {};
	return {
		state,
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

function readView(): { lat: number; lng: number; zoom: number } {
	let view: { lat?: unknown; lng?: unknown; zoom?: unknown } | null = null;
	try {
		view = JSON.parse(recallPreference('local', MAP_VIEW_STORAGE_KEY) ?? 'null');
	} catch {
		view = null;
	}
	const ok = (value: unknown, limit: number) =>
		typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= limit;
	return view && ok(view.lat, 90) && ok(view.lng, 180) && ok(view.zoom, 22)
		? { lat: view.lat as number, lng: view.lng as number, zoom: view.zoom as number }
		: DEFAULT_VIEW;
}

function escapeHtml(text: string): string {
	return text.replace(
		/[&<>"']/g,
		(c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
	);
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
export default function Planner({ unit, layers }: PlannerProps) {
	const [store] = useState(() => createPlannerStore());
	const history = useStore(store.$history);
	const legs = useStore(store.$legs);
	const pending = useStore(store.$pending);
	const failures = useStore(store.$failures);
	useStore(store.$streets);
	const state = history.present;

	const [mode, setMode] = useState<PlannerMode>('WALKING');
	const [followRoads, setFollowRoads] = useState(true);
	const [details, setDetails] = useState<Details>(EMPTY_DETAILS);
	const [offer, setOffer] = useState<Draft | null>(() => readDraft());
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
	const addPoint = (point: LatLng) => store.edit((s) => addWaypoint(s, point, legOptions()));

	// The map, once: opened where the member last left it, a click adds a waypoint. Later choices (travel mode,
	// follow roads) are read through a ref, so the map is never rebuilt.
	// biome-ignore lint/correctness/useExhaustiveDependencies: made once per page
	useEffect(() => {
		if (!mapElement.current) return;
		const view = readView();
		const created = L.map(mapElement.current, { scrollWheelZoom: true }).setView(
			[view.lat, view.lng],
			view.zoom,
		);
		created.attributionControl.addAttribution(escapeHtml(OSM_ATTRIBUTION));
		const stored = recallPreference('local', MAP_TYPE_STORAGE_KEY);
		const layer = layers.find((candidate) => candidate.type === stored) ?? layers[0];
		if (layer) {
			L.tileLayer(layer.url, {
				attribution: layer.attribution ? escapeHtml(layer.attribution) : undefined,
				maxZoom: layer.maxZoom,
			}).addTo(created);
		}
		created.on('click', (event: L.LeafletMouseEvent) => {
			addPoint({ lat: event.latlng.lat, lng: event.latlng.lng });
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

	// The route on the map: each gap dashed until it follows roads, waypoints as draggable numbered pins.
	useEffect(() => {
		if (!map) return;
		const group = L.layerGroup().addTo(map);
		for (const leg of legs) {
			L.polyline(
				leg.points.map((p) => [p.lat, p.lng] as [number, number]),
				{ className: `planner-leg planner-leg--${leg.status}`, weight: 5, interactive: false },
			).addTo(group);
		}
		state.waypoints.forEach((waypoint, index) => {
			const marker = L.marker([waypoint.lat, waypoint.lng], {
				draggable: true,
				title: `Point ${index + 1}`,
				alt: `Point ${index + 1}`,
				icon: L.divIcon({
					className: 'planner-pin',
					html: `<span>${index + 1}</span>`,
					iconSize: [28, 28],
				}),
			}).addTo(group);
			marker.on('dragend', () => {
				const at = marker.getLatLng();
				store.edit((s) => moveWaypoint(s, index, { lat: at.lat, lng: at.lng }));
			});
		});
		return () => {
			group.remove();
		};
	}, [map, legs, state, store]);

	// Ctrl+Z and Ctrl+Shift+Z, except while typing, where the field's own undo applies.
	useEffect(() => {
		const onKey = (event: KeyboardEvent) => {
			if (!(event.ctrlKey || event.metaKey) || event.key.toLowerCase() !== 'z') return;
			const target = event.target as HTMLElement | null;
			if (target?.closest('input, textarea, select, [contenteditable="true"]')) return;
			event.preventDefault();
			if (event.shiftKey) store.redo();
			else store.undo();
		};
		window.addEventListener('keydown', onKey);
		return () => window.removeEventListener('keydown', onKey);
	}, [store]);

	// The draft follows every edit, but never overwrites one still being offered back.
	useEffect(() => {
		if (offer) return;
		if (state.waypoints.length === 0 && !details.name && !details.description)
			writeStorage(PLANNER_DRAFT_STORAGE_KEY, null);
		else writeStorage(PLANNER_DRAFT_STORAGE_KEY, { state, details });
	}, [state, details, offer]);

	const restore = () => {
		if (!offer) return;
		store.reset(offer.state);
		setDetails(offer.details);
		setOffer(null);
		if (map && offer.state.waypoints.length > 0) {
			map.fitBounds(L.latLngBounds(offer.state.waypoints.map((p) => [p.lat, p.lng] as [number, number])), {
				padding: [32, 32],
				maxZoom: 16,
			});
		}
	};
	const discard = () => {
		writeStorage(PLANNER_DRAFT_STORAGE_KEY, null);
		setOffer(null);
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
		if (legs.length === 0) {
			setSaveError('A route needs at least two points.');
			return;
		}
		setSaving(true);
		try {
			const drawn = buildSavePayload(
				legs,
				[],
				{
					name: details.name,
					description: details.description,
					activity_type: details.activity,
					privacy: details.privacy,
				},
				CUSTOM_NOTE_ICON_ID,
			);
			const payload = await withHeights(drawn);
			await ensureSession();
			const saved = await api<{ id: number }>('/v7.1/route/', {
				method: 'POST',
				body: payload as unknown as Record<string, unknown>,
			});
			writeStorage(PLANNER_DRAFT_STORAGE_KEY, null);
			window.location.assign(`/routes/view/${saved.id}`);
		} catch (error) {
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
		}
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
				<button type="button" onClick={() => store.undo()} disabled={history.past.length === 0}>
					Undo
				</button>
				<button type="button" onClick={() => store.redo()} disabled={history.future.length === 0}>
					Redo
				</button>
				<button type="button" onClick={() => store.edit(reverseRoute)} disabled={count < 2}>
					Reverse
				</button>
				<button type="button" onClick={() => store.edit(outAndBack)} disabled={count < 2}>
					Out and back
				</button>
				<button type="button" onClick={() => store.edit(closeLoop)} disabled={count < 2}>
					Close loop
				</button>
				<button type="button" onClick={() => store.edit(() => EMPTY_PLANNER)} disabled={count === 0}>
					Clear
				</button>
			</div>

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
						<ol className="planner__points" aria-labelledby={`${ids}-points`} data-testid="planner-points">
							{state.waypoints.map((waypoint, index) => {
								const street = store.streetAt(waypoint);
								const gap = legs[index];
								const n = index + 1;
								return (
									<li key={waypoint.id}>
										<span className="planner__point-name">
											{street ?? `${waypoint.lat.toFixed(5)}, ${waypoint.lng.toFixed(5)}`}
										</span>
										<span className="planner__point-actions">
											<button
												type="button"
												aria-label={`Move point ${n} up`}
												disabled={index === 0}
												onClick={() => store.edit((s) => shiftWaypoint(s, index, -1))}
											>
												↑
											</button>
											<button
												type="button"
												aria-label={`Move point ${n} down`}
												disabled={index === count - 1}
												onClick={() => store.edit((s) => shiftWaypoint(s, index, 1))}
											>
												↓
											</button>
											<button
												type="button"
												aria-label={`Remove point ${n}`}
												onClick={() => store.edit((s) => removeWaypoint(s, index))}
											>
												✕
											</button>
										</span>
										{gap && (
											<span className="planner__gap" data-status={gap.status} data-testid="planner-gap">
												To point {n + 1}: {GAP_LABELS[gap.status]} ({formatDistance(gap.distance, unit)})
											</span>
										)}
									</li>
								);
							})}
						</ol>
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
		</div>
	);
}
