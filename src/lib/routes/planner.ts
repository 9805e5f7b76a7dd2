import { isAcceptableText } from '../core/text';
import type { RouteBreakdown } from '../routing/contract';
import { describeTurn, findHeading, phraseTurn, turnBetween } from '../routing/turns';
import { simplifyDouglasPeucker, simplifyOffroadSegment } from '../workout-files/route-tools';
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

/** Custom notes are part of the state, so adding or removing one is an edit that can be undone. */
export type PlannerState = {
	waypoints: readonly Waypoint[];
	legs: readonly LegOptions[];
	notes?: readonly CustomNote[];
};

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
	return { ...state, waypoints, legs: waypoints.length > 1 ? [...state.legs, options] : state.legs };
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
	return { ...state, waypoints, legs };
}

export function moveWaypoint(state: PlannerState, index: number, point: LatLng): PlannerState {
	const current = state.waypoints[index];
	if (!current || (current.lat === point.lat && current.lng === point.lng)) return state;
	const waypoints = state.waypoints.slice();
	waypoints[index] = { ...current, lat: point.lat, lng: point.lng };
	return { ...state, waypoints, legs: state.legs };
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
	return { ...state, waypoints, legs };
}

/** Moves a waypoint one place earlier (-1) or later (+1) in the list, as the keyboard controls do. */
export function shiftWaypoint(state: PlannerState, index: number, by: -1 | 1): PlannerState {
	const target = index + by;
	if (index < 0 || target < 0 || target >= state.waypoints.length) return state;
	const waypoints = state.waypoints.slice();
	[waypoints[index], waypoints[target]] = [waypoints[target], waypoints[index]];
	return { ...state, waypoints, legs: state.legs };
}

export function reverseRoute(state: PlannerState): PlannerState {
	if (state.waypoints.length < 2) return state;
	return { ...state, waypoints: [...state.waypoints].reverse(), legs: [...state.legs].reverse() };
}

/** Comes back the same way: the waypoints again in reverse, each gap travelled as on the way out. */
export function outAndBack(state: PlannerState): PlannerState {
	if (state.waypoints.length < 2) return state;
	const back = [...state.waypoints].reverse().slice(1).map(makeWaypoint);
	return {
		...state,
		waypoints: [...state.waypoints, ...back],
		legs: [...state.legs, ...[...state.legs].reverse()],
	};
}

/** Closes the loop: a last gap from the final waypoint back to the start. */
export function closeLoop(state: PlannerState): PlannerState {
	const first = state.waypoints[0];
	const last = state.waypoints.at(-1);
	if (!first || !last || state.waypoints.length < 2) return state;
	if (first.lat === last.lat && first.lng === last.lng) return state;
	return {
		...state,
		waypoints: [...state.waypoints, makeWaypoint(first)],
		legs: [...state.legs, state.legs.at(-1) as LegOptions],
	};
}

/** What the routing service answered for one gap. */
export type RoutedLeg = {
	points: LatLng[];
	distance: number;
	cues: RouteCue[];
	/** Metres on each surface and kind of way, when the routing service measures them. */
	breakdown?: RouteBreakdown;
};

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

/** Each gap as last drawn, by the waypoint it starts from; see `planLegs`. */
export type PlannedLegCache = WeakMap<Waypoint, PlannedLeg>;

/**
 * The route as drawn now: routed shapes where the service has answered, straight lines where it has not (or
 * failed, or roads are not followed), off-road lines of over 200 points simplified.
 *
 * With a `cache`, a gap whose two waypoints, options, answer and failure are those it was last drawn with is
 * the same object as before: an edit of a long route builds only the gaps it touched, and whatever is worked
 * out per gap downstream can be kept by identity. Waypoints are never changed in place, so one that moved is
 * a new object and misses the cache.
 */
export function planLegs(
	state: PlannerState,
	routed: ReadonlyMap<string, RoutedLeg>,
	failed: ReadonlySet<string> = new Set(),
	cache?: PlannedLegCache,
): PlannedLeg[] {
	const legs: PlannedLeg[] = [];
	for (let i = 0; i < state.legs.length; i++) {
		const from = state.waypoints[i];
		const to = state.waypoints[i + 1];
		const options = state.legs[i];
		const kept = cache?.get(from);
		if (kept && kept.to === to && kept.options === options) {
			const answer = options.followRoads ? routed.get(kept.key) : undefined;
			const unchanged = answer
				? kept.status === 'routed' && kept.points === answer.points
				: kept.status === (options.followRoads && !failed.has(kept.key) ? 'pending' : 'straight');
			if (unchanged) {
				legs.push(kept);
				continue;
			}
		}
		const leg = planLeg(from, to, options, routed, failed);
		cache?.set(from, leg);
		legs.push(leg);
	}
	return legs;
}

function planLeg(
	from: Waypoint,
	to: Waypoint,
	options: LegOptions,
	routed: ReadonlyMap<string, RoutedLeg>,
	failed: ReadonlySet<string>,
): PlannedLeg {
	const key = legKey(from, to, options);
	const answer = options.followRoads ? routed.get(key) : undefined;
	if (answer) return { key, from, to, options, status: 'routed', ...answer };
	const points = [
		{ lat: from.lat, lng: from.lng },
		{ lat: to.lat, lng: to.lng },
	];
	return {
		key,
		from,
		to,
		options,
		status: options.followRoads && !failed.has(key) ? 'pending' : 'straight',
		points,
		distance: measureLine(points),
		cues: [],
	};
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
	let sum = 0;
	for (const leg of legs) sum += leg.distance;
	return sum;
}

export type CustomNote = LatLng & { text: string };

/** Longest custom note, as the route API takes marker texts. */
export const MAX_NOTE_LENGTH = 500;

/** Why a note's text cannot be kept, or null when it can: one line, not empty, not too long. */
export function checkNoteText(text: string): string | null {
	const trimmed = text.trim();
	if (!trimmed) return 'Type the note.';
	if (trimmed.length > MAX_NOTE_LENGTH) return `A note may have at most ${MAX_NOTE_LENGTH} characters.`;
	if (!isAcceptableText(trimmed, 'single-line')) return 'The note holds a character that is not allowed.';
	return null;
}

export function addNote(state: PlannerState, note: CustomNote): PlannerState {
	if (checkNoteText(note.text) !== null) return state;
	return {
		...state,
		notes: [...(state.notes ?? []), { lat: note.lat, lng: note.lng, text: note.text.trim() }],
	};
}

export function removeNote(state: PlannerState, index: number): PlannerState {
	const notes = state.notes ?? [];
	if (index < 0 || index >= notes.length) return state;
	return { ...state, notes: notes.filter((_, i) => i !== index) };
}

/** Where a cue stands at a leg's end point: within a metre of it. */
function isAt(cue: RouteCue, point: LatLng | undefined): boolean {
	return !!point && haversineM(cue.lat, cue.lng, point.lat, point.lng) <= 1;
}

/** The way an instruction names ("Walk north on Main Street." → "Main Street"), or null. */
function readWay(instruction: string): string | null {
	return / (?:onto|on) (.+)\.$/.exec(instruction)?.[1] ?? null;
}

const ARRIVAL = 'You have arrived at your destination.';

/**
 * The cue sheet of a route joined from separately routed gaps. The routing service answers each gap as a trip of
 * its own, starting ("Walk north on …") and arriving ("You have arrived …"); on the whole route a point between
 * gaps is passed through, so there its arrival is dropped and its start becomes the turn taken there ("Continue
 * on …", "Turn left onto …"), worded as the engine words a turn inside a trip. Only the end of the route arrives.
 * Distances run from the route's start.
 */
export function joinLegCues(legs: readonly Pick<PlannedLeg, 'points' | 'distance' | 'cues'>[]): RouteCue[] {
	const joined: RouteCue[] = [];
	let travelled = 0;
	let arrived = false;
	legs.forEach((leg, index) => {
		const last = index === legs.length - 1;
		const previous = index > 0 ? legs[index - 1] : null;
		leg.cues.forEach((cue, at) => {
			let instructions = cue.instructions;
			const arrival = at > 0 && at === leg.cues.length - 1 && isAt(cue, leg.points.at(-1));
			if (arrival) {
				if (!last) return;
				arrived = true;
			}
			const start = at === 0 && cue.distance === 0 && isAt(cue, leg.points[0]);
			if (start && previous) {
				const toArray = (points: readonly LatLng[]) => points.map((p) => [p.lat, p.lng] as [number, number]);
				const inbound = findHeading(toArray(previous.points), true);
				const outbound = findHeading(toArray(leg.points), false);
				const previousTurn = previous.cues.findLast((c, i) => i === 0 || !isAt(c, previous.points.at(-1)));
				const way = readWay(instructions);
				const previousWay = previousTurn ? readWay(previousTurn.instructions) : null;
				const turn = inbound === null || outbound === null ? describeTurn(0) : turnBetween(inbound, outbound);
				instructions = phraseTurn(turn, way, previousWay);
			}
			joined.push({
				...cue,
				instructions,
				distance: Math.round(travelled + cue.distance),
				isCustomNote: false,
			});
		});
		travelled += leg.distance;
	});
	// A route whose last gap is off-road (no cues) still ends with one arrival.
	const end = legs.at(-1)?.points.at(-1);
	if (!arrived && joined.length > 0 && end)
		joined.push({
			instructions: ARRIVAL,
			lat: end.lat,
			lng: end.lng,
			distance: Math.round(travelled),
			isCustomNote: false,
		});
	return joined;
}

/** The save payload: points with order and travel mode, cues as the notes string, custom notes as markers. */
export function buildSavePayload(
	legs: readonly PlannedLeg[],
	notes: readonly CustomNote[],
	details: Pick<RouteSaveInput, 'name' | 'description' | 'activity_type' | 'privacy'>,
	customNoteIcon: number,
): RouteSaveInput {
	const points: RouteSaveInput['points'] = [];
	const segments: RouteSegment[] = [];
	legs.forEach((leg, index) => {
		const shape = leg.options.followRoads ? leg.points : simplifyOffroadSegment(leg.points);
		for (const point of shape) {
			const tail = points.at(-1);
			if (tail && tail.lat === point.lat && tail.lng === point.lng) continue;
			points.push({ lat: point.lat, lng: point.lng, order: points.length, travel_mode: leg.options.mode });
		}
		// Each piece keeps its own answer's cues, so reopening the route rebuilds its gaps as they were answered.
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
	});
	return {
		...details,
		description: details.description ?? '',
		points,
		notes: formatNotesString(joinLegCues(legs)),
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
	const { waypoints, legs, notes } = raw as { waypoints?: unknown; legs?: unknown; notes?: unknown };
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
	// Notes are a bonus on a draft: any that do not read back are left out, the route is kept.
	const keptNotes = (Array.isArray(notes) ? notes : []).flatMap((n): CustomNote[] =>
		n &&
		isCoordinate((n as CustomNote).lat, 90) &&
		isCoordinate((n as CustomNote).lng, 180) &&
		typeof (n as CustomNote).text === 'string' &&
		checkNoteText((n as CustomNote).text) === null
			? [{ lat: (n as CustomNote).lat, lng: (n as CustomNote).lng, text: (n as CustomNote).text.trim() }]
			: [],
	);
	return {
		waypoints: points.map((p) => makeWaypoint({ lat: p.lat, lng: p.lng })),
		legs: options.map((o) => ({ mode: o.mode, followRoads: o.followRoads, avoidHighways: o.avoidHighways })),
		...(keptNotes.length > 0 ? { notes: keptNotes } : {}),
	};
}

/** A key for where the unsaved route of one planner page waits, so a new route and edits of routes never mix. */
export type PlannerPage = { kind: 'create' } | { kind: 'edit' | 'copy'; routeId: number };

export function plannerDraftKey(page: PlannerPage): string {
	return page.kind === 'create'
		? PLANNER_DRAFT_STORAGE_KEY
		: `${PLANNER_DRAFT_STORAGE_KEY}:${page.kind}:${page.routeId}`;
}

/** The keys as the cookie policy lists them: the new route's own, and one per route edited or copied. */
export const PLANNER_DRAFT_STORAGE_KEY_NAMES = [
	PLANNER_DRAFT_STORAGE_KEY,
	`${PLANNER_DRAFT_STORAGE_KEY}:edit:{route id}`,
	`${PLANNER_DRAFT_STORAGE_KEY}:copy:{route id}`,
] as const;

/** A plan the planner opens with: its waypoints and gaps, and the shapes of the gaps that are already drawn. */
export type LoadedPlan = { state: PlannerState; routed: Map<string, RoutedLeg> };

/** What the planner reads of a saved route (the API's detailed_internal field set). */
export type SavedRouteShape = {
	points: readonly { lat: number; lng: number; travel_mode?: string }[];
	segments?: readonly {
		points: readonly LatLng[];
		travelMode?: string;
		notes?: readonly { instructions: string; distance: number; point: LatLng; isCustomNote?: boolean }[];
	}[];
};

const asMode = (value: string | undefined): PlannerMode =>
	PLANNER_MODES.includes(value as PlannerMode) ? (value as PlannerMode) : 'WALKING';
const samePoint = (a: LatLng, b: LatLng) => a.lat === b.lat && a.lng === b.lng;

/** Turns of a saved line with no planner pieces that become its waypoints: about 50 m off the line. */
const SAVED_LINE_TOLERANCE = 5e-4;

/**
 * Builds the plan from the pieces (one per leg), or null when they do not make up exactly the saved line: first
 * points join the previous piece's last point, and the joined pieces are the saved points in order.
 */
function planFromSegments(route: SavedRouteShape): LoadedPlan | null {
	const segments = route.segments ?? [];
	if (segments.length === 0 || segments.some((segment) => segment.points.length < 2)) return null;
	const joined: LatLng[] = [];
	for (const segment of segments) {
		const tail = joined.at(-1);
		if (tail && !samePoint(tail, segment.points[0])) return null;
		for (const point of segment.points) {
			const last = joined.at(-1);
			if (!last || !samePoint(last, point)) joined.push(point);
		}
	}
	if (joined.length !== route.points.length || joined.some((point, i) => !samePoint(point, route.points[i])))
		return null;
	const waypoints = [makeWaypoint(segments[0].points[0])];
	const legs: LegOptions[] = [];
	const routed = new Map<string, RoutedLeg>();
	for (const segment of segments) {
		const from = waypoints.at(-1) as Waypoint;
		const to = makeWaypoint(segment.points[segment.points.length - 1]);
		const options = {
			mode: asMode(segment.travelMode),
			followRoads: segment.points.length > 2,
			avoidHighways: true,
		};
		waypoints.push(to);
		legs.push(options);
		if (options.followRoads) {
			const points = segment.points.map((p) => ({ lat: p.lat, lng: p.lng }));
			routed.set(legKey(from, to, options), {
				points,
				distance: measureLine(points),
				cues: (segment.notes ?? [])
					.filter((note) => !note.isCustomNote)
					.map((note) => ({
						instructions: note.instructions,
						lat: note.point.lat,
						lng: note.point.lng,
						distance: note.distance,
						isCustomNote: false,
					})),
			});
		}
	}
	return { state: { waypoints, legs }, routed };
}

/**
 * A saved route as the planner's starting point, its shape kept exactly as saved: each piece the planner saved
 * becomes a leg again, drawn with its saved line (never routed afresh). A line with no usable pieces (an imported
 * file, an older route) is cut at its turns and wherever its travel mode changes, each part drawn as saved.
 */
export function planFromSavedRoute(route: SavedRouteShape): LoadedPlan {
	const fromSegments = planFromSegments(route);
	if (fromSegments) return fromSegments;
	const points = route.points.filter((p, i) => i === 0 || !samePoint(p, route.points[i - 1]));
	if (points.length === 0) return { state: EMPTY_PLANNER, routed: new Map() };
	if (points.length === 1)
		return { state: { waypoints: [makeWaypoint(points[0])], legs: [] }, routed: new Map() };
	const indexed = points.map((p, index) => ({ lat: p.lat, lng: p.lng, index }));
	const cuts = new Set(simplifyDouglasPeucker(indexed, SAVED_LINE_TOLERANCE).map((p) => p.index));
	for (let i = 1; i < points.length; i++) {
		if (asMode(points[i].travel_mode) !== asMode(points[i - 1].travel_mode)) cuts.add(i - 1);
	}
	const order = [...cuts].sort((a, b) => a - b);
	const waypoints = order.map((index) => makeWaypoint(points[index]));
	const legs: LegOptions[] = [];
	const routed = new Map<string, RoutedLeg>();
	for (let k = 1; k < order.length; k++) {
		const line = points.slice(order[k - 1], order[k] + 1).map((p) => ({ lat: p.lat, lng: p.lng }));
		const options = {
			mode: asMode(points[order[k]].travel_mode),
			followRoads: line.length > 2,
			avoidHighways: true,
		};
		legs.push(options);
		if (options.followRoads)
			routed.set(legKey(waypoints[k - 1], waypoints[k], options), {
				points: line,
				distance: measureLine(line),
				cues: [],
			});
	}
	return { state: { waypoints, legs }, routed };
}

/** A track read from a file keeps turns about 5 m off its line; the rest is drawn between them. */
const TRACK_TOLERANCE = 5e-5;

/**
 * A track from a file (GPX, TCX, FIT) as a starting line: its turns become waypoints joined by straight,
 * off-road legs, so the line keeps the track's shape without asking the routing service.
 */
export function planFromTrack(track: readonly LatLng[], mode: PlannerMode): PlannerState {
	const points = track.filter(
		(p, i) =>
			Number.isFinite(p.lat) &&
			Number.isFinite(p.lng) &&
			Math.abs(p.lat) <= 90 &&
			Math.abs(p.lng) <= 180 &&
			(i === 0 || !samePoint(p, track[i - 1])),
	);
	const kept = simplifyDouglasPeucker(points, TRACK_TOLERANCE);
	const waypoints = kept.map((p) => makeWaypoint({ lat: p.lat, lng: p.lng }));
	const legs = waypoints.slice(1).map(() => ({ mode, followRoads: false, avoidHighways: true }));
	return { waypoints, legs };
}

/** The drawn shapes of a draft's legs, read back from storage; what is not a shape is left out. */
export function restoreRouted(raw: unknown): Map<string, RoutedLeg> {
	const routed = new Map<string, RoutedLeg>();
	if (!Array.isArray(raw)) return routed;
	const isNumber = (value: unknown) => typeof value === 'number' && Number.isFinite(value);
	for (const entry of raw) {
		if (!Array.isArray(entry) || typeof entry[0] !== 'string') continue;
		const leg = entry[1] as Partial<RoutedLeg> | null;
		if (!leg || !Array.isArray(leg.points) || !isNumber(leg.distance) || !Array.isArray(leg.cues)) continue;
		const points = leg.points.filter((p) => !!p && isNumber(p.lat) && isNumber(p.lng));
		const cues = leg.cues.filter(
			(c) =>
				!!c &&
				typeof c.instructions === 'string' &&
				isNumber(c.lat) &&
				isNumber(c.lng) &&
				isNumber(c.distance),
		);
		if (points.length < 2 || points.length !== leg.points.length || cues.length !== leg.cues.length) continue;
		routed.set(entry[0], {
			points: points.map((p) => ({ lat: p.lat, lng: p.lng })),
			distance: leg.distance as number,
			cues: cues.map((c) => ({ ...c, isCustomNote: false })),
		});
	}
	return routed;
}

/** A saved route as the planner opens it to edit or copy (the API's detailed_internal fields it needs). */
export type SavedRoute = SavedRouteShape & {
	name: string;
	description: string;
	activity_type: number;
	privacy: number;
	version: number;
};

/** The route an edit or a copy page opens: whose id, which version, and the link token a copy may need. */
export type OpenedRoute = { kind: 'edit' | 'copy'; routeId: number; token: string | null; route: SavedRoute };
