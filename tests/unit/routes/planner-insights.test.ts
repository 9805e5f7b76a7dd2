import { describe, expect, it } from 'vitest';
import { cumulativeDistances, summariseElevation } from '../../../src/lib/routes/geo';
import {
	addNote,
	addWaypoint,
	buildSavePayload,
	checkNoteText,
	commit,
	createHistory,
	EMPTY_PLANNER,
	type LegOptions,
	legKey,
	type PlannerState,
	planLegs,
	type RoutedLeg,
	removeNote,
	restoreState,
	reverseRoute,
	undo,
} from '../../../src/lib/routes/planner';
import {
	heightKey,
	joinProfile,
	legShape,
	legsNeedingHeights,
	loopClimbs,
	loopHeightBatch,
	loopToState,
	packHeightBatch,
	plannerDistanceMarkers,
	readLoopSuggestions,
	sharesOfHundred,
	splitHeights,
	sumBreakdown,
	summariseProfile,
} from '../../../src/lib/routes/planner-insights';
import { encodePolyline } from '../../../src/lib/routing/polyline';

const WALK: LegOptions = { mode: 'WALKING', followRoads: true, avoidHighways: true };
const STRAIGHT: LegOptions = { ...WALK, followRoads: false };
const A = { lat: 42.5078, lng: 1.5211 };
const B = { lat: 42.5103, lng: 1.5369 };
const C = { lat: 42.52, lng: 1.54 };
const BEND = { lat: 42.509, lng: 1.53 };
const DETAILS = { name: 'x', description: '', activity_type: 16, privacy: 0 as const };

function route(points: { lat: number; lng: number }[], options: LegOptions[]): PlannerState {
	return points.reduce<PlannerState>(
		(state, point, index) => addWaypoint(state, point, options[Math.max(0, index - 1)] ?? WALK),
		EMPTY_PLANNER,
	);
}

function routedAnswer(points: { lat: number; lng: number }[], breakdown?: RoutedLeg['breakdown']): RoutedLeg {
	const path = points.map((p) => [p.lat, p.lng] as [number, number]);
	return {
		points,
		distance: cumulativeDistances(path).at(-1) ?? 0,
		cues: [],
		...(breakdown ? { breakdown } : {}),
	};
}

describe('planner profile', () => {
	it('joins the gaps as the save payload does and counts the climb the saved route will have', () => {
		const state = route([A, B, C], [WALK, STRAIGHT]);
		const routed = new Map([[legKey(A, B, WALK), routedAnswer([A, BEND, B])]]);
		const legs = planLegs(state, routed);
		const heights = new Map([
			[heightKey(legs[0]), [1000, 1040, 1010]],
			[heightKey(legs[1]), [1010, 1100]],
		]);
		const profile = joinProfile(legs, heights);
		const payload = buildSavePayload(legs, [], DETAILS, 2016);
		expect(profile.path).toEqual(payload.points.map((p) => [p.lat, p.lng]));
		expect(profile.elevations).toEqual([1000, 1040, 1010, 1100]);
		expect(profile.missing).toBe(0);
		// The route API sums every rise and drop between saved points.
		expect(summariseProfile(profile)).toEqual(summariseElevation([1000, 1040, 1010, 1100]));
		expect(summariseProfile(profile)).toMatchObject({ ascentM: 130, descentM: 30, minM: 1000, maxM: 1100 });
	});

	it('leaves gaps without heights empty and says how many are missing', () => {
		const legs = planLegs(route([A, B, C], [STRAIGHT, STRAIGHT]), new Map());
		const profile = joinProfile(legs, new Map([[heightKey(legs[1]), [900, 950]]]));
		expect(profile.elevations).toEqual([null, 900, 950]);
		expect(profile.missing).toBe(1);
		expect(summariseProfile(profile).ascentM).toBe(50);
	});

	it('measures each point along the joined line, the same after an edit that keeps most gaps', () => {
		// A routed gap that comes back to a point it passed, and one that ends where the next gap does not start.
		const routed = new Map([
			[legKey(A, B, WALK), routedAnswer([A, BEND, BEND, B])],
			[legKey(B, C, WALK), routedAnswer([{ lat: B.lat + 0.001, lng: B.lng }, C])],
		]);
		const state = route([A, B, C], [WALK, WALK]);
		const first = joinProfile(planLegs(state, routed), new Map());
		expect(first.path).toHaveLength(5);
		expect(first.distances).toEqual(cumulativeDistances(first.path));
		const moved = commit(createHistory(state), {
			...state,
			waypoints: state.waypoints.map((p, i) => (i === 2 ? { ...p, lat: p.lat + 0.01 } : p)),
		}).present;
		const after = joinProfile(planLegs(moved, routed), new Map());
		expect(after.distances).toEqual(cumulativeDistances(after.path));
		expect(after.distances.at(-1)).not.toBe(first.distances.at(-1));
	});

	it('ignores heights cached for another shape of the same gap', () => {
		const state = route([A, B], [WALK]);
		const waiting = planLegs(state, new Map());
		const heights = new Map([[heightKey(waiting[0]), [1, 2]]]);
		const routed = planLegs(state, new Map([[legKey(A, B, WALK), routedAnswer([A, BEND, B])]]));
		expect(heightKey(routed[0])).not.toBe(heightKey(waiting[0]));
		expect(joinProfile(routed, heights).missing).toBe(1);
	});
});

describe('height batches', () => {
	it('asks only for gaps that are drawn, not cached and not waiting for roads', () => {
		const state = route([A, B, C], [STRAIGHT, WALK]);
		const legs = planLegs(state, new Map());
		expect(legs[1].status).toBe('pending');
		expect(legsNeedingHeights(legs, new Map())).toEqual([legs[0]]);
		expect(legsNeedingHeights(legs, new Map([[heightKey(legs[0]), [1, 2]]]))).toEqual([]);
	});

	it('packs gaps into one request up to the point limit and splits the answer back per gap', () => {
		const legs = planLegs(route([A, B, C, A], [STRAIGHT, STRAIGHT, STRAIGHT]), new Map());
		const batch = packHeightBatch(legs, 4);
		expect(batch?.keys).toEqual([heightKey(legs[0]), heightKey(legs[1])]);
		expect(batch?.shape).toEqual([
			{ lat: A.lat, lon: A.lng },
			{ lat: B.lat, lon: B.lng },
			{ lat: B.lat, lon: B.lng },
			{ lat: C.lat, lon: C.lng },
		]);
		const split = splitHeights(batch as NonNullable<typeof batch>, [1, 2, 2, null]);
		expect(split?.get(heightKey(legs[1]))).toEqual([2, null]);
		expect(splitHeights(batch as NonNullable<typeof batch>, [1, 2])).toBeNull();
		expect(packHeightBatch([], 4)).toBeNull();
	});
});

describe('planner distance markers', () => {
	it('puts a marker at each whole km along the drawn line, at the spacing the length calls for', () => {
		const start = { lat: 40.272, lng: -76.85 };
		const end = { lat: 40.272 + 3.5 / 111.2, lng: -76.85 };
		const legs = planLegs(route([start, end], [STRAIGHT]), new Map());
		const km = plannerDistanceMarkers(joinProfile(legs, new Map()), 'km');
		expect(km.map((m) => m.label)).toEqual(['1', '2', '3']);
		const path = [[start.lat, start.lng] as [number, number], [km[0].lat, km[0].lng] as [number, number]];
		expect(cumulativeDistances(path)[1]).toBeCloseTo(1000, -1);
		expect(plannerDistanceMarkers(joinProfile(legs, new Map()), 'mi').map((m) => m.label)).toEqual([
			'1',
			'2',
		]);
	});

	it('spaces markers 5 apart on a route of 20 units or more', () => {
		const start = { lat: 40, lng: -76.85 };
		const end = { lat: 40 + 26 / 111.2, lng: -76.85 };
		const legs = planLegs(route([start, end], [STRAIGHT]), new Map());
		const labels = plannerDistanceMarkers(joinProfile(legs, new Map()), 'km').map((m) => m.label);
		expect(labels).toEqual(['5', '10', '15', '20', '25']);
	});

	it('has none for a route without a gap', () => {
		expect(plannerDistanceMarkers(joinProfile([], new Map()), 'km')).toEqual([]);
	});
});

describe('surface and way breakdown', () => {
	it('sums routed gaps by their measure and counts straight gaps as unknown, shares adding up to 100', () => {
		const state = route([A, B, C], [WALK, STRAIGHT]);
		const answer = routedAnswer([A, BEND, B], {
			surface: [
				{ type: 'paved', length: 600, percent: 60 },
				{ type: 'unpaved', length: 400, percent: 40 },
			],
			way_type: [
				{ type: 'road', length: 700, percent: 70 },
				{ type: 'steps', length: 300, percent: 30 },
			],
		});
		const routed = new Map([[legKey(A, B, WALK), answer]]);
		const legs = planLegs(state, routed);
		const breakdown = sumBreakdown(legs, routed);
		const total = legs[0].distance + legs[1].distance;
		expect(breakdown.total).toBeCloseTo(total);
		const surface = Object.fromEntries(breakdown.surface.map((row) => [row.type, row.metres]));
		expect(surface.paved).toBeCloseTo(legs[0].distance * 0.6);
		expect(surface.unpaved).toBeCloseTo(legs[0].distance * 0.4);
		expect(surface.unknown).toBeCloseTo(legs[1].distance);
		expect(breakdown.wayType.map((row) => row.type)).toContain('steps');
		for (const rows of [breakdown.surface, breakdown.wayType]) {
			expect(rows.reduce((sum, row) => sum + row.metres, 0)).toBeCloseTo(total);
			expect(Math.round(rows.reduce((sum, row) => sum + row.percent, 0) * 10)).toBe(1000);
		}
	});

	it('counts a gap answered without a measure, or still waiting, as unknown', () => {
		const state = route([A, B, C], [WALK, WALK]);
		const routed = new Map([[legKey(A, B, WALK), routedAnswer([A, B])]]);
		const breakdown = sumBreakdown(planLegs(state, routed), routed);
		expect(breakdown.surface).toEqual([{ type: 'unknown', metres: breakdown.total, percent: 100 }]);
	});

	it('rounds shares to tenths that add up to exactly 100', () => {
		expect(sharesOfHundred([1, 1, 1])).toEqual([33.4, 33.3, 33.3]);
		expect(sharesOfHundred([2, 1])).toEqual([66.7, 33.3]);
		expect(sharesOfHundred([0, 0])).toEqual([0, 0]);
	});
});

describe('loop suggestions', () => {
	const location = (lat: number, lon: number, index: number) => ({
		lat,
		lon,
		type: 'break',
		original_index: index,
	});
	const leg = (points: [number, number][]) => ({
		shape: encodePolyline(points, 6),
		maneuvers: [],
		summary: { length: 1, time: 1, min_lat: 0, min_lon: 0, max_lat: 0, max_lon: 0 },
	});
	const trip = {
		bearing: 90,
		length: 3012,
		overlap_percent: 4.2,
		trip: {
			locations: [
				location(A.lat, A.lng, 0),
				location(B.lat, B.lng, 1),
				location(C.lat, C.lng, 2),
				location(A.lat, A.lng, 3),
			],
			legs: [
				leg([
					[A.lat, A.lng],
					[B.lat, B.lng],
				]),
				leg([
					[B.lat, B.lng],
					[C.lat, C.lng],
				]),
			],
			summary: { length: 3.012, time: 1, min_lat: 0, min_lon: 0, max_lat: 0, max_lon: 0 },
			units: 'kilometers' as const,
			status: 0 as const,
			status_message: '',
			language: 'en-US',
		},
	};

	it('reads at most three loops with their corners in order', () => {
		const loops = readLoopSuggestions({ trips: [trip, trip, trip, trip] });
		expect(loops).toHaveLength(3);
		expect(loops[0]).toMatchObject({ length: 3012, overlapPercent: 4.2, waypoints: [A, B, C, A] });
		expect(loops[0].line).toHaveLength(4);
	});

	it('asks for the heights of every loop at once and gives each its own climb', () => {
		const loops = readLoopSuggestions({ trips: [trip, trip] });
		const batch = loopHeightBatch(loops);
		expect(batch.shape).toHaveLength(8);
		expect(batch.shape[4]).toEqual({ lat: A.lat, lon: A.lng });
		expect(loopClimbs(loops, [100, 120, 120, 110, 100, 100, null, 105])).toEqual([20, 5]);
		expect(loopClimbs(loops, [1, 2])).toEqual([null, null]);
	});

	it('loads a loop as waypoints with road-following gaps, keeping notes, as one undoable edit', () => {
		const [loop] = readLoopSuggestions({ trips: [trip] });
		const before = addNote(route([C], []), { ...C, text: 'Water fountain' });
		const history = createHistory(before);
		const after = commit(history, loopToState(before, loop, { ...STRAIGHT, mode: 'BICYCLING' }));
		expect(after.present.waypoints.map(({ lat, lng }) => ({ lat, lng }))).toEqual([A, B, C, A]);
		expect(after.present.legs).toEqual(
			Array(3).fill({ mode: 'BICYCLING', followRoads: true, avoidHighways: true }),
		);
		expect(after.present.notes).toEqual(before.notes);
		expect(undo(after).present).toBe(before);
	});
});

describe('custom notes', () => {
	it('are added and removed as edits that undo, and survive route edits', () => {
		let history = createHistory(route([A, B], [WALK]));
		history = commit(history, addNote(history.present, { ...BEND, text: '  Viewpoint ' }));
		expect(history.present.notes).toEqual([{ ...BEND, text: 'Viewpoint' }]);
		history = commit(history, addWaypoint(history.present, C, WALK));
		history = commit(history, reverseRoute(history.present));
		expect(history.present.notes).toHaveLength(1);
		history = commit(history, removeNote(history.present, 0));
		expect(history.present.notes).toEqual([]);
		expect(undo(history).present.notes).toHaveLength(1);
	});

	it('keep single-line text of at most 500 characters', () => {
		expect(checkNoteText('Café stop')).toBeNull();
		expect(checkNoteText('   ')).toMatch(/Type/);
		expect(checkNoteText('a'.repeat(501))).toMatch(/500/);
		expect(checkNoteText('bad\u0000text')).toMatch(/not allowed/);
		expect(checkNoteText('two\nlines')).toMatch(/not allowed/);
		const state = route([A, B], [WALK]);
		expect(addNote(state, { ...A, text: 'x\u0007' })).toBe(state);
	});

	it('go into the save payload as markers with the custom note icon', () => {
		const state = addNote(route([A, B], [STRAIGHT]), { ...BEND, text: 'Gate' });
		const payload = buildSavePayload(planLegs(state, new Map()), state.notes ?? [], DETAILS, 2016);
		expect(payload.markers).toEqual([{ ...BEND, text: 'Gate', icon_id: 2016 }]);
	});

	it('come back with a draft, and a draft note that does not read back is dropped', () => {
		const restored = restoreState({
			waypoints: [A, B],
			legs: [WALK],
			notes: [{ ...A, text: 'Bench' }, { ...B, text: 'bad\u0000' }, { lat: 99, lng: 0, text: 'x' }, 'nope'],
		});
		expect(restored?.notes).toEqual([{ ...A, text: 'Bench' }]);
		expect(restoreState({ waypoints: [A, B], legs: [WALK] })?.notes).toBeUndefined();
		expect(legShape(planLegs(restored as PlannerState, new Map())[0])).toEqual([A, B]);
	});
});
