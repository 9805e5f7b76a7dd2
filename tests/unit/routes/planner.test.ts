import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { parseNotesString, RouteSaveSchema } from '../../../src/lib/routes/contract';
import {
	addWaypoint,
	buildSavePayload,
	closeLoop,
	commit,
	createHistory,
	EMPTY_PLANNER,
	HISTORY_LIMIT,
	insertWaypoint,
	joinLegs,
	type LegOptions,
	legKey,
	measurePlan,
	moveWaypoint,
	outAndBack,
	type PlannedLegCache,
	type PlannerState,
	planLegs,
	type RoutedLeg,
	redo,
	removeWaypoint,
	reverseRoute,
	shiftWaypoint,
	undo,
} from '../../../src/lib/routes/planner';

const WALK: LegOptions = { mode: 'WALKING', followRoads: true, avoidHighways: true };
const A = { lat: 40.27, lng: -76.88 };
const B = { lat: 40.271, lng: -76.879 };
const C = { lat: 40.272, lng: -76.878 };

function plan(...points: { lat: number; lng: number }[]): PlannerState {
	return points.reduce((state, point) => addWaypoint(state, point, WALK), EMPTY_PLANNER);
}

describe('route planner model', () => {
	it('adds a straight gap at once and swaps in the routed shape when it arrives', () => {
		const state = plan(A, B);
		const routed = new Map<string, RoutedLeg>();
		const before = planLegs(state, routed);
		expect(before).toHaveLength(1);
		expect(before[0].status).toBe('pending');
		expect(before[0].points).toHaveLength(2);
		const shape = [A, { lat: 40.2705, lng: -76.8801 }, B];
		routed.set(legKey(A, B, WALK), { points: shape, distance: 180, cues: [] });
		const after = planLegs(state, routed);
		expect(after[0].status).toBe('routed');
		expect(after[0].points).toEqual(shape);
		expect(measurePlan(after)).toBe(180);
	});

	it('keeps the straight line when routing failed, and draws straight lines when roads are not followed', () => {
		const state = plan(A, B);
		expect(planLegs(state, new Map(), new Set([legKey(A, B, WALK)]))[0].status).toBe('straight');
		const offRoad = addWaypoint(addWaypoint(EMPTY_PLANNER, A, { ...WALK, followRoads: false }), B, {
			...WALK,
			followRoads: false,
		});
		expect(planLegs(offRoad, new Map())[0].status).toBe('straight');
	});

	it('undoes and redoes every edit, and a routed answer is not an undo step of its own', () => {
		let history = createHistory();
		history = commit(history, addWaypoint(history.present, A, WALK));
		history = commit(history, addWaypoint(history.present, B, WALK));
		history = commit(history, moveWaypoint(history.present, 1, C));
		expect(history.present.waypoints.map((w) => w.lat)).toEqual([A.lat, C.lat]);
		history = undo(history);
		expect(history.present.waypoints.map((w) => w.lat)).toEqual([A.lat, B.lat]);
		history = undo(history);
		expect(history.present.waypoints).toHaveLength(1);
		history = redo(redo(history));
		expect(history.present.waypoints.map((w) => w.lat)).toEqual([A.lat, C.lat]);
		// An edit after an undo drops what was undone.
		history = commit(undo(history), removeWaypoint(history.present, 0));
		expect(history.future).toHaveLength(0);
		expect(redo(history)).toBe(history);
	});

	it('keeps at most the last 500 edits', () => {
		let history = createHistory();
		for (let i = 0; i < HISTORY_LIMIT + 20; i++) {
			history = commit(history, addWaypoint(history.present, { lat: 40 + i / 1e4, lng: -76 }, WALK));
		}
		expect(history.past).toHaveLength(HISTORY_LIMIT);
	});

	it('removes, inserts and shifts waypoints while keeping one gap fewer than waypoints', () => {
		const state = plan(A, B, C);
		expect(removeWaypoint(state, 1).legs).toHaveLength(1);
		expect(removeWaypoint(state, 0).waypoints[0].lat).toBe(B.lat);
		expect(removeWaypoint(state, 2).legs).toHaveLength(1);
		const inserted = insertWaypoint(state, 1, { lat: 40.2705, lng: -76.8795 });
		expect(inserted.waypoints).toHaveLength(4);
		expect(inserted.legs).toHaveLength(3);
		const shifted = shiftWaypoint(state, 2, -1);
		expect(shifted.waypoints.map((w) => w.lat)).toEqual([A.lat, C.lat, B.lat]);
		expect(shiftWaypoint(state, 0, -1)).toBe(state);
	});

	it('reverses, goes out and back, and closes the loop', () => {
		const state = plan(A, B, C);
		expect(reverseRoute(state).waypoints.map((w) => w.lat)).toEqual([C.lat, B.lat, A.lat]);
		const back = outAndBack(state);
		expect(back.waypoints.map((w) => w.lat)).toEqual([A.lat, B.lat, C.lat, B.lat, A.lat]);
		expect(back.legs).toHaveLength(4);
		const loop = closeLoop(state);
		expect(loop.waypoints.at(-1)).toMatchObject(A);
		expect(loop.legs).toHaveLength(3);
		expect(closeLoop(loop)).toBe(loop);
	});

	it('builds a save payload the route API accepts, with cues and custom notes', () => {
		const state = plan(A, B, C);
		const routed = new Map<string, RoutedLeg>([
			[
				legKey(A, B, WALK),
				{
					points: [A, B],
					distance: 140,
					cues: [{ instructions: 'Walk north.', ...A, distance: 0, isCustomNote: false }],
				},
			],
			[
				legKey(B, C, WALK),
				{
					points: [B, C],
					distance: 140,
					cues: [{ instructions: 'Turn right.', ...B, distance: 0, isCustomNote: false }],
				},
			],
		]);
		const legs = planLegs(state, routed);
		expect(joinLegs(legs)).toHaveLength(3);
		const payload = buildSavePayload(
			legs,
			[{ ...B, text: 'Water fountain' }],
			{ name: 'Morning loop', description: '', activity_type: 16, privacy: 0 },
			2016,
		);
		const parsed = v.parse(RouteSaveSchema, payload);
		expect(parsed.points.map((p) => p.order)).toEqual([0, 1, 2]);
		expect(parsed.points.every((p) => p.travel_mode === 'WALKING')).toBe(true);
		expect(parseNotesString(parsed.notes).map((cue) => [cue.instructions, cue.distance])).toEqual([
			['Walk north.', 0],
			// The second gap's start is a point passed straight through; the route arrives once, at its end.
			['Continue.', 140],
			['You have arrived at your destination.', 280],
		]);
		expect(parsed.markers).toEqual([{ ...B, text: 'Water fountain', icon_id: 2016 }]);
		expect(parsed.segments).toHaveLength(2);
	});

	it('edits a 1,000-waypoint route without copying more than the waypoint list', () => {
		let history = createHistory(
			Array.from({ length: 1000 }, (_, i) => ({ lat: 40 + i / 1e4, lng: -76 })).reduce(
				(state, point) => addWaypoint(state, point, WALK),
				EMPTY_PLANNER,
			),
		);
		history = commit(history, moveWaypoint(history.present, 500, { lat: 41, lng: -75 }));
		// The unchanged gaps are shared with the previous state, not copied.
		expect(history.present.legs).toBe(history.past[0].legs);
		expect(undo(history).present.waypoints[500].lat).toBeCloseTo(40.05);
	});
});

describe('planLegs with a cache', () => {
	const STRAIGHT: LegOptions = { mode: 'WALKING', followRoads: false, avoidHighways: true };
	const ROADS: LegOptions = { mode: 'WALKING', followRoads: true, avoidHighways: true };
	const points = [
		{ lat: 40.26, lng: -76.88 },
		{ lat: 40.261, lng: -76.881 },
		{ lat: 40.262, lng: -76.882 },
		{ lat: 40.263, lng: -76.883 },
	];

	it('keeps the gaps an edit did not touch, and builds the touched ones afresh', () => {
		let state: PlannerState = EMPTY_PLANNER;
		for (const point of points) state = addWaypoint(state, point, STRAIGHT);
		const cache: PlannedLegCache = new WeakMap();
		const before = planLegs(state, new Map(), new Set(), cache);
		const moved = moveWaypoint(state, 1, { lat: 40.2615, lng: -76.8805 });
		const after = planLegs(moved, new Map(), new Set(), cache);
		expect(after[0]).not.toBe(before[0]);
		expect(after[1]).not.toBe(before[1]);
		expect(after[2]).toBe(before[2]);
		expect(after.map((leg) => leg.points)).toEqual(planLegs(moved, new Map()).map((leg) => leg.points));
		expect(after.map((leg) => leg.distance)).toEqual(planLegs(moved, new Map()).map((leg) => leg.distance));
	});

	it('a gap answered or failed since is built again with its new status', () => {
		let state: PlannerState = EMPTY_PLANNER;
		for (const point of points.slice(0, 3)) state = addWaypoint(state, point, ROADS);
		const cache: PlannedLegCache = new WeakMap();
		const first = planLegs(state, new Map(), new Set(), cache);
		expect(first.map((leg) => leg.status)).toEqual(['pending', 'pending']);
		const answer = { points: [points[0], points[3], points[1]], distance: 300, cues: [] };
		const routed = new Map([[first[0].key, answer]]);
		const second = planLegs(state, routed, new Set([first[1].key]), cache);
		expect(second.map((leg) => leg.status)).toEqual(['routed', 'straight']);
		expect(second[0].points).toBe(answer.points);
		expect(planLegs(state, routed, new Set([first[1].key]), cache)[0]).toBe(second[0]);
	});
});
