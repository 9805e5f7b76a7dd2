import { simplifyOffroadSegment } from '../workout-files/route-tools';
import { formatNotesString, type RouteCue, type RouteSaveInput, type RouteSegment } from './contract';
import { haversineM } from './geo';

// The route planner's model, free of the map: waypoints and how each gap between them is travelled, an undo
// history of those, and the road-following shapes the routing service answered, kept apart from the history
// so an undo never throws a routed answer away and a late answer never becomes an undo step of its own.

/** Where an unsaved route waits in the browser (local storage) until it is saved or discarded. */
export const PLANNER_DRAFT_STORAGE_KEY = 'mapstride:planner-draft';

export type PlannerMode = 'WALKING' | 'BICYCLING' | 'DRIVING';
export const PLANNER_MODES: readonly PlannerMode[] = ['WALKING', 'BICYCLING', 'DRIVING'];
/** The routing service's costing for each travel mode. */
export const COSTING: Record<PlannerMode, 'pedestrian' | 'bicycle' | 'auto'> = {
	WALKING: 'pedestrian',
	BICYCLING: 'bicycle',
	DRIVING: 'auto',
};

export type LatLng = { lat: number; lng: number };
export type Waypoint = LatLng & { id: number };

/** How the gap from waypoint i to waypoint i + 1 is travelled. */
export type LegOptions = { mode: PlannerMode; followRoads: boolean; avoidHighways: boolean };

export type PlannerState = { waypoints: readonly Waypoint[]; legs: readonly LegOptions[] };

export type PlannerHistory = {
	past: readonly PlannerState[];
	present: PlannerState;
	future: readonly PlannerState[];
};

/** Undo steps kept; a long session keeps its last edits, not all of them. */
export const HISTORY_LIMIT = 500;

export const EMPTY_PLANNER: PlannerState = { waypoints: [], legs: [] };

export function createHistory(present: PlannerState = EMPTY_PLANNER): PlannerHistory {
	return { past: [], present, future: [] };
}

/** Records an edit: the old state becomes undoable and anything undone is dropped. */
export function commit(history: PlannerHistory, next: PlannerState): PlannerHistory {
	if (next === history.present) return history;
	const past = [...history.past, history.present];
	return { past: past.length > HISTORY_LIMIT ? past.slice(-HISTORY_LIMIT) : past, present: next, future: [] };
}

export function undo(history: PlannerHistory): PlannerHistory {
	const previous = history.past.at(-1);
	if (!previous) return history;
	return { past: history.past.slice(0, -1), present: previous, future: [history.present, ...history.future] };
}

export function redo(history: PlannerHistory): PlannerHistory {
	const next = history.future[0];
	if (!next) return history;
	return { past: [...history.past, history.present], present: next, future: history.future.slice(1) };
}

let nextWaypointId = 1;
function makeWaypoint(point: LatLng): Waypoint {
	return { lat: point.lat, lng: point.lng, id: nextWaypointId++ };
}

/** Adds a waypoint at the end; the new gap is travelled as `options` say. */
export function addWaypoint(state: PlannerState, point: LatLng, options: LegOptions): PlannerState {
	const waypoints = [...state.waypoints, makeWaypoint(point)];
	return { waypoints, legs: waypoints.length > 1 ? [...state.legs, options] : state.legs };
}

/** Inserts a waypoint before position `index` (dragging a line makes one); both new gaps keep the old one's options. */
export function insertWaypoint(state: PlannerState, index: number, point: LatLng): PlannerState {
	if (index <= 0 || index >= state.waypoints.length) return state;
	const waypoints = [
		...state.waypoints.slice(0, index),
		makeWaypoint(point),
		...state.waypoints.slice(index),
	];
	const split = state.legs[index - 1];
	const legs = [...state.legs.slice(0, index - 1), split, split, ...state.legs.slice(index)];
	return { waypoints, legs };
}

export function moveWaypoint(state: PlannerState, index: number, point: LatLng): PlannerState {
	const current = state.waypoints[index];
	if (!current || (current.lat === point.lat && current.lng === point.lng)) return state;
	const waypoints = state.waypoints.slice();
	waypoints[index] = { ...current, lat: point.lat, lng: point.lng };
	return { waypoints, legs: state.legs };
}

/** Removes a waypoint; its two gaps become one, travelled as the first of them was. */
export function removeWaypoint(state: PlannerState, index: number): PlannerState {
	const count = state.waypoints.length;
	if (index < 0 || index >= count) return state;
	const waypoints = state.waypoints.filter((_, i) => i !== index);
	let legs: LegOptions[];
	if (index === 0) legs = state.legs.slice(1);
	else if (index === count - 1) legs = state.legs.slice(0, -1);
	else legs = [...state.legs.slice(0, index), ...state.legs.slice(index + 1)];
	return { waypoints, legs };
}

/** Moves a waypoint one place earlier (-1) or later (+1) in the list, as the keyboard controls do. */
export function shiftWaypoint(state: PlannerState, index: number, by: -1 | 1): PlannerState {
	const target = index + by;
	if (index < 0 || target < 0 || target >= state.waypoints.length) return state;
	const waypoints = state.waypoints.slice();
	[waypoints[index], waypoints[target]] = [waypoints[target], waypoints[index]];
	return { waypoints, legs: state.legs };
}

export function reverseRoute(state: PlannerState): PlannerState {
	if (state.waypoints.length < 2) return state;
	return { waypoints: [...state.waypoints].reverse(), legs: [...state.legs].reverse() };
}

/** Comes back the same way: the waypoints again in reverse, each gap travelled as on the way out. */
export function outAndBack(state: PlannerState): PlannerState {
	if (state.waypoints.length < 2) return state;
	const back = [...state.waypoints].reverse().slice(1).map(makeWaypoint);
	return { waypoints: [...state.waypoints, ...back], legs: [...state.legs, ...[...state.legs].reverse()] };
}

/** Closes the loop: a last gap from the final waypoint back to the start. */
export function closeLoop(state: PlannerState): PlannerState {
	const first = state.waypoints[0];
	const last = state.waypoints.at(-1);
	if (!first || !last || state.waypoints.length < 2) return state;
	if (first.lat === last.lat && first.lng === last.lng) return state;
	return {
		waypoints: [...state.waypoints, makeWaypoint(first)],
		legs: [...state.legs, state.legs.at(-1) as LegOptions],
	};
}

/** What the routing service answered for one gap. */
export type RoutedLeg = { points: LatLng[]; distance: number; cues: RouteCue[] };

/** Identifies a gap by its ends and options, so an answer fits wherever the same gap appears again. */
export function legKey(from: LatLng, to: LatLng, options: LegOptions): string {
	const at = (p: LatLng) => `${p.lat.toFixed(6)},${p.lng.toFixed(6)}`;
	return `${options.mode}|${options.avoidHighways ? 'avoid' : 'any'}|${at(from)}|${at(to)}`;
}

export type LegStatus = 'straight' | 'pending' | 'routed';

export type PlannedLeg = {
	key: string;
	from: LatLng;
	to: LatLng;
	options: LegOptions;
	status: LegStatus;
	points: LatLng[];
	distance: number;
	cues: RouteCue[];
};

function measureLine(points: readonly LatLng[]): number {
	let total = 0;
	for (let i = 1; i < points.length; i++) {
		total += haversineM(points[i - 1].lat, points[i - 1].lng, points[i].lat, points[i].lng);
	}
	return total;
}

/**
 * The route as drawn now: routed shapes where the service has answered, straight lines where it has not (or
 * failed, or roads are not followed), off-road lines of over 200 points simplified.
 */
export function planLegs(
	state: PlannerState,
	routed: ReadonlyMap<string, RoutedLeg>,
	failed: ReadonlySet<string> = new Set(),
): PlannedLeg[] {
	const legs: PlannedLeg[] = [];
	for (let i = 0; i < state.legs.length; i++) {
		const from = state.waypoints[i];
		const to = state.waypoints[i + 1];
		const options = state.legs[i];
		const key = legKey(from, to, options);
		const answer = options.followRoads ? routed.get(key) : undefined;
		if (answer) {
			legs.push({ key, from, to, options, status: 'routed', ...answer });
			continue;
		}
		const points = [
			{ lat: from.lat, lng: from.lng },
			{ lat: to.lat, lng: to.lng },
		];
		legs.push({
			key,
			from,
			to,
			options,
			status: options.followRoads && !failed.has(key) ? 'pending' : 'straight',
			points,
			distance: measureLine(points),
			cues: [],
		});
	}
	return legs;
}

/** The whole line, each leg's shared end point once. */
export function joinLegs(legs: readonly PlannedLeg[]): LatLng[] {
	const line: LatLng[] = [];
	for (const leg of legs) {
		const points = leg.options.followRoads ? leg.points : simplifyOffroadSegment(leg.points);
		for (const point of points) {
			const tail = line.at(-1);
			if (tail && tail.lat === point.lat && tail.lng === point.lng) continue;
			line.push(point);
		}
	}
	return line;
}

export function measurePlan(legs: readonly PlannedLeg[]): number {
	return legs.reduce((sum, leg) => sum + leg.distance, 0);
}

export type CustomNote = LatLng & { text: string };

/** The save payload: points with order and travel mode, cues as the notes string, custom notes as markers. */
export function buildSavePayload(
	legs: readonly PlannedLeg[],
	notes: readonly CustomNote[],
	details: Pick<RouteSaveInput, 'name' | 'description' | 'activity_type' | 'privacy'>,
	customNoteIcon: number,
): RouteSaveInput {
	const points: RouteSaveInput['points'] = [];
	const cues: RouteCue[] = [];
	const segments: RouteSegment[] = [];
	let travelled = 0;
	legs.forEach((leg, index) => {
		const shape = leg.options.followRoads ? leg.points : simplifyOffroadSegment(leg.points);
		for (const point of shape) {
			const tail = points.at(-1);
			if (tail && tail.lat === point.lat && tail.lng === point.lng) continue;
			points.push({ lat: point.lat, lng: point.lng, order: points.length, travel_mode: leg.options.mode });
		}
		for (const cue of leg.cues) cues.push({ ...cue, distance: Math.round(travelled + cue.distance) });
		segments.push({
			segmentId: index,
			points: shape.map((p) => ({ lat: p.lat, lng: p.lng })),
			distance: leg.distance,
			notes: leg.cues.map((cue) => ({
				instructions: cue.instructions,
				distance: cue.distance,
				point: { lat: cue.lat, lng: cue.lng },
				isCustomNote: false,
			})),
			travelMode: leg.options.mode,
		});
		travelled += leg.distance;
	});
	return {
		...details,
		description: details.description ?? '',
		points,
		notes: formatNotesString(cues),
		markers: notes.map((note) => ({
			lat: note.lat,
			lng: note.lng,
			text: note.text,
			icon_id: customNoteIcon,
		})),
		segments,
		city: '',
		state: '',
		country: '',
	};
}

/** A state read back from storage (a draft), checked and given fresh waypoint ids; null when it is not one. */
export function restoreState(raw: unknown): PlannerState | null {
	if (!raw || typeof raw !== 'object') return null;
	const { waypoints, legs } = raw as { waypoints?: unknown; legs?: unknown };
	if (!Array.isArray(waypoints) || !Array.isArray(legs)) return null;
	const isCoordinate = (value: unknown, limit: number) =>
		typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= limit;
	const points = waypoints.filter(
		(p): p is LatLng => !!p && isCoordinate((p as LatLng).lat, 90) && isCoordinate((p as LatLng).lng, 180),
	);
	const options = legs.filter(
		(o): o is LegOptions =>
			!!o &&
			PLANNER_MODES.includes((o as LegOptions).mode) &&
			typeof (o as LegOptions).followRoads === 'boolean' &&
			typeof (o as LegOptions).avoidHighways === 'boolean',
	);
	if (points.length !== waypoints.length || options.length !== legs.length) return null;
	if (options.length !== Math.max(0, points.length - 1)) return null;
	return {
		waypoints: points.map((p) => makeWaypoint({ lat: p.lat, lng: p.lng })),
		legs: options.map((o) => ({ mode: o.mode, followRoads: o.followRoads, avoidHighways: o.avoidHighways })),
	};
}
