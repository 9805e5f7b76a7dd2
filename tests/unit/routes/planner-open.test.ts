import { describe, expect, it, vi } from 'vitest';
import { drainEvents, MAX_QUEUED_EVENTS, peekEvents, trackEvent } from '../../../src/lib/analytics/queue';
import { cumulativeDistances } from '../../../src/lib/routes/geo';
import {
	addWaypoint,
	buildSavePayload,
	EMPTY_PLANNER,
	joinLegs,
	type LatLng,
	type LegOptions,
	legKey,
	measurePlan,
	PLANNER_DRAFT_STORAGE_KEY,
	PLANNER_DRAFT_STORAGE_KEY_NAMES,
	type PlannerState,
	planFromSavedRoute,
	planFromTrack,
	planLegs,
	plannerDraftKey,
	type RoutedLeg,
	restoreRouted,
	type SavedRouteShape,
} from '../../../src/lib/routes/planner';
import { createPlannerStore, type RouteFetch } from '../../../src/lib/routes/planner-store';

const WALK: LegOptions = { mode: 'WALKING', followRoads: true, avoidHighways: true };
const RIDE_STRAIGHT: LegOptions = { mode: 'BICYCLING', followRoads: false, avoidHighways: true };
const A = { lat: 40.27, lng: -76.88 };
const B = { lat: 40.271, lng: -76.879 };
const C = { lat: 40.272, lng: -76.878 };
const ROAD_AB = [A, { lat: 40.2702, lng: -76.8782 }, { lat: 40.2707, lng: -76.8791 }, B];

/** A route drawn in the planner (A→B along a road, B→C straight by bike) and the payload it saves. */
function drawnRoute() {
	let state: PlannerState = addWaypoint(EMPTY_PLANNER, A, WALK);
	state = addWaypoint(state, B, WALK);
	state = addWaypoint(state, C, RIDE_STRAIGHT);
	const routed = new Map<string, RoutedLeg>([
		[
			legKey(A, B, WALK),
			{
				points: ROAD_AB,
				distance: lineLength(ROAD_AB),
				cues: [{ instructions: 'Walk north.', lat: A.lat, lng: A.lng, distance: 0, isCustomNote: false }],
			},
		],
	]);
	const legs = planLegs(state, routed);
	const payload = buildSavePayload(
		legs,
		[],
		{ name: 'Loop', description: '', activity_type: 16, privacy: 0 },
		1,
	);
	return { legs, payload };
}

function lineLength(points: readonly LatLng[]): number {
	return cumulativeDistances(points.map((p) => [p.lat, p.lng] as [number, number])).at(-1) ?? 0;
}

/** What the API's detailed_internal answer gives the planner for a saved payload. */
function asSaved(payload: ReturnType<typeof drawnRoute>['payload']): SavedRouteShape {
	return {
		points: payload.points.map((p) => ({ lat: p.lat, lng: p.lng, travel_mode: p.travel_mode })),
		segments: payload.segments,
	};
}

describe('opening a saved route in the planner', () => {
	it('gives back the drawn legs, with their saved shapes and modes, and routes nothing again', () => {
		const { legs: drawn, payload } = drawnRoute();
		const plan = planFromSavedRoute(asSaved(payload));
		expect(plan.state.waypoints.map(({ lat, lng }) => ({ lat, lng }))).toEqual([A, B, C]);
		expect(plan.state.legs).toEqual([WALK, RIDE_STRAIGHT]);
		const legs = planLegs(plan.state, plan.routed);
		expect(legs.map((leg) => leg.status)).toEqual(['routed', 'straight']);
		expect(legs[0].points).toEqual(ROAD_AB);
		expect(legs[0].cues.map((cue) => cue.instructions)).toEqual(['Walk north.']);
		expect(joinLegs(legs)).toEqual(payload.points.map(({ lat, lng }) => ({ lat, lng })));
		// The distance the planner shows is the one the saved line measures, as the route page shows it.
		expect(measurePlan(legs)).toBeCloseTo(measurePlan(drawn), 6);
		expect(measurePlan(legs)).toBeCloseTo(lineLength(payload.points), 6);
	});

	it('saves back the same line when nothing was changed', () => {
		const { payload } = drawnRoute();
		const plan = planFromSavedRoute(asSaved(payload));
		const again = buildSavePayload(
			planLegs(plan.state, plan.routed),
			[],
			{ name: 'Loop', description: '', activity_type: 16, privacy: 0 },
			1,
		);
		expect(again.points).toEqual(payload.points);
		expect(again.notes).toBe(payload.notes);
	});

	it('cuts a line without pieces at its turns and where the travel mode changes, keeping every point', () => {
		const line = [
			...Array.from({ length: 40 }, (_, i) => ({ lat: 40 + i * 1e-4, lng: -76.9, travel_mode: 'WALKING' })),
			...Array.from({ length: 40 }, (_, i) => ({
				lat: 40.004,
				lng: -76.9 + (i + 1) * 1e-4,
				travel_mode: i < 20 ? 'WALKING' : 'BICYCLING',
			})),
		];
		const plan = planFromSavedRoute({ points: line });
		const legs = planLegs(plan.state, plan.routed);
		expect(legs.every((leg) => leg.status !== 'pending')).toBe(true);
		expect(plan.state.waypoints.length).toBeLessThan(10);
		expect(new Set(plan.state.legs.map((leg) => leg.mode))).toEqual(new Set(['WALKING', 'BICYCLING']));
		expect(joinLegs(legs)).toEqual(line.map(({ lat, lng }) => ({ lat, lng })));
		expect(measurePlan(legs)).toBeCloseTo(lineLength(line), 6);
	});

	it('does not trust pieces that do not make up the saved line', () => {
		const { payload } = drawnRoute();
		const saved = asSaved(payload);
		const broken = { ...saved, segments: saved.segments?.slice(0, 1) };
		const plan = planFromSavedRoute(broken);
		expect(joinLegs(planLegs(plan.state, plan.routed))).toEqual(
			payload.points.map(({ lat, lng }) => ({ lat, lng })),
		);
	});

	it('opens an empty or one-point line without legs', () => {
		expect(planFromSavedRoute({ points: [] }).state).toEqual(EMPTY_PLANNER);
		expect(planFromSavedRoute({ points: [A] }).state.legs).toEqual([]);
	});
});

describe('a track from a file as the starting line', () => {
	it('keeps the turns as waypoints joined by straight legs close to the track', () => {
		const track = Array.from({ length: 1000 }, (_, i) => ({
			lat: 46.4 + i * 1e-5,
			lng: 13.7 + 0.002 * Math.sin(i / 100),
		}));
		const state = planFromTrack(track, 'BICYCLING');
		expect(state.waypoints.length).toBeGreaterThan(4);
		expect(state.waypoints.length).toBeLessThan(200);
		expect(state.legs).toHaveLength(state.waypoints.length - 1);
		expect(state.legs.every((leg) => leg.mode === 'BICYCLING' && !leg.followRoads)).toBe(true);
		expect(state.waypoints[0]).toMatchObject(track[0]);
		expect(state.waypoints.at(-1)).toMatchObject(track.at(-1) as LatLng);
		const planned = measurePlan(planLegs(state, new Map()));
		expect(Math.abs(planned - lineLength(track)) / lineLength(track)).toBeLessThan(0.01);
	});

	it('leaves out positions that are not on the earth and repeated ones', () => {
		const state = planFromTrack([A, A, { lat: 91, lng: 0 }, { lat: Number.NaN, lng: 1 }, B], 'WALKING');
		expect(state.waypoints.map(({ lat, lng }) => ({ lat, lng }))).toEqual([A, B]);
	});
});

describe('drafts per planner page', () => {
	it('keeps a new route, the edit of route 5, its copy and the edit of route 6 apart', () => {
		const keys = [
			plannerDraftKey({ kind: 'create' }),
			plannerDraftKey({ kind: 'edit', routeId: 5 }),
			plannerDraftKey({ kind: 'copy', routeId: 5 }),
			plannerDraftKey({ kind: 'edit', routeId: 6 }),
		];
		expect(new Set(keys).size).toBe(4);
		expect(keys[0]).toBe(PLANNER_DRAFT_STORAGE_KEY);
	});

	it('lists in the cookie policy a name pattern for every key it writes', () => {
		const patterns = PLANNER_DRAFT_STORAGE_KEY_NAMES.map(
			(name) => new RegExp(`^${name.replace('{route id}', '\\d+')}$`),
		);
		for (const key of [
			plannerDraftKey({ kind: 'create' }),
			plannerDraftKey({ kind: 'edit', routeId: 5 }),
			plannerDraftKey({ kind: 'copy', routeId: 123456 }),
		])
			expect(
				patterns.some((pattern) => pattern.test(key)),
				key,
			).toBe(true);
	});

	it('reads drawn shapes back from a draft and leaves out what is not one', () => {
		const leg: RoutedLeg = { points: ROAD_AB, distance: 120, cues: [] };
		const stored = JSON.parse(
			JSON.stringify([
				['good', leg],
				['short', { ...leg, points: [A] }],
				['bad-point', { ...leg, points: [A, { lat: 'x', lng: 1 }] }],
				[3, leg],
				null,
			]),
		);
		const routed = restoreRouted(stored);
		expect([...routed.keys()]).toEqual(['good']);
		expect(routed.get('good')).toEqual(leg);
		expect(restoreRouted('nonsense').size).toBe(0);
	});
});

describe('the planner store opened with drawn legs', () => {
	it('shows them as saved without asking the routing service', async () => {
		const fetch = vi.fn<RouteFetch>();
		const store = createPlannerStore({ fetch });
		const { payload } = drawnRoute();
		const plan = planFromSavedRoute(asSaved(payload));
		await store.reset(plan.state, plan.routed);
		expect(fetch).not.toHaveBeenCalled();
		expect(store.$legs.get().map((leg) => leg.status)).toEqual(['routed', 'straight']);
		expect(store.$history.get().past).toHaveLength(0);
	});
});

describe('analytics events', () => {
	it('queues events in order until drained, keeping the latest when nothing drains them', () => {
		drainEvents();
		trackEvent('route_control_performed', { control: 'undo' });
		trackEvent('route_created', { route_id: 7 });
		expect(peekEvents().map((event) => event.name)).toEqual(['route_control_performed', 'route_created']);
		const drained = drainEvents();
		expect(drained[0].properties).toEqual({ control: 'undo' });
		expect(drainEvents()).toEqual([]);
		for (let i = 0; i < MAX_QUEUED_EVENTS + 5; i++) trackEvent('route_point_interaction_performed', { i });
		const kept = drainEvents();
		expect(kept).toHaveLength(MAX_QUEUED_EVENTS);
		expect(kept[0].properties.i).toBe(5);
	});
});
