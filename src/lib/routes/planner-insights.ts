import { checkFeature } from '../billing/features';
import type { RoundTripResponse } from '../routing/contract';
import { decodePolyline } from '../routing/polyline';
import { type ElevationSummary, haversineM, summariseElevation } from './geo';
import {
	addWaypoint,
	EMPTY_PLANNER,
	joinLegs,
	type LatLng,
	type LegOptions,
	type PlannedLeg,
	type PlannerState,
	type RoutedLeg,
} from './planner';
import { distanceMarkers, type Unit } from './render';

// What the planner shows about the route as it is drawn: its height profile and climb, its mile or km markers,
// the surfaces and kinds of way it follows, and loops suggested from a start point. Pure: no map, no fetch.

/** The planner's MVP parts the member may use, decided by the one premium policy for the page's viewer. */
export type PlannerFeatures = { roundTrip: boolean; surfaceBreakdown: boolean };

export function plannerFeaturesFor(viewer: { isPremium: boolean } | null | undefined): PlannerFeatures {
	return {
		roundTrip: checkFeature(viewer, 'round_trip_routes'),
		surfaceBreakdown: checkFeature(viewer, 'surface_breakdown'),
	};
}

// Gaps are never changed in place, and the planner keeps a gap's object while it stays the same, so what is
// worked out of one gap is kept with it: an edit of a long route works out only the gaps it changed.
const shapes = new WeakMap<PlannedLeg, LatLng[]>();
const heightKeys = new WeakMap<PlannedLeg, string>();
const legProfiles = new WeakMap<PlannedLeg, { points: [number, number][]; steps: number[] }>();

/** The points of one gap exactly as the saved route will hold them (off-road lines simplified). */
export function legShape(leg: PlannedLeg): LatLng[] {
	let shape = shapes.get(leg);
	if (!shape) {
		shape = joinLegs([leg]);
		shapes.set(leg, shape);
	}
	return shape;
}

/**
 * Names a gap's shape for the height cache: a routed gap and the straight line drawn while it waits are
 * different shapes of the same gap.
 */
export function heightKey(leg: PlannedLeg): string {
	let key = heightKeys.get(leg);
	if (key === undefined) {
		key = `${leg.key}|${leg.status === 'routed' ? 'routed' : 'line'}`;
		heightKeys.set(leg, key);
	}
	return key;
}

/** Heights for a gap's shape, one per point of `legShape`, null where the tiles have none. */
export type LegHeights = ReadonlyMap<string, readonly (number | null)[]>;

export type PlannerProfile = {
	path: [number, number][];
	distances: number[];
	/** Null where the height of a point is not known (yet). */
	elevations: (number | null)[];
	/** Gaps whose heights are still missing; the profile is complete when none are. */
	missing: number;
};

/**
 * The whole line with a height at each point, joined the way the save payload joins it (a gap's first point is
 * the last one's end and is kept once), so the climb shown is the climb the saved route will have.
 */
export function joinProfile(legs: readonly PlannedLeg[], heights: LegHeights): PlannerProfile {
	const path: [number, number][] = [];
	const distances: number[] = [];
	const elevations: (number | null)[] = [];
	let missing = 0;
	for (const leg of legs) {
		const { points, steps } = legProfile(leg);
		const known = heights.get(heightKey(leg));
		const fits = known && known.length === points.length;
		if (!fits) missing++;
		for (let index = 0; index < points.length; index++) {
			const point = points[index];
			const tail = path[path.length - 1];
			if (tail && tail[0] === point[0] && tail[1] === point[1]) {
				// The shared end point: its height may be known from this gap and not the one before.
				if (fits && elevations[elevations.length - 1] === null)
					elevations[elevations.length - 1] = known[index] ?? null;
				continue;
			}
			// A point kept once sits where the one before it in the gap does, so the gap's own step applies.
			const step = !tail ? 0 : index > 0 ? steps[index] : haversineM(tail[0], tail[1], point[0], point[1]);
			path.push(point);
			distances.push((distances[distances.length - 1] ?? 0) + step);
			elevations.push(fits ? (known[index] ?? null) : null);
		}
	}
	return { path, distances, elevations, missing };
}

/** A gap's points as the profile holds them, and the distance to each from the one before, in metres. */
function legProfile(leg: PlannedLeg): { points: [number, number][]; steps: number[] } {
	let profile = legProfiles.get(leg);
	if (!profile) {
		const points = legShape(leg).map((point): [number, number] => [point.lat, point.lng]);
		const steps = points.map((point, index) =>
			index === 0 ? 0 : haversineM(points[index - 1][0], points[index - 1][1], point[0], point[1]),
		);
		profile = { points, steps };
		legProfiles.set(leg, profile);
	}
	return profile;
}

/** Climb, descent, lowest and highest point of the profile, counted as the route API counts a saved route. */
export function summariseProfile(profile: PlannerProfile): ElevationSummary {
	return summariseElevation(profile.elevations);
}

/** The gaps whose heights are neither cached nor refused, skipping gaps still waiting for roads. */
export function legsNeedingHeights(
	legs: readonly PlannedLeg[],
	cached: LegHeights,
	refused: ReadonlySet<string> = new Set(),
): PlannedLeg[] {
	const seen = new Set<string>();
	return legs.filter((leg) => {
		const key = heightKey(leg);
		if (leg.status === 'pending' || cached.has(key) || refused.has(key) || seen.has(key)) return false;
		seen.add(key);
		return true;
	});
}

/** One height request: the gaps it asks for and how many points of the shared list each one takes. */
export type HeightBatch = { keys: string[]; counts: number[]; shape: { lat: number; lon: number }[] };

/**
 * Packs the gaps into one request of at most `maxPoints` points; gaps that do not fit wait for the next one. A
 * single gap longer than that is asked for alone (the service then answers for as many points as it takes).
 */
export function packHeightBatch(legs: readonly PlannedLeg[], maxPoints: number): HeightBatch | null {
	const batch: HeightBatch = { keys: [], counts: [], shape: [] };
	for (const leg of legs) {
		const shape = legShape(leg);
		if (batch.keys.length > 0 && batch.shape.length + shape.length > maxPoints) break;
		batch.keys.push(heightKey(leg));
		batch.counts.push(shape.length);
		for (const point of shape) batch.shape.push({ lat: point.lat, lon: point.lng });
		if (batch.shape.length >= maxPoints) break;
	}
	return batch.keys.length > 0 ? batch : null;
}

/** Splits the heights of a batch back into one list per gap; null when the answer does not match the batch. */
export function splitHeights(
	batch: HeightBatch,
	heights: readonly (number | null)[],
): Map<string, (number | null)[]> | null {
	if (heights.length !== batch.shape.length) return null;
	const out = new Map<string, (number | null)[]>();
	let start = 0;
	batch.keys.forEach((key, index) => {
		out.set(key, heights.slice(start, start + batch.counts[index]));
		start += batch.counts[index];
	});
	return out;
}

/** Mile or km markers along the drawn line, at the spacing its length calls for. */
export function plannerDistanceMarkers(
	profile: PlannerProfile,
	unit: Unit,
): { label: string; lat: number; lng: number }[] {
	if (profile.path.length < 2) return [];
	return distanceMarkers(profile.path, profile.distances, unit);
}

export type BreakdownRow = { type: string; metres: number; percent: number };
export type PlannerBreakdown = { total: number; surface: BreakdownRow[]; wayType: BreakdownRow[] };

/**
 * Percentages with one decimal that add up to exactly 100: each share rounded down, the tenths left over given to
 * the shares that lost most by it (largest remainder).
 */
export function sharesOfHundred(values: readonly number[]): number[] {
	const total = values.reduce((sum, value) => sum + value, 0);
	if (total <= 0) return values.map(() => 0);
	const tenths = values.map((value) => (value / total) * 1000);
	const floors = tenths.map(Math.floor);
	let left = 1000 - floors.reduce((sum, value) => sum + value, 0);
	const order = tenths
		.map((value, index) => ({ index, rest: value - floors[index] }))
		.sort((a, b) => b.rest - a.rest);
	for (const { index } of order) {
		if (left <= 0) break;
		floors[index]++;
		left--;
	}
	return floors.map((value) => value / 10);
}

function toRows(lengths: Map<string, number>): BreakdownRow[] {
	const entries = [...lengths].filter(([, metres]) => metres > 0).sort((a, b) => b[1] - a[1]);
	const percents = sharesOfHundred(entries.map(([, metres]) => metres));
	return entries.map(([type, metres], index) => ({ type, metres, percent: percents[index] }));
}

/**
 * The route's surfaces and kinds of way, summed over its gaps. A routed gap's own measure is scaled to the gap's
 * length (the service measures along its graph, the planner along the shape); gaps drawn straight, still waiting
 * for roads or answered without a measure count as "unknown".
 */
export function sumBreakdown(
	legs: readonly PlannedLeg[],
	routed: ReadonlyMap<string, RoutedLeg>,
): PlannerBreakdown {
	const surface = new Map<string, number>();
	const wayType = new Map<string, number>();
	const add = (lengths: Map<string, number>, type: string, metres: number) =>
		lengths.set(type, (lengths.get(type) ?? 0) + metres);
	let total = 0;
	for (const leg of legs) {
		total += leg.distance;
		const breakdown = leg.status === 'routed' ? routed.get(leg.key)?.breakdown : undefined;
		const spread = (
			entries: { type: string; length: number }[] | undefined,
			lengths: Map<string, number>,
		) => {
			const measured = entries?.reduce((sum, entry) => sum + entry.length, 0) ?? 0;
			if (!entries || measured <= 0) {
				add(lengths, 'unknown', leg.distance);
				return;
			}
			for (const entry of entries) add(lengths, entry.type, (entry.length / measured) * leg.distance);
		};
		spread(breakdown?.surface, surface);
		spread(breakdown?.way_type, wayType);
	}
	return { total, surface: toRows(surface), wayType: toRows(wayType) };
}

export type LoopSuggestion = {
	/** Metres. */
	length: number;
	/** Share of the loop that runs over ground it already covered. */
	overlapPercent: number;
	/** Where the loop turns: the start, the two far corners, the start again. */
	waypoints: LatLng[];
	/** The loop's line, for a preview. */
	line: [number, number][];
};

/** The round-trip answer as suggestions the member can pick from (at most three, as the service sends). */
export function readLoopSuggestions(answer: RoundTripResponse): LoopSuggestion[] {
	return answer.trips.slice(0, 3).map((trip) => ({
		length: trip.length,
		overlapPercent: trip.overlap_percent,
		waypoints: [...trip.trip.locations]
			.sort((a, b) => a.original_index - b.original_index)
			.map((location) => ({ lat: location.lat, lng: location.lon })),
		line: trip.trip.legs.flatMap((leg) => decodePolyline(leg.shape, 6)),
	}));
}

/** A suggested loop as the planner's route: its corners as waypoints, every gap following roads; notes stay. */
export function loopToState(current: PlannerState, loop: LoopSuggestion, options: LegOptions): PlannerState {
	const start: PlannerState = current.notes ? { ...EMPTY_PLANNER, notes: current.notes } : EMPTY_PLANNER;
	return loop.waypoints.reduce(
		(state, point) => addWaypoint(state, point, { ...options, followRoads: true }),
		start,
	);
}

/** One height request for the lines of all suggested loops, so each can show its climb. */
export function loopHeightBatch(loops: readonly LoopSuggestion[]): HeightBatch {
	return {
		keys: loops.map((_, index) => String(index)),
		counts: loops.map((loop) => loop.line.length),
		shape: loops.flatMap((loop) => loop.line.map(([lat, lon]) => ({ lat, lon }))),
	};
}

/** Each loop's climb in metres from the heights of its line, null where none are known. */
export function loopClimbs(
	loops: readonly LoopSuggestion[],
	heights: readonly (number | null)[],
): (number | null)[] {
	const split = splitHeights(loopHeightBatch(loops), heights);
	return loops.map((_, index) => {
		const known = split?.get(String(index));
		return known ? summariseElevation(known).ascentM : null;
	});
}
