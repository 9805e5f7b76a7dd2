import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import { HeightResponseSchema } from '../../../src/lib/routing/contract.ts';
import type { RoutingEngine } from '../../../src/lib/routing/engine.ts';
import { createRoutingApi } from '../../../src/lib/routing/server/api.ts';
import { createHeightLookup } from '../../../src/lib/routing/server/heights.ts';
import { loadEngine } from '../../../src/lib/routing/server/regions.ts';
import { REGIONS_DIR, TEST_CACHE_DIR } from '../../unit/routing/region-cache.ts';

let engine: RoutingEngine;

beforeAll(async () => {
	engine = await loadEngine({ regionsDir: REGIONS_DIR, cacheDir: TEST_CACHE_DIR, only: ['andorra.osm.pbf'] });
});

const ANDORRA = [
	{ lat: 42.5063, lng: 1.5218 },
	{ lat: 42.5097, lng: 1.5385 },
];
const HARRISBURG = [
	{ lat: 40.27, lng: -76.88 },
	{ lat: 40.28, lng: -76.88 },
];

describe('the heights a saved route is given', () => {
	it('are the heights POST /routing/height answers for the same points', async () => {
		const lookup = createHeightLookup({ engine });
		const answer = await createRoutingApi({ engine }).request('/routing/height', {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ shape: ANDORRA.map((point) => ({ lat: point.lat, lon: point.lng })) }),
		});
		const endpoint = v.parse(HeightResponseSchema, await answer.json()).height;
		const heights = await lookup(ANDORRA);
		expect(heights).toEqual(endpoint);
		for (const height of heights ?? []) expect(height).toBeGreaterThan(900);
	});

	it('are null for points outside every elevation tile, never a guess', async () => {
		expect(await createHeightLookup({ engine })(HARRISBURG)).toEqual([null, null]);
	});

	it('are none at all without an engine, when the regions failed to load, or for more points than the service measures', async () => {
		const failing = Promise.reject(new Error('data-regions is missing'));
		failing.catch(() => {});
		expect(await createHeightLookup({ engine: null })(ANDORRA)).toBeNull();
		expect(await createHeightLookup({ engine: failing })(ANDORRA)).toBeNull();
		const many = Array.from({ length: 10_001 }, () => ANDORRA[0]);
		expect(await createHeightLookup({ engine })(many)).toBeNull();
	});

	it('come from the routing server’s height service when routing is forwarded (ROUTING_URL)', async () => {
		const asked: { path: string; body: unknown }[] = [];
		let answer: { status: number; body: unknown } = {
			status: 200,
			body: { shape: [], height: [1012, null] },
		};
		// A local server in Valhalla's shape, as far as its /height answer goes.
		const valhalla = createServer((request, response) => {
			let body = '';
			request.on('data', (chunk) => {
				body += chunk;
			});
			request.on('end', () => {
				asked.push({ path: String(request.url), body: JSON.parse(body) });
				response.writeHead(answer.status, { 'content-type': 'application/json' });
				response.end(JSON.stringify(answer.body));
			});
		});
		await new Promise<void>((resolve) => valhalla.listen(0, '127.0.0.1', resolve));
		const routingUrl = `http://127.0.0.1:${(valhalla.address() as AddressInfo).port}/`;
		try {
			const lookup = createHeightLookup({ routingUrl, engine });
			expect(await lookup(ANDORRA)).toEqual([1012, null]);
			expect(asked).toEqual([
				{ path: '/height', body: { shape: ANDORRA.map((point) => ({ lat: point.lat, lon: point.lng })) } },
			]);
			answer = { status: 503, body: 'down' };
			expect(await lookup(ANDORRA)).toBeNull();
			// One height for two points is not an answer about these points.
			answer = { status: 200, body: { height: [1012] } };
			expect(await lookup(ANDORRA)).toBeNull();
		} finally {
			await new Promise((resolve) => valhalla.close(resolve));
		}
	});
});
