// The chart's stylesheet (under 2 kB) comes with the planner: a stylesheet imported only by a lazily loaded
// module is left out of the build's client files.
import 'uplot/dist/uPlot.min.css';
import './planner-insights.scss';
import { useStore } from '@nanostores/react';
import L from 'leaflet';
import { FetchError } from 'ofetch';
import { type FormEvent, lazy, Suspense, useEffect, useId, useMemo, useRef, useState } from 'react';
import { api, ensureSession, errorData } from '../../lib/api/client';
import { CHECKOUT_PATH } from '../../lib/billing/features';
import { METRES_PER_KM, METRES_PER_MILE } from '../../lib/core/units';
import {
	addNote,
	COSTING,
	checkNoteText,
	MAX_NOTE_LENGTH,
	type PlannerMode,
	removeNote,
} from '../../lib/routes/planner';
import { createHeightLoader } from '../../lib/routes/planner-heights';
import {
	type BreakdownRow,
	joinProfile,
	type LoopSuggestion,
	loopClimbs,
	loopHeightBatch,
	loopToState,
	type PlannerFeatures,
	plannerDistanceMarkers,
	readLoopSuggestions,
	sumBreakdown,
	summariseProfile,
} from '../../lib/routes/planner-insights';
import type { PlannerStore } from '../../lib/routes/planner-store';
import { elevationSeries, formatDistance, formatHeight, type Unit } from '../../lib/routes/render';
import { $elevationCursor } from '../../lib/routes/store';
import type { RoundTripResponse } from '../../lib/routing/contract';
import type { DistanceMarkerLayer } from './distance-markers';
import { usePlannerView } from './use-planner-view';

// uPlot loads only once there is a profile to draw, so the planner opens without it.
const ElevationChart = lazy(() => import('./ElevationChart'));

export type PlannerInsightsProps = {
	store: PlannerStore;
	/** The planner's map, once made. */
	map: L.Map | null;
	unit: Unit;
	/** The MVP parts this member may use; the others show what MVP adds and where to get it. */
	features: PlannerFeatures;
};

const MODE_LABELS: Record<PlannerMode, string> = {
	WALKING: 'Walking',
	BICYCLING: 'Cycling',
	DRIVING: 'Driving',
};
const BREAKDOWN_LABELS: Record<string, string> = {
	paved: 'Paved',
	unpaved: 'Unpaved',
	unknown: 'Unknown',
	road: 'Road',
	cycleway: 'Cycleway',
	path: 'Path',
	track: 'Track',
	steps: 'Steps',
};
type MarkerCode = typeof import('./distance-markers');
/** The mile-marker code once loaded: later edits move the markers without waiting for it. */
let markerCode: MarkerCode | null = null;

const COMPASS = ['north', 'north-east', 'east', 'south-east', 'south', 'south-west', 'west', 'north-west'];
const labelOf = (type: string) => BREAKDOWN_LABELS[type] ?? type;

/**
 * What the planner tells about the route as it grows: its elevation profile and climb, mile or km markers on the
 * map, the surfaces and kinds of way it follows, loops suggested from a start, and the member's own notes.
 */
export default function PlannerInsights({ store, map, unit, features }: PlannerInsightsProps) {
	// Shown with the panels: see Planner and usePlannerView.
	const { legs, routed, history } = usePlannerView(store);
	const [loader] = useState(() => createHeightLoader());
	const heights = useStore(loader.$heights);
	const loadingHeights = useStore(loader.$loading);
	const notes = history.present.notes ?? [];

	useEffect(() => {
		void loader.update(legs);
	}, [loader, legs]);
	useEffect(() => () => loader.dispose(), [loader]);

	useEffect(() => {
		if (!map || notes.length === 0) return;
		const group = L.layerGroup().addTo(map);
		notes.forEach((note, index) => {
			L.marker([note.lat, note.lng], {
				title: `Note ${index + 1}: ${note.text}`,
				alt: `Note ${index + 1}`,
				keyboard: false,
				icon: L.divIcon({ className: 'planner-note-pin', html: '<span>✎</span>', iconSize: [24, 24] }),
			})
				.bindTooltip(note.text)
				.addTo(group);
		});
		return () => {
			group.remove();
		};
	}, [map, notes]);

	// The chart's cursor, shown as a ring on the planner's line as on the route page.
	useEffect(() => {
		if (!map) return;
		const cursor = L.circleMarker([0, 0], {
			radius: 7,
			color: '#14213d',
			weight: 3,
			fillColor: '#f2c94c',
			fillOpacity: 1,
			interactive: false,
		});
		const unlisten = $elevationCursor.subscribe((point) => {
			if (!point) cursor.remove();
			else cursor.setLatLng([point.lat, point.lng]).addTo(map);
		});
		return () => {
			unlisten();
			cursor.remove();
		};
	}, [map]);

	const profile = useMemo(() => joinProfile(legs, heights), [legs, heights]);
	const markers = useMemo(() => plannerDistanceMarkers(profile, unit), [profile, unit]);
	// One set of markers for the page, moved as the route changes rather than made again after every edit. Its
	// code is loaded with the route's first mile or km, so the planner opens without it.
	const markerLayer = useRef<DistanceMarkerLayer | null>(null);
	useEffect(() => {
		if (!map || (markers.length === 0 && !markerLayer.current)) return;
		const show = ({ distanceMarkerLayer }: MarkerCode) => {
			markerLayer.current ??= distanceMarkerLayer(map);
			markerLayer.current.update(markers);
		};
		// Once loaded, moved in the same frame as the route.
		if (markerCode) return show(markerCode);
		let current = true;
		void import('./distance-markers').then((code) => {
			markerCode = code;
			if (current) show(code);
		});
		return () => {
			current = false;
		};
	}, [map, markers]);
	useEffect(() => {
		if (!map) return;
		return () => {
			markerLayer.current?.remove();
			markerLayer.current = null;
		};
	}, [map]);
	const series = useMemo(
		() => elevationSeries(profile.path, profile.distances, profile.elevations, unit),
		[profile, unit],
	);
	const climb = summariseProfile(profile);
	const breakdown = useMemo(
		() => (features.surfaceBreakdown ? sumBreakdown(legs, routed) : null),
		[features.surfaceBreakdown, legs, routed],
	);
	const ids = useId();

	const loops = features.roundTrip ? (
		<LoopSuggest store={store} map={map} unit={unit} />
	) : (
		<section
			className="planner-insights__loops"
			aria-labelledby={`${ids}-loops`}
			data-testid="planner-loops-locked"
		>
			<h2 id={`${ids}-loops`}>Suggest a loop</h2>
			<p>
				Round-trip suggestions are part of MVP. <a href={CHECKOUT_PATH}>Get MVP</a> to have loops of the
				length you choose suggested from your start point.
			</p>
		</section>
	);

	if (legs.length === 0) {
		return (
			<div className="planner-insights" data-testid="planner-insights">
				{loops}
				<PlannerNotes store={store} map={map} />
			</div>
		);
	}

	const climbText =
		climb.ascentM === null
			? loadingHeights
				? 'Finding heights…'
				: 'No heights are known along this route.'
			: `Climb ${formatHeight(climb.ascentM, unit)}, descent ${formatHeight(climb.descentM, unit)}; lowest point ${formatHeight(climb.minM, unit)}, highest ${formatHeight(climb.maxM, unit)}${profile.missing > 0 ? ' so far' : ''}.`;

	return (
		<div className="planner-insights" data-testid="planner-insights">
			<section className="planner-insights__profile" aria-labelledby={`${ids}-profile`}>
				<h2 id={`${ids}-profile`}>Elevation</h2>
				<p data-testid="planner-climb" aria-live="polite">
					{climbText}
				</p>
				{series && (
					<Suspense fallback={<div className="planner-insights__chart-space" />}>
						<ElevationChart
							series={series}
							unit={unit}
							heightUnit={unit === 'mi' ? 'ft' : 'm'}
							name="the route being planned"
							summary={`Height over ${formatDistance(profile.distances.at(-1) ?? 0, unit)}: ${climbText}`}
						/>
					</Suspense>
				)}
				<p>
					<a href="/routes/climb_information/">How is climb measured?</a>
				</p>
			</section>

			<section
				className="planner-insights__breakdown"
				aria-labelledby={`${ids}-breakdown`}
				data-testid={breakdown ? 'planner-breakdown' : 'planner-breakdown-locked'}
			>
				<h2 id={`${ids}-breakdown`}>Surfaces and ways</h2>
				{breakdown ? (
					<>
						<BreakdownTable title="Surface" rows={breakdown.surface} unit={unit} />
						<BreakdownTable title="Kind of way" rows={breakdown.wayType} unit={unit} />
					</>
				) : (
					<p>
						The surface breakdown is part of MVP. <a href={CHECKOUT_PATH}>Get MVP</a> to see how much of your
						route is paved or unpaved, and on roads, paths or tracks.
					</p>
				)}
			</section>

			{loops}
			<PlannerNotes store={store} map={map} />
		</div>
	);
}

function BreakdownTable({ title, rows, unit }: { title: string; rows: BreakdownRow[]; unit: Unit }) {
	const words = rows.map((row) => `${labelOf(row.type)} ${row.percent}%`).join(', ');
	return (
		<div className="planner-insights__breakdown-group">
			<div className="planner-insights__bar" role="img" aria-label={`${title}: ${words}`}>
				{rows.map((row) => (
					<span
						key={row.type}
						className="planner-insights__bar-part"
						data-type={row.type}
						style={{ flexGrow: row.percent }}
						title={`${labelOf(row.type)} ${row.percent}%`}
					/>
				))}
			</div>
			<table className="planner-insights__table">
				<caption>{title}</caption>
				<thead>
					<tr>
						<th scope="col">Type</th>
						<th scope="col">Distance</th>
						<th scope="col">Share</th>
					</tr>
				</thead>
				<tbody>
					{rows.map((row) => (
						<tr key={row.type} data-testid="breakdown-row">
							<th scope="row">
								<span className="planner-insights__swatch" data-type={row.type} aria-hidden="true" />
								{labelOf(row.type)}
							</th>
							<td>{formatDistance(row.metres, unit)}</td>
							<td data-testid="breakdown-percent">{row.percent.toFixed(1)}%</td>
						</tr>
					))}
				</tbody>
			</table>
		</div>
	);
}

/** The suggested loops' climbs, or none when the height service does not answer (they are a bonus). */
async function climbOf(loops: LoopSuggestion[]): Promise<(number | null)[]> {
	try {
		const response = await fetch('/api/routing/height', {
			method: 'POST',
			headers: { 'content-type': 'application/json', accept: 'application/json' },
			body: JSON.stringify({ shape: loopHeightBatch(loops).shape }),
			signal: AbortSignal.timeout(10_000),
		});
		if (!response.ok) return [];
		return loopClimbs(loops, ((await response.json()) as { height?: (number | null)[] }).height ?? []);
	} catch {
		return [];
	}
}

function LoopSuggest({ store, map, unit }: { store: PlannerStore; map: L.Map | null; unit: Unit }) {
	const { history } = usePlannerView(store);
	const [mode, setMode] = useState<PlannerMode>('WALKING');
	const [distance, setDistance] = useState('3');
	const [error, setError] = useState('');
	const [busy, setBusy] = useState(false);
	const [loops, setLoops] = useState<LoopSuggestion[]>([]);
	const [climbs, setClimbs] = useState<(number | null)[]>([]);
	const ids = useId();
	const first = history.present.waypoints[0];
	const unitM = unit === 'mi' ? METRES_PER_MILE : METRES_PER_KM;

	const suggest = async (event: FormEvent) => {
		event.preventDefault();
		setError('');
		setLoops([]);
		setClimbs([]);
		const target = Number(distance.replace(',', '.'));
		if (!Number.isFinite(target) || target * unitM < 500 || target * unitM > 200_000) {
			setError(`Type a distance from ${(500 / unitM).toFixed(1)} to ${Math.floor(200_000 / unitM)} ${unit}.`);
			return;
		}
		const centre = map?.getCenter();
		const start = first ?? (centre ? { lat: centre.lat, lng: centre.lng } : null);
		if (!start) {
			setError('Add a start point first.');
			return;
		}
		setBusy(true);
		try {
			// Round trips are MVP's: the API needs to know who asks.
			await ensureSession();
			let body: RoundTripResponse;
			try {
				body = await api<RoundTripResponse>('/routing/round_trip', {
					method: 'POST',
					body: {
						location: { lat: start.lat, lon: start.lng },
						costing: COSTING[mode],
						distance: Math.round(target * unitM),
						avoid_highways: true,
					},
					signal: AbortSignal.timeout(30_000),
				});
			} catch (problem) {
				// No answer at all is the outer catch's; an answer that refuses says why.
				if (!(problem instanceof FetchError) || problem.status === undefined) throw problem;
				const reason = errorData(problem).error;
				if (problem.status === 403 && reason) setError(reason);
				else
					setError(`No loop could be planned here${reason ? `: ${reason}` : ''}. Try another start point.`);
				return;
			}
			const found = readLoopSuggestions(body);
			if (found.length === 0) {
				setError(
					`No loop of about ${target} ${unit} was found from this start. Try another distance or start point.`,
				);
				return;
			}
			setLoops(found);
			setClimbs([]);
			void climbOf(found).then(setClimbs);
		} catch {
			setError('The loop planner did not answer. Please try again.');
		} finally {
			setBusy(false);
		}
	};

	const choose = (loop: LoopSuggestion) => {
		void store.edit((state) => loopToState(state, loop, { mode, followRoads: true, avoidHighways: true }));
		setLoops([]);
		if (map && loop.line.length > 1)
			map.fitBounds(L.latLngBounds(loop.line), { padding: [32, 32], maxZoom: 16 });
	};

	return (
		<section className="planner-insights__loops" aria-labelledby={`${ids}-loops`} data-testid="planner-loops">
			<h2 id={`${ids}-loops`}>Suggest a loop</h2>
			<p>
				From {first ? 'point 1' : 'the middle of the map'}, a round trip that comes back to where it starts.
			</p>
			<form onSubmit={suggest} noValidate className="planner-insights__loop-form">
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
				<label>
					Distance ({unit}){' '}
					<input
						inputMode="decimal"
						value={distance}
						onChange={(event) => setDistance(event.target.value)}
						aria-describedby={error ? `${ids}-loop-error` : undefined}
						size={6}
					/>
				</label>
				<button type="submit" disabled={busy}>
					{busy ? 'Looking for loops…' : 'Suggest a loop'}
				</button>
			</form>
			{error && (
				<p className="planner__field-error" id={`${ids}-loop-error`} role="alert">
					{error}
				</p>
			)}
			{loops.length > 0 && (
				<ol className="planner-insights__loop-list" data-testid="loop-suggestions">
					{loops.map((loop, index) => {
						const bearing = Math.atan2(
							loop.waypoints[1].lng + loop.waypoints[2].lng - 2 * loop.waypoints[0].lng,
							loop.waypoints[1].lat + loop.waypoints[2].lat - 2 * loop.waypoints[0].lat,
						);
						const heading = COMPASS[Math.round(((bearing * 180) / Math.PI + 360) / 45) % 8];
						return (
							// biome-ignore lint/suspicious/noArrayIndexKey: the list is replaced whole
							<li key={index}>
								<span>
									{formatDistance(loop.length, unit)} heading {heading}
									{typeof climbs[index] === 'number' ? `, climb ${formatHeight(climbs[index], unit)}` : ''}
									{loop.overlapPercent > 0
										? `, ${Math.round(loop.overlapPercent)}% on the same way twice`
										: ''}
								</span>{' '}
								<button type="button" onClick={() => choose(loop)}>
									Use loop {index + 1}
								</button>
							</li>
						);
					})}
				</ol>
			)}
		</section>
	);
}

function PlannerNotes({ store, map }: { store: PlannerStore; map: L.Map | null }) {
	const { history } = usePlannerView(store);
	const state = history.present;
	const notes = state.notes ?? [];
	const [text, setText] = useState('');
	const [where, setWhere] = useState('centre');
	const [error, setError] = useState('');
	const taker = useStore(store.$mapClickTaker);
	const ids = useId();
	// The same elements while the number of points stays, so a long route's edits do not re-render them.
	const count = state.waypoints.length;
	const pointOptions = useMemo(
		() =>
			Array.from({ length: count }, (_, index) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: an option names a place in the list, not a point
				<option key={index} value={String(index)}>
					Point {index + 1}
				</option>
			)),
		[count],
	);

	const add = (event: FormEvent) => {
		event.preventDefault();
		const problem = checkNoteText(text);
		if (problem) {
			setError(problem);
			return;
		}
		setError('');
		if (where === 'click') {
			// The next click on the map places it (and adds no point); Esc or Cancel gives up.
			store.$mapClickTaker.set((at) => {
				setText('');
				void store.edit((current) => addNote(current, { lat: at.lat, lng: at.lng, text }));
			});
			return;
		}
		const point = where === 'centre' ? null : state.waypoints[Number(where)];
		const centre = map?.getCenter();
		const at = point ?? (centre ? { lat: centre.lat, lng: centre.lng } : null);
		if (!at) {
			setError('The map is not ready yet.');
			return;
		}
		setText('');
		void store.edit((current) => addNote(current, { lat: at.lat, lng: at.lng, text }));
	};

	// While a note waits for its place: a crosshair on the map, and Esc gives up.
	useEffect(() => {
		if (!taker) return;
		const container = map?.getContainer();
		container?.classList.add('planner__map--placing');
		const onKey = (event: KeyboardEvent) => {
			if (event.key === 'Escape') store.$mapClickTaker.set(null);
		};
		window.addEventListener('keydown', onKey);
		return () => {
			container?.classList.remove('planner__map--placing');
			window.removeEventListener('keydown', onKey);
		};
	}, [taker, map, store]);
	// A note still waiting when the notes go away (the page left) waits no more.
	useEffect(() => () => store.$mapClickTaker.set(null), [store]);

	return (
		<section className="planner-insights__notes" aria-labelledby={`${ids}-notes`} data-testid="planner-notes">
			<h2 id={`${ids}-notes`}>Notes</h2>
			{notes.length > 0 && (
				<ol className="planner-insights__note-list">
					{notes.map((note, index) => (
						// biome-ignore lint/suspicious/noArrayIndexKey: notes are edited as a list
						<li key={index}>
							<span>{note.text}</span>{' '}
							<button
								type="button"
								aria-label={`Remove note ${index + 1}`}
								onClick={() => store.edit((current) => removeNote(current, index))}
							>
								✕
							</button>
						</li>
					))}
				</ol>
			)}
			<form onSubmit={add} noValidate className="planner-insights__note-form">
				<label htmlFor={`${ids}-note`}>Add a note</label>
				<input
					id={`${ids}-note`}
					value={text}
					maxLength={MAX_NOTE_LENGTH}
					onChange={(event) => setText(event.target.value)}
					aria-invalid={error ? true : undefined}
					aria-describedby={error ? `${ids}-note-error` : undefined}
					autoComplete="off"
				/>
				<label htmlFor={`${ids}-where`}>At</label>
				<select id={`${ids}-where`} value={where} onChange={(event) => setWhere(event.target.value)}>
					<option value="centre">The middle of the map</option>
					<option value="click">Where I click on the map</option>
					{pointOptions}
				</select>
				<button type="submit">Add note</button>
				{taker && (
					<p role="status" className="planner-insights__placing" data-testid="planner-note-placing">
						Click the map where this note goes.{' '}
						<button type="button" onClick={() => store.$mapClickTaker.set(null)}>
							Cancel
						</button>
					</p>
				)}
				{error && (
					<p className="planner__field-error" id={`${ids}-note-error`} role="alert">
						{error}
					</p>
				)}
			</form>
		</section>
	);
}
