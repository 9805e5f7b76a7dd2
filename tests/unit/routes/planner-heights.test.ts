import { describe, expect, it } from 'vitest';
import {
	addWaypoint,
	EMPTY_PLANNER,
	type LegOptions,
	type PlannerState,
	planLegs,
} from '../../../src/lib/routes/planner';
import { createHeightLoader } from '../../../src/lib/routes/planner-heights';
import { heightKey } from '../../../src/lib/routes/planner-insights';
import type { RouteFetch } from '../../../src/lib/routes/planner-store';
import { ElevationSource } from '../../../src/lib/routing/elevation';

// The height service's own lookup over the bundled SRTM tile of Andorra, behind the planner's fetch.
const source = new ElevationSource(['data-regions']);
const STRAIGHT: LegOptions = { mode: 'WALKING', followRoads: false, avoidHighways: true };
const A = { lat: 42.5078, lng: 1.5211 };
const B = { lat: 42.5103, lng: 1.5369 };
const C = { lat: 42.52, lng: 1.54 };
const D = { lat: 42.53, lng: 1.55 };

function heightService(options: { hold?: boolean } = {}) {
	const calls: { shape: { lat: number; lon: number }[]; signal: AbortSignal; release: () => void }[] = [];
	const fetch: RouteFetch = (_input, init) => {
		const { shape } = JSON.parse(String(init.body)) as { shape: { lat: number; lon: number }[] };
		const signal = init.signal as AbortSignal;
		return new Promise<Response>((resolve, reject) => {
			const release = () =>
				resolve(Response.json({ height: shape.map((point) => source.getHeight(point.lat, point.lon)) }));
			calls.push({ shape, signal, release });
			signal.addEventListener('abort', () => reject(signal.reason));
			if (!options.hold) release();
		});
	};
	return { fetch, calls };
}

const plan = (points: { lat: number; lng: number }[]) =>
	planLegs(
		points.reduce<PlannerState>((state, point) => addWaypoint(state, point, STRAIGHT), EMPTY_PLANNER),
		new Map(),
	);

describe('planner height loader', () => {
	it('asks for the new gap only when a point is added', async () => {
		const service = heightService();
		const loader = createHeightLoader({ fetch: service.fetch, debounceMs: 0, warn: () => {} });
		const first = plan([A, B]);
		await loader.update(first);
		expect(service.calls).toHaveLength(1);
		const heights = loader.$heights.get().get(heightKey(first[0]));
		expect(heights).toEqual([source.getHeight(A.lat, A.lng), source.getHeight(B.lat, B.lng)]);
		expect(heights?.every((h) => typeof h === 'number' && h > 900)).toBe(true);

		const second = plan([A, B, C]);
		await loader.update(second);
		expect(service.calls).toHaveLength(2);
		expect(service.calls[1].shape).toEqual([
			{ lat: B.lat, lon: B.lng },
			{ lat: C.lat, lon: C.lng },
		]);
		expect(loader.$loading.get()).toBe(false);
	});

	it('waits for edits in quick succession to stop and then asks once for every missing gap', async () => {
		const service = heightService();
		const loader = createHeightLoader({ fetch: service.fetch, debounceMs: 20, warn: () => {} });
		void loader.update(plan([A, B]));
		void loader.update(plan([A, B, C]));
		await loader.update(plan([A, B, C, D]));
		expect(service.calls).toHaveLength(1);
		expect(service.calls[0].shape).toHaveLength(6);
		expect(loader.$heights.get().size).toBe(3);
	});

	it('aborts a request for a gap that is no longer drawn and asks for the gap that replaced it', async () => {
		const service = heightService({ hold: true });
		const loader = createHeightLoader({ fetch: service.fetch, debounceMs: 0, warn: () => {} });
		void loader.update(plan([A, B]));
		await new Promise((resolve) => setTimeout(resolve, 5));
		expect(service.calls).toHaveLength(1);
		const moved = plan([A, C]);
		const done = loader.update(moved);
		expect(service.calls[0].signal.aborted).toBe(true);
		await new Promise((resolve) => setTimeout(resolve, 5));
		expect(service.calls).toHaveLength(2);
		service.calls[1].release();
		await done;
		expect([...loader.$heights.get().keys()]).toEqual([heightKey(moved[0])]);
	});

	it('does not ask again for a gap the service refused', async () => {
		let count = 0;
		const fetch: RouteFetch = async () => {
			count++;
			return Response.json({ error: 'no' }, { status: 400 });
		};
		const warnings: string[] = [];
		const loader = createHeightLoader({ fetch, debounceMs: 0, warn: (message) => warnings.push(message) });
		await loader.update(plan([A, B]));
		await loader.update(plan([A, B]));
		expect(count).toBe(1);
		expect(warnings).toHaveLength(1);
		expect(loader.$heights.get().size).toBe(0);
	});
});
