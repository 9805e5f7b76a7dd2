import polyline from '@mapbox/polyline';
import { Hono } from 'hono';
import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiEnv } from '../../../src/lib/api/context';
import type { Viewer } from '../../../src/lib/auth/viewer';
import {
	CitySearchResponseSchema,
	ErrorResponseSchema,
	GeocodeJsonResponseSchema,
	GeocodeResponseSchema,
	HeightResponseSchema,
	LocateResponseSchema,
	RoundTripResponseSchema,
	RouteResponseSchema,
} from '../../../src/lib/routing/contract.ts';
import type { RoutingEngine } from '../../../src/lib/routing/engine.ts';
import { createRoutingApi } from '../../../src/lib/routing/server/api.ts';
import { loadEngine } from '../../../src/lib/routing/server/regions.ts';
import { REGIONS_DIR, TEST_CACHE_DIR } from '../../unit/routing/region-cache.ts';

let engine: RoutingEngine;
let app: ReturnType<typeof createRoutingApi>;
/** The same API with an MVP member signed in, as the house API mounts it: round trips are MVP's. */
let mvpApp: Hono<ApiEnv>;
const MVP_MEMBER: Viewer = { id: 1, username: 'mo', displayName: 'Mo', isPremium: true };

// Monaco: from the Casino square towards the Prince's Palace; Andorra la Vella to Escaldes.
const CASINO = { lat: 43.7396, lon: 7.4275 };
const PALACE = { lat: 43.7315, lon: 7.4203 };
const ANDORRA_LA_VELLA = { lat: 42.5063, lon: 1.5218 };
const ESCALDES = { lat: 42.5097, lon: 1.5385 };

beforeAll(async () => {
	engine = await loadEngine({
		regionsDir: REGIONS_DIR,
		cacheDir: TEST_CACHE_DIR,
		only: ['monaco.osm.gz', 'andorra.osm.pbf'],
	});
	app = createRoutingApi({ engine });
	mvpApp = new Hono<ApiEnv>()
		.use(async (c, next) => {
			c.set('viewer', MVP_MEMBER);
			await next();
		})
		.route('/', app);
});

function post(path: string, body: unknown, to: { request: Hono['request'] } = app) {
	return to.request(path, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: typeof body === 'string' ? body : JSON.stringify(body),
	});
}

async function expectError(response: Response, code: number, status = 400) {
	expect(response.status).toBe(status);
	const body = v.parse(ErrorResponseSchema, await response.json());
	expect(body.error_code).toBe(code);
	expect(body.status_code).toBe(status);
	return body;
}

describe('POST /routing/route', () => {
	it('answers a Valhalla-shaped trip with a polyline6 shape and plain-English maneuvers', async () => {
		for (const costing of ['pedestrian', 'bicycle', 'auto']) {
			const response = await post('/routing/route', { locations: [CASINO, PALACE], costing });
			expect(response.status).toBe(200);
			const body = v.parse(RouteResponseSchema, await response.json());
			const leg = body.trip.legs[0];
			const points = polyline.decode(leg.shape, 6);
			expect(points.length).toBeGreaterThan(2);
			// Snapped ends lie near the requested points.
			expect(Math.abs(points[0][0] - CASINO.lat)).toBeLessThan(0.001);
			expect(Math.abs((points.at(-1)?.[1] ?? 0) - PALACE.lon)).toBeLessThan(0.001);
			expect(Math.abs((points.at(-1)?.[0] ?? 0) - PALACE.lat)).toBeLessThan(0.001);
			expect(leg.maneuvers[0].type).toBe(1);
			expect(leg.maneuvers.at(-1)?.instruction).toBe('You have arrived at your destination.');
			for (const maneuver of leg.maneuvers) {
				expect(maneuver.instruction).toMatch(/^[A-Z].*\.$/);
				expect(maneuver.end_shape_index).toBeLessThan(points.length);
			}
			const sum = leg.maneuvers.reduce((total, m) => total + m.length, 0);
			expect(sum).toBeCloseTo(leg.summary.length, 2);
			// A city walk between these points is 1–3 km.
			expect(leg.summary.length).toBeGreaterThan(0.9);
			expect(leg.summary.length).toBeLessThan(4);
			expect(body.trip.units).toBe('kilometers');
		}
	});

	it('walks more slowly than it drives', async () => {
		const walk = v.parse(
			RouteResponseSchema,
			await (
				await post('/routing/route', { locations: [ANDORRA_LA_VELLA, ESCALDES], costing: 'pedestrian' })
			).json(),
		);
		const drive = v.parse(
			RouteResponseSchema,
			await (
				await post('/routing/route', { locations: [ANDORRA_LA_VELLA, ESCALDES], costing: 'auto' })
			).json(),
		);
		expect(walk.trip.summary.time).toBeGreaterThan(drive.trip.summary.time * 2);
	});

	it('reports miles when asked', async () => {
		const km = v.parse(
			RouteResponseSchema,
			await (await post('/routing/route', { locations: [CASINO, PALACE], costing: 'pedestrian' })).json(),
		);
		const miles = v.parse(
			RouteResponseSchema,
			await (
				await post('/routing/route', {
					locations: [CASINO, PALACE],
					costing: 'pedestrian',
					directions_options: { units: 'miles' },
				})
			).json(),
		);
		expect(miles.trip.units).toBe('miles');
		expect(miles.trip.summary.length).toBeCloseTo(km.trip.summary.length / 1.609344, 2);
	});

	it('answers one leg per pair of locations', async () => {
		const response = await post('/routing/route', {
			locations: [CASINO, PALACE, CASINO],
			costing: 'pedestrian',
		});
		const body = v.parse(RouteResponseSchema, await response.json());
		expect(body.trip.legs).toHaveLength(2);
		// A stop on the way is passed through: only the last leg arrives.
		const instructions = body.trip.legs.map((leg) => leg.maneuvers.map((maneuver) => maneuver.instruction));
		expect(instructions[0].some((instruction) => instruction.startsWith('You have arrived'))).toBe(false);
		expect(instructions[1].at(-1)).toBe('You have arrived at your destination.');
	});

	it('accepts GET with ?json=', async () => {
		const json = encodeURIComponent(JSON.stringify({ locations: [CASINO, PALACE], costing: 'auto' }));
		const response = await app.request(`/routing/route?json=${json}`);
		expect(response.status).toBe(200);
		v.parse(RouteResponseSchema, await response.json());
	});

	it('refuses malformed JSON with code 100', async () => {
		await expectError(await post('/routing/route', '{"locations": ['), 100);
		await expectError(await app.request('/routing/route?json=%7Bnope'), 100);
		await expectError(await app.request('/routing/route'), 100);
	});

	it('refuses too many and too few locations', async () => {
		const many = Array.from({ length: 21 }, () => CASINO);
		await expectError(await post('/routing/route', { locations: many, costing: 'auto' }), 150);
		await expectError(await post('/routing/route', { locations: [CASINO], costing: 'auto' }), 120);
	});

	it('refuses unknown costing and bad coordinates', async () => {
		await expectError(await post('/routing/route', { locations: [CASINO, PALACE], costing: 'rocket' }), 125);
		await expectError(await post('/routing/route', { locations: [CASINO, { lat: 91, lon: 0 }] }), 130);
		await expectError(await post('/routing/route', { locations: [CASINO, { lat: 'x', lon: 0 }] }), 130);
	});

	it('says which location lies outside every loaded region', async () => {
		const body = await expectError(
			await post('/routing/route', { locations: [CASINO, { lat: 48.85, lon: 2.35 }], costing: 'auto' }),
			171,
		);
		expect(body.error).toContain('location 1');
		expect(body.error).toContain('outside every loaded map region');
	});

	it('says when a location is too far from a road', async () => {
		const body = await expectError(
			await post('/routing/route', { locations: [CASINO, { lat: 43.7685, lon: 7.41 }], costing: 'auto' }),
			171,
		);
		expect(body.error).toContain('no road usable by auto');
	});

	it('answers a zero-length route when both locations are the same', async () => {
		const response = await post('/routing/route', { locations: [CASINO, CASINO], costing: 'auto' });
		expect(response.status).toBe(200);
		const body = v.parse(RouteResponseSchema, await response.json());
		expect(body.trip.summary.length).toBe(0);
	});

	it('refuses points in two regions', async () => {
		await expectError(await post('/routing/route', { locations: [CASINO, ESCALDES], costing: 'auto' }), 170);
	});
});

describe('POST /routing/round_trip', () => {
	it('offers loops from Andorra la Vella within 10 % of the distance, each with its surfaces', async () => {
		const response = await post(
			'/routing/round_trip',
			{ location: ANDORRA_LA_VELLA, costing: 'pedestrian', distance: 4000 },
			mvpApp,
		);
		expect(response.status).toBe(200);
		const body = v.parse(RoundTripResponseSchema, await response.json());
		expect(body.trips.length).toBeGreaterThan(0);
		for (const { length, trip } of body.trips) {
			expect(Math.abs(length - 4000)).toBeLessThanOrEqual(400);
			expect(trip.breakdown?.surface.length).toBeGreaterThan(0);
		}
	});

	it('refuses a distance under 500 m or over 200 km, and a missing start', async () => {
		for (const body of [
			{ location: ANDORRA_LA_VELLA, distance: 100 },
			{ location: ANDORRA_LA_VELLA, distance: 1e9 },
			{ distance: 5000 },
		]) {
			await expectError(await post('/routing/round_trip', body, mvpApp), 110);
		}
	});

	it('is refused when no one is signed in, as when the API is mounted alone', async () => {
		const body = await expectError(
			await post('/routing/round_trip', { location: ANDORRA_LA_VELLA, distance: 4000 }),
			0,
			403,
		);
		expect(body.error).toContain('/premium/checkout');
	});
});

describe('POST /routing/locate', () => {
	it('snaps each location to the nearest usable road', async () => {
		const response = await post('/routing/locate', {
			locations: [CASINO, { lat: 10, lon: 10 }],
			costing: 'pedestrian',
		});
		expect(response.status).toBe(200);
		const body = v.parse(LocateResponseSchema, await response.json());
		expect(body[0].edges?.[0].distance).toBeLessThan(100);
		expect(body[1].edges).toBeNull();
	});
});

describe('POST /routing/height', () => {
	it('answers heights for a shape and a range profile for an encoded polyline', async () => {
		const shape = [ANDORRA_LA_VELLA, ESCALDES, { lat: 10, lon: 10 }];
		const plain = v.parse(HeightResponseSchema, await (await post('/routing/height', { shape })).json());
		expect(plain.height).toHaveLength(3);
		// Andorra la Vella sits at about 1,000–1,100 m.
		expect(plain.height?.[0]).toBeGreaterThan(950);
		expect(plain.height?.[0]).toBeLessThan(1200);
		expect(plain.height?.[2]).toBeNull();
		const encoded = polyline.encode(
			[
				[ANDORRA_LA_VELLA.lat, ANDORRA_LA_VELLA.lon],
				[ESCALDES.lat, ESCALDES.lon],
			],
			6,
		);
		const ranged = v.parse(
			HeightResponseSchema,
			await (
				await post('/routing/height', { encoded_polyline: encoded, range: true, resample_distance: 100 })
			).json(),
		);
		const profile = ranged.range_height ?? [];
		expect(profile.length).toBeGreaterThan(10);
		expect(profile[0][0]).toBe(0);
		for (let i = 1; i < profile.length; i++) expect(profile[i][0]).toBeGreaterThan(profile[i - 1][0]);
	});

	it('refuses resampling into more than 10,000 points without building them', async () => {
		const shape = [
			{ lat: 42.4, lon: 1.4 },
			{ lat: 42.7, lon: 1.8 },
		];
		await expectError(await post('/routing/height', { shape, resample_distance: 1 }), 314);
	});

	it('refuses a request without a shape', async () => {
		await expectError(await post('/routing/height', { range: true }), 310);
		await expectError(await post('/routing/height', { encoded_polyline: '!!!' }), 313);
	});
});

describe('GET /geocode/search', () => {
	it('finds cities and named features of the extracts', async () => {
		const response = await app.request('/geocode/search?q=Monaco&format=geojson&limit=5');
		expect(response.status).toBe(200);
		const body = v.parse(GeocodeResponseSchema, await response.json());
		expect(body.features.length).toBeGreaterThan(0);
		expect(body.features[0].properties.name).toBe('Monaco');
		const street = v.parse(
			GeocodeResponseSchema,
			await (await app.request('/geocode/search?q=Avinguda%20Meritxell&limit=3')).json(),
		);
		expect(street.features[0].properties.type).toBe('street');
	});

	it('answers Nominatim’s plain JSON with format=json', async () => {
		const response = await app.request('/geocode/search?q=Harrisburg&format=json&limit=2');
		const items = v.parse(GeocodeJsonResponseSchema, await response.json());
		expect(items).toHaveLength(2);
		expect(items[0]).toMatchObject({
			name: 'Harrisburg',
			display_name: 'Harrisburg, PA, US',
			class: 'place',
		});
		expect(Number(items[0].lat)).toBeCloseTo(40.27, 1);
	});

	it('refuses an empty query and bad limits', async () => {
		await expectError(await app.request('/geocode/search?q='), 100);
		await expectError(await app.request('/geocode/search?q=x&limit=0'), 100);
		await expectError(await app.request('/geocode/search?q=x&limit=abc'), 100);
	});
});

describe('GET /_api/search_for_city/', () => {
	it('answers city items from three characters on', async () => {
		const response = await app.request('/_api/search_for_city/?term=Harrisb');
		const items = v.parse(CitySearchResponseSchema, await response.json());
		expect(items[0]).toMatchObject({ label: 'Harrisburg, PA, US', locality: 'Harrisburg', isCity: true });
		expect(items[0].value).toMatch(/^40\.2\d*,-76\.8\d*$/);
		expect(await (await app.request('/_api/search_for_city/?term=Ha')).json()).toEqual([]);
	});

	it('ranks places in the visitor country first: the United States unless the geo cookie says otherwise', async () => {
		const labels = async (headers: Record<string, string>) =>
			v
				.parse(
					CitySearchResponseSchema,
					await (await app.request('/_api/search_for_city/?term=Harr', { headers })).json(),
				)
				.map((item) => item.label);
		const american = await labels({});
		expect(american.indexOf('Harrisburg, PA, US')).toBeGreaterThanOrEqual(0);
		expect(american.indexOf('Harrisburg, PA, US')).toBeLessThan(
			american.indexOf('Harrogate, United Kingdom') >>> 0,
		);
		expect((await labels({ cookie: 'ms_geo=US-PA' }))[0]).toBe('Harrisburg, PA, US');
		expect((await labels({ cookie: 'ms_geo=GB' }))[0]).toBe('Harrogate, United Kingdom');
	});

	it('offers countries and US states beside cities', async () => {
		const andorra = v.parse(
			CitySearchResponseSchema,
			await (await app.request('/_api/search_for_city/?term=Andorra')).json(),
		);
		expect(andorra[0]).toMatchObject({ label: 'Andorra', isCountry: true, isCity: false });
		expect(andorra).toContainEqual(
			expect.objectContaining({
				label: 'Andorra la Vella, Andorra',
				locality: 'Andorra la Vella',
				isCity: true,
			}),
		);
		const pennsylvania = v.parse(
			CitySearchResponseSchema,
			await (await app.request('/_api/search_for_city/?term=pennsylv')).json(),
		);
		expect(pennsylvania[0]).toMatchObject({ label: 'Pennsylvania, US', isState: true });
	});
});

describe('with ROUTING_URL', () => {
	const request = { locations: [CASINO, PALACE], costing: 'auto' };

	it('forwards to the Valhalla-compatible server', async () => {
		const calls: string[] = [];
		const proxied = createRoutingApi({
			routingUrl: 'http://valhalla.test/',
			fetch: async (url) => {
				calls.push(String(url));
				return new Response(JSON.stringify({ trip: { status: 0 } }), { status: 200 });
			},
		});
		const response = await proxied.request('/routing/route', {
			method: 'POST',
			body: JSON.stringify(request),
		});
		expect(response.status).toBe(200);
		expect(calls).toEqual(['http://valhalla.test/route']);
	});

	it('answers 503 when the server is down and 504 when it is slow', async () => {
		const down = createRoutingApi({
			routingUrl: 'http://valhalla.test',
			fetch: async () => {
				throw new TypeError('fetch failed');
			},
		});
		await expectError(
			await down.request('/routing/route', { method: 'POST', body: JSON.stringify(request) }),
			0,
			503,
		);
		const slow = createRoutingApi({
			routingUrl: 'http://valhalla.test',
			timeoutMs: 50,
			fetch: (_url, init) =>
				new Promise((_resolve, reject) => {
					init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
				}),
		});
		await expectError(
			await slow.request('/routing/height', { method: 'POST', body: '{"shape":[{"lat":1,"lon":1}]}' }),
			0,
			504,
		);
	});

	it('passes the server’s own errors through as 400', async () => {
		const refusing = createRoutingApi({
			routingUrl: 'http://valhalla.test',
			fetch: async () =>
				new Response(
					JSON.stringify({
						error_code: 442,
						error: 'No path could be found',
						status_code: 400,
						status: 'Bad Request',
					}),
					{
						status: 400,
					},
				),
		});
		await expectError(
			await refusing.request('/routing/route', { method: 'POST', body: JSON.stringify(request) }),
			442,
		);
	});
});

describe('body size', () => {
	it('refuses bodies over 1 MiB with 413', async () => {
		const huge = JSON.stringify({ locations: [CASINO, PALACE], padding: 'x'.repeat(1024 * 1024 + 10) });
		await expectError(await post('/routing/route', huge), 100, 413);
	});
});

describe('without a usable engine', () => {
	it('answers 503 with the reason when the regions failed to load', async () => {
		const failing = Promise.reject(new Error('data-regions is missing'));
		failing.catch(() => {});
		const broken = createRoutingApi({ engine: failing });
		const response = await broken.request('/routing/route', {
			method: 'POST',
			body: JSON.stringify({ locations: [CASINO, PALACE] }),
		});
		const body = await expectError(response, 0, 503);
		expect(body.error).toContain('data-regions is missing');
	});

	it('still finds cities when routing is forwarded elsewhere', async () => {
		const forwarded = createRoutingApi({ routingUrl: 'http://valhalla.test' });
		const items = v.parse(
			CitySearchResponseSchema,
			await (await forwarded.request('/_api/search_for_city/?term=Andorra')).json(),
		);
		expect(items.map((item) => item.locality)).toContain('Andorra la Vella');
	});
});
