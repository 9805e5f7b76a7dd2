import { describe, expect, it, vi } from 'vitest';
import {
	addWaypoint,
	type LegOptions,
	legKey,
	removeWaypoint,
	restoreState,
} from '../../../src/lib/routes/planner';
import { createPlannerStore, type RouteFetch } from '../../../src/lib/routes/planner-store';
import { encodePolyline } from '../../../src/lib/routing/polyline';

const WALK: LegOptions = { mode: 'WALKING', followRoads: true, avoidHighways: true };
const A = { lat: 40.27, lng: -76.88 };
const B = { lat: 40.271, lng: -76.879 };
const C = { lat: 40.272, lng: -76.878 };
const BEND = { lat: 40.2702, lng: -76.8782 };

function answer(points: { lat: number; lng: number }[]) {
	return {
		trip: {
			units: 'kilometers',
			legs: [
				{
					shape: encodePolyline(
						points.map((p) => [p.lat, p.lng] as [number, number]),
						6,
					),
					maneuvers: [
						{
							instruction: 'Walk east on Market Street.',
							length: 0.2,
							begin_shape_index: 0,
							street_names: ['Market Street'],
						},
						{
							instruction: 'Turn left onto 2nd Street.',
							length: 0.1,
							begin_shape_index: 1,
							street_names: ['2nd Street'],
						},
						{ instruction: 'You have arrived.', length: 0, begin_shape_index: points.length - 1 },
					],
				},
			],
		},
	};
}

/** A routing service under the test's control: each request waits until the test answers it. */
function controlledFetch() {
	const calls: {
		body: Record<string, unknown>;
		reply: (response: Response) => void;
		fail: (e: Error) => void;
	}[] = [];
	const fetch: RouteFetch = (_input, init) =>
		new Promise<Response>((resolve, reject) => {
			calls.push({ body: JSON.parse(String(init.body)), reply: resolve, fail: reject });
			init.signal?.addEventListener('abort', () => reject(init.signal?.reason));
		});
	return { fetch, calls };
}

const json = (body: unknown, status = 200) =>
	new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('planner store', () => {
	it('asks for a new gap with the travel mode’s costing and swaps the routed shape in when it answers', async () => {
		const service = controlledFetch();
		const store = createPlannerStore({ fetch: service.fetch, warn: () => {} });
		store.edit((s) => addWaypoint(s, A, WALK));
		const done = store.edit((s) => addWaypoint(s, B, WALK));
		expect(store.$legs.get()[0].status).toBe('pending');
		expect(store.$legs.get()[0].points).toEqual([A, B]);
		expect(service.calls).toHaveLength(1);
		expect(service.calls[0].body).toMatchObject({
			costing: 'pedestrian',
			avoid_highways: true,
			locations: [
				{ lat: A.lat, lon: A.lng },
				{ lat: B.lat, lon: B.lng },
			],
		});
		service.calls[0].reply(json(answer([A, BEND, B])));
		await done;
		const leg = store.$legs.get()[0];
		expect(leg.status).toBe('routed');
		expect(leg.points).toEqual([A, BEND, B]);
		// Measured along the shape, longer than the straight gap.
		expect(leg.distance).toBeGreaterThan(140);
		expect(leg.cues.map((cue) => cue.distance)).toEqual([0, 200, 300]);
		expect(store.streetAt(A)).toBe('Market Street');
		expect(store.streetAt(B)).toBe('2nd Street');
		expect(store.$pending.get().size).toBe(0);
	});

	it('ignores a late answer for a gap that no longer exists', async () => {
		const service = controlledFetch();
		const store = createPlannerStore({ fetch: service.fetch, warn: () => {} });
		store.edit((s) => addWaypoint(s, A, WALK));
		const done = store.edit((s) => addWaypoint(s, B, WALK));
		store.edit((s) => removeWaypoint(s, 1));
		expect(store.$legs.get()).toHaveLength(0);
		service.calls[0].reply(json(answer([A, BEND, B])));
		await done;
		expect(store.$routed.get().size).toBe(0);
		expect(store.$pending.get().size).toBe(0);
		// Bringing the gap back asks again rather than using an answer that arrived while it was gone.
		store.undo();
		expect(service.calls).toHaveLength(2);
	});

	it('keeps the straight line, names the gap and warns when routing fails', async () => {
		const warn = vi.fn();
		const store = createPlannerStore({ fetch: async () => json({ error: 'No engine' }, 503), warn });
		store.edit((s) => addWaypoint(s, A, WALK));
		await store.edit((s) => addWaypoint(s, B, WALK));
		const leg = store.$legs.get()[0];
		expect(leg.status).toBe('straight');
		expect(leg.points).toEqual([A, B]);
		expect(store.$failures.get()).toEqual([
			expect.objectContaining({
				key: legKey(A, B, WALK),
				index: 0,
				message: expect.stringContaining('point 1 to point 2'),
			}),
		]);
		expect(warn).toHaveBeenCalledOnce();
		expect(String(warn.mock.calls[0][1])).toContain('503');
	});

	it('gives up after the timeout and keeps the straight line', async () => {
		const service = controlledFetch();
		const warn = vi.fn();
		const store = createPlannerStore({ fetch: service.fetch, timeoutMs: 20, warn });
		store.edit((s) => addWaypoint(s, A, WALK));
		await store.edit((s) => addWaypoint(s, B, WALK));
		expect(store.$legs.get()[0].status).toBe('straight');
		expect(store.$failures.get()).toHaveLength(1);
		expect(warn).toHaveBeenCalledOnce();
	});

	it('keeps routed answers across undo and redo, and routes only the gaps it has no answer for', async () => {
		const service = controlledFetch();
		const store = createPlannerStore({ fetch: service.fetch, warn: () => {} });
		store.edit((s) => addWaypoint(s, A, WALK));
		const first = store.edit((s) => addWaypoint(s, B, WALK));
		service.calls[0].reply(json(answer([A, BEND, B])));
		await first;
		const second = store.edit((s) => addWaypoint(s, C, WALK));
		service.calls[1].reply(json(answer([B, C])));
		await second;
		store.undo();
		expect(store.$legs.get()).toHaveLength(1);
		store.redo();
		expect(store.$legs.get().map((leg) => leg.status)).toEqual(['routed', 'routed']);
		expect(service.calls).toHaveLength(2);
	});

	it('restores a draft state with fresh ids and refuses a malformed one', () => {
		const state = addWaypoint(addWaypoint({ waypoints: [], legs: [] }, A, WALK), B, WALK);
		const restored = restoreState(JSON.parse(JSON.stringify(state)));
		expect(restored?.waypoints.map(({ lat, lng }) => ({ lat, lng }))).toEqual([A, B]);
		expect(restored?.legs).toEqual([WALK]);
		expect(restored?.waypoints[0].id).not.toBe(state.waypoints[0].id);
		expect(restoreState({ waypoints: [A, B], legs: [] })).toBeNull();
		expect(restoreState({ waypoints: [{ lat: 'x', lng: 1 }], legs: [] })).toBeNull();
		expect(restoreState('nonsense')).toBeNull();
	});
});

describe("the panels' view of the route", () => {
	const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

	it('catches up with the routed line when the answer comes, not before', async () => {
		const service = controlledFetch();
		const store = createPlannerStore({ fetch: service.fetch, warn: () => {}, panelHoldMs: 60_000 });
		store.edit((s) => addWaypoint(s, A, WALK));
		await settle();
		// Nothing is awaited for a first point: the point list shows it at once.
		expect(store.$view.get().history.present.waypoints).toHaveLength(1);
		const done = store.edit((s) => addWaypoint(s, B, WALK));
		await settle();
		// The map already has the straight gap; the panels wait for its answer.
		expect(store.$legs.get()).toHaveLength(1);
		expect(store.$view.get().legs).toHaveLength(0);
		service.calls[0].reply(json(answer([A, BEND, B])));
		await done;
		await settle();
		const view = store.$view.get();
		expect(view.history.present.waypoints).toHaveLength(2);
		expect(view.legs[0].status).toBe('routed');
		expect(view.pending.size).toBe(0);
		expect(view.streets.size).toBeGreaterThan(0);
	});

	it("marks a view of the member's own edit with nothing to wait for, and not one an answer completed", async () => {
		const service = controlledFetch();
		const store = createPlannerStore({ fetch: service.fetch, warn: () => {}, panelHoldMs: 60_000 });
		const STRAIGHT = { ...WALK, followRoads: false };
		store.edit((s) => addWaypoint(s, A, STRAIGHT));
		store.edit((s) => addWaypoint(s, B, STRAIGHT));
		await settle();
		expect(store.$view.get()).toMatchObject({ atOnce: true });
		expect(store.$view.get().legs).toHaveLength(1);
		store.undo();
		await settle();
		expect(store.$view.get()).toMatchObject({ atOnce: true });
		expect(store.$view.get().legs).toHaveLength(0);
		// A gap that follows roads: the view waits for its answer, which is not the member's doing.
		const done = store.edit((s) => addWaypoint(s, C, WALK));
		await settle();
		expect(store.$view.get().history.present.waypoints).toHaveLength(1);
		service.calls[0].reply(json(answer([A, BEND, C])));
		await done;
		await settle();
		expect(store.$view.get()).toMatchObject({ atOnce: false });
		expect(store.$view.get().legs[0].status).toBe('routed');
	});

	it('catches up after the hold at the latest when the answer is slow', async () => {
		const service = controlledFetch();
		const store = createPlannerStore({ fetch: service.fetch, warn: () => {}, panelHoldMs: 20 });
		store.edit((s) => addWaypoint(s, A, WALK));
		store.edit((s) => addWaypoint(s, B, WALK));
		await settle();
		expect(store.$view.get().legs).toHaveLength(0);
		await new Promise((resolve) => setTimeout(resolve, 40));
		const view = store.$view.get();
		expect(view.legs).toHaveLength(1);
		expect(view.legs[0].status).toBe('pending');
		expect(view.pending.size).toBe(1);
		expect(service.calls).toHaveLength(1);
	});
});
