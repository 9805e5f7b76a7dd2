import { atom, computed } from 'nanostores';
import type { RouteBreakdown } from '../routing/contract';
import { decodePolyline } from '../routing/polyline';
import type { RouteCue } from './contract';
import { haversineM } from './geo';
import {
	COSTING,
	commit,
	createHistory,
	type LatLng,
	type PlannedLeg,
	type PlannedLegCache,
	type PlannerHistory,
	type PlannerState,
	planFromSavedRoute,
	planLegs,
	type RoutedLeg,
	redo,
	type SavedRouteShape,
	undo,
} from './planner';

/** A gap's road-following request gives up after this long; the straight line then stays (SPEC §8). */
export const ROUTING_TIMEOUT_MS = 10_000;

export type RouteFetch = (input: string, init: RequestInit) => Promise<Response>;

/**
 * How long the planner's panels may lag a change while the new gap's road-following answer is on its way: they
 * catch up with the routed line, in one frame, rather than each redrawing the page before the answer.
 */
export const PANEL_HOLD_MS = 150;

const NO_FAILURES: readonly GapFailure[] = [];

export type PlannerStoreOptions = {
	/** The saved route an edit or a copy opens with, its gaps drawn as saved; none for a new route. */
	opened?: SavedRouteShape;
	fetch?: RouteFetch;
	timeoutMs?: number;
	warn?: (message: string, detail?: unknown) => void;
	panelHoldMs?: number;
};

/** A gap the routing service could not follow roads for; it stays a straight line. */
export type GapFailure = { key: string; index: number; message: string };

type ValhallaManeuver = {
	instruction: string;
	length: number;
	begin_shape_index: number;
	street_names?: string[];
};
type ValhallaAnswer = {
	trip?: {
		legs?: { shape: string; maneuvers: ValhallaManeuver[] }[];
		units?: string;
		breakdown?: RouteBreakdown;
	};
};

const at = (point: LatLng) => `${point.lat.toFixed(6)},${point.lng.toFixed(6)}`;

function measure(points: readonly LatLng[]): number {
	let total = 0;
	for (let i = 1; i < points.length; i++) {
		total += haversineM(points[i - 1].lat, points[i - 1].lng, points[i].lat, points[i].lng);
	}
	return total;
}

/**
 * Reads a route answer into a routed gap. The distance is measured along the shape, as the route API measures a
 * saved route, so the planner shows what the saved route will say.
 */
export function readRouteAnswer(answer: ValhallaAnswer): {
	leg: RoutedLeg;
	fromStreet: string | null;
	toStreet: string | null;
} {
	const legs = answer.trip?.legs;
	if (!legs?.length) throw new Error('The routing answer has no legs.');
	const metresPerUnit = answer.trip?.units === 'miles' ? 1609.344 : 1000;
	const points: LatLng[] = [];
	const cues: RouteCue[] = [];
	let travelled = 0;
	let fromStreet: string | null = null;
	let toStreet: string | null = null;
	for (const leg of legs) {
		const shape = decodePolyline(leg.shape, 6).map(([lat, lng]) => ({ lat, lng }));
		for (const maneuver of leg.maneuvers) {
			const point = shape[Math.min(maneuver.begin_shape_index, shape.length - 1)];
			const street = maneuver.street_names?.[0] ?? null;
			fromStreet ??= street;
			if (street) toStreet = street;
			if (point) {
				cues.push({
					instructions: maneuver.instruction,
					lat: point.lat,
					lng: point.lng,
					distance: Math.round(travelled),
					isCustomNote: false,
				});
			}
			travelled += maneuver.length * metresPerUnit;
		}
		for (const point of shape) {
			const tail = points.at(-1);
			if (tail && tail.lat === point.lat && tail.lng === point.lng) continue;
			points.push(point);
		}
	}
	if (points.length < 2) throw new Error('The routing answer has no line.');
	const breakdown = answer.trip?.breakdown;
	return {
		leg: { points, distance: measure(points), cues, ...(breakdown ? { breakdown } : {}) },
		fromStreet,
		toStreet,
	};
}

/**
 * The planner page's state: the undo history of waypoints and gap options, the road-following answers beside it
 * (kept across undo), the gaps asked for and not yet answered, and the gaps that could not be routed.
 */
export function createPlannerStore(options: PlannerStoreOptions = {}) {
	const send: RouteFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
	const timeoutMs = options.timeoutMs ?? ROUTING_TIMEOUT_MS;
	const warn = options.warn ?? ((message, detail) => console.warn(message, detail));

	const opened = options.opened ? planFromSavedRoute(options.opened) : null;
	const $history = atom<PlannerHistory>(createHistory(opened?.state));
	const $routed = atom<ReadonlyMap<string, RoutedLeg>>(opened?.routed ?? new Map());
	const $pending = atom<ReadonlySet<string>>(new Set());
	const $failed = atom<ReadonlySet<string>>(new Set());
	/** Street names where waypoints were snapped, by `lat,lng`. */
	const $streets = atom<ReadonlyMap<string, string>>(new Map());
	/** Takes the next click on the map instead of it adding a point (placing a note); null: a click adds one. */
	const $mapClickTaker = atom<((at: LatLng) => void) | null>(null);

	const legCache: PlannedLegCache = new WeakMap();
	const $legs = computed([$history, $routed, $failed], (history, routed, failed) =>
		planLegs(history.present, routed, failed, legCache),
	);
	const $failures = computed([$legs, $failed], (legs, failed): readonly GapFailure[] =>
		// Nothing failed, the common case: the same empty list, so nothing downstream sees a change.
		failed.size === 0
			? NO_FAILURES
			: legs.flatMap((leg, index) =>
					leg.options.followRoads && failed.has(leg.key)
						? [
								{
									key: leg.key,
									index,
									message: `Roads could not be followed from point ${index + 1} to point ${index + 2}; that part is a straight line.`,
								},
							]
						: [],
				),
	);

	/**
	 * The route as the panels (point list, summary, profile) show it. It catches up once no gap is waiting for
	 * its answer, or `PANEL_HOLD_MS` after a change at the latest; the map draws from the stores above at once.
	 * `atOnce` marks a view that shows the member's own edit (a drag, an undo) with nothing to wait for: the
	 * panels show it in the same frame as the map, since one render and one paint cost less than the line
	 * painted first and the panels a frame later. A view that follows an answer or the hold may come a frame
	 * after the line.
	 */
	let views = 0;
	const readView = (atOnce: boolean) => ({
		history: $history.get(),
		legs: $legs.get(),
		routed: $routed.get(),
		pending: $pending.get(),
		failures: $failures.get(),
		streets: $streets.get(),
		atOnce,
		/** Counts the views, so a panel shown both ways can tell the newer one. */
		seq: ++views,
	});
	const $view = atom(readView(false));
	const holdMs = options.panelHoldMs ?? PANEL_HOLD_MS;
	let holding: ReturnType<typeof setTimeout> | undefined;
	let checking = false;
	/** Set when the route itself changed since the view was last looked at. */
	let edited = false;
	const catchUp = (atOnce: boolean) => {
		clearTimeout(holding);
		holding = undefined;
		$view.set(readView(atOnce));
	};
	const viewChanged = (edit: boolean) => {
		edited ||= edit;
		// Looked at once the change is done: an edit asks for its gaps' answers just after changing the route.
		if (checking) return;
		checking = true;
		queueMicrotask(() => {
			checking = false;
			const byEdit = edited;
			edited = false;
			if ($pending.get().size === 0) catchUp(byEdit);
			else holding ??= setTimeout(() => catchUp(false), holdMs);
		});
	};
	for (const source of [$history, $legs, $routed, $pending, $failures, $streets])
		source.listen(() => viewChanged(source === $history));

	const isCurrent = (key: string) => $legs.get().some((leg) => leg.key === key);
	const without = (set: ReadonlySet<string>, key: string) => {
		const next = new Set(set);
		next.delete(key);
		return next;
	};

	async function request(leg: PlannedLeg): Promise<void> {
		$pending.set(new Set($pending.get()).add(leg.key));
		try {
			const response = await send('/api/routing/route', {
				method: 'POST',
				headers: { 'content-type': 'application/json', accept: 'application/json' },
				body: JSON.stringify({
					locations: [
						{ lat: leg.from.lat, lon: leg.from.lng },
						{ lat: leg.to.lat, lon: leg.to.lng },
					],
					costing: COSTING[leg.options.mode],
					avoid_highways: leg.options.avoidHighways,
					directions_options: { units: 'kilometers' },
				}),
				signal: AbortSignal.timeout(timeoutMs),
			});
			if (!response.ok) {
				const body = (await response.json().catch(() => null)) as { error?: string } | null;
				throw new Error(`Routing answered ${response.status}${body?.error ? `: ${body.error}` : ''}`);
			}
			const answer = readRouteAnswer((await response.json()) as ValhallaAnswer);
			// The gap may have been moved, removed or undone meanwhile: an answer for it is no longer wanted.
			if (!isCurrent(leg.key)) return;
			$routed.set(new Map($routed.get()).set(leg.key, answer.leg));
			const streets = new Map($streets.get());
			if (answer.fromStreet) streets.set(at(leg.from), answer.fromStreet);
			if (answer.toStreet) streets.set(at(leg.to), answer.toStreet);
			$streets.set(streets);
		} catch (error) {
			if (!isCurrent(leg.key)) return;
			$failed.set(new Set($failed.get()).add(leg.key));
			warn(`Roads could not be followed between ${at(leg.from)} and ${at(leg.to)}`, error);
		} finally {
			$pending.set(without($pending.get(), leg.key));
		}
	}

	/** Asks for every gap that follows roads and has neither an answer, a request under way nor a failure. */
	async function routeMissing(): Promise<void> {
		const pending = $pending.get();
		await Promise.all(
			$legs
				.get()
				.filter((leg) => leg.status === 'pending' && !pending.has(leg.key))
				.map((leg) => request(leg)),
		);
	}

	function edit(change: (state: PlannerState) => PlannerState): Promise<void> {
		const history = $history.get();
		$history.set(commit(history, change(history.present)));
		return routeMissing();
	}

	// A gap of the opened route saved without its shape follows roads once asked.
	if (opened) void routeMissing();

	return {
		$history,
		$routed,
		$pending,
		$failed,
		$streets,
		$mapClickTaker,
		$legs,
		$failures,
		$view,
		edit,
		undo: () => {
			$history.set(undo($history.get()));
			return routeMissing();
		},
		redo: () => {
			$history.set(redo($history.get()));
			return routeMissing();
		},
		/**
		 * Starts over from a saved state (a restored draft, a saved route), with no undo steps; `drawn` holds the
		 * shapes its legs already have, so they are shown as saved instead of being routed again.
		 */
		reset: (state?: PlannerState, drawn?: ReadonlyMap<string, RoutedLeg>) => {
			if (drawn) $routed.set(new Map([...$routed.get(), ...drawn]));
			$failed.set(new Set());
			$history.set(createHistory(state));
			return routeMissing();
		},
		/** Asks again for the gaps that failed. */
		retryFailed: () => {
			$failed.set(new Set());
			return routeMissing();
		},
		streetAt: (point: LatLng) => $streets.get().get(at(point)) ?? null,
	};
}

export type PlannerStore = ReturnType<typeof createPlannerStore>;
