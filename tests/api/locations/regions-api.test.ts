import * as v from 'valibot';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { users } from '../../../src/lib/auth/server/tables';
import { createLocationsApi } from '../../../src/lib/locations/server/api';
import { RouteSaveSchema } from '../../../src/lib/routes/contract';
import { createRoute } from '../../../src/lib/routes/server/saving';
import { callApi, createTestApi, createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';

let database: TestDatabase;
let deps: ReturnType<typeof createTestDeps>;
let app: ReturnType<typeof createTestApi>;

/** GeoNames ids of the cities the assertions use. */
const HARRISBURG_PA = 5192726;

beforeAll(async () => {
	database = await openTestDb();
	deps = createTestDeps(database.db);
	app = createTestApi(deps, { routes: [createLocationsApi()] });
});
afterAll(() => database.close());
beforeEach(() => database.reset());

async function addMember(username: string): Promise<{ id: number }> {
	const [row] = await deps.db
		.insert(users)
		.values({ username, email: `${username}@example.test`, passwordHash: 'x', displayName: `${username} D.` })
		.returning({ id: users.id });
	return { id: row.id };
}

/** A 3 km line north from (lat, lng). */
async function addRoute(
	owner: { id: number },
	name: string,
	lat: number,
	lng: number,
	privacy: 0 | 1 | 3 | 6,
) {
	const input = v.parse(RouteSaveSchema, {
		name,
		privacy,
		points: Array.from({ length: 4 }, (_, i) => ({
			lat: lat + i * 0.009,
			lng,
			order: i,
			travel_mode: 'WALKING',
		})),
	});
	return createRoute(deps, owner, input);
}

describe('GET /api/internal/regions/states', () => {
	test('lists the US states A–Z with their paths and the most populous cities', async () => {
		const response = await callApi(app, 'GET', '/api/internal/regions/states?country_code=US');
		expect(response.status).toBe(200);
		const { states, popularCities, region, country_name } = response.json;
		expect(country_name).toBe('United States');
		expect(region).toBe('US');
		expect(states).toHaveLength(51);
		expect(states.map((s: { name: string }) => s.name)).toEqual(
			[...states.map((s: { name: string }) => s.name)].sort((a, b) => a.localeCompare(b, 'en')),
		);
		expect(states).toContainEqual(
			expect.objectContaining({
				name: 'Pennsylvania',
				short_name: 'pa',
				path: '/us/pa/',
				country_code: 'us',
			}),
		);
		expect(popularCities[0]).toMatchObject({ name: 'New York City', state_short_name: 'ny' });
		const populations = popularCities.map((c: { population: number }) => c.population);
		expect(populations).toEqual([...populations].sort((a, b) => b - a));
	});

	test('defaults to the US, answers with and without the trailing slash, and is cacheable', async () => {
		const bare = await callApi(app, 'GET', '/api/internal/regions/states');
		const slashed = await callApi(app, 'GET', '/api/internal/regions/states/');
		expect(bare.json.country_code).toBe('us');
		expect(slashed.json).toEqual(bare.json);
		expect(bare.headers.get('cache-control')).toContain('max-age');
	});

	test('maps a served European country to its data region', async () => {
		const response = await callApi(app, 'GET', '/api/internal/regions/states?country_code=de');
		expect(response.json.region).toBe('EU1');
		expect(response.json.states.map((s: { short_name: string }) => s.short_name)).toContain('by');
	});

	test.each(['xx', 'gb', '', 'us;drop', 'u'.repeat(500)])(
		'refuses country_code %j with 400',
		async (code) => {
			const response = await callApi(
				app,
				'GET',
				`/api/internal/regions/states?country_code=${encodeURIComponent(code)}`,
			);
			expect(response.status).toBe(400);
			expect(response.json._diagnostics.validation_failures[0]).toHaveProperty('country_code');
		},
	);
});

describe('GET /api/internal/regions/cities', () => {
	test('lists a state’s cities most populous first with the popular cut-off', async () => {
		const response = await callApi(app, 'GET', '/api/internal/regions/cities?country_code=us&state_code=PA');
		expect(response.status).toBe(200);
		const body = response.json;
		expect(body.stateName).toBe('Pennsylvania');
		expect(body.stateShortName).toBe('pa');
		expect(body.popularCityCutOff).toBe(12);
		expect(body.cities[0].name).toBe('Philadelphia');
		expect(body.total_count).toBe(body.cities.length);
		const harrisburg = body.cities.find((c: { geoname_id: number }) => c.geoname_id === HARRISBURG_PA);
		expect(harrisburg).toMatchObject({ name: 'Harrisburg', slug: 'harrisburg', path: '/us/pa/harrisburg/' });
		// No other state's Harrisburg (Arkansas, Illinois…) leaks in.
		expect(body.cities.every((c: { state_short_name: string }) => c.state_short_name === 'pa')).toBe(true);
	});

	test('answers 404 for a state the country does not have and 400 without state_code', async () => {
		expect(
			(await callApi(app, 'GET', '/api/internal/regions/cities?country_code=us&state_code=zz')).status,
		).toBe(404);
		const missing = await callApi(app, 'GET', '/api/internal/regions/cities?country_code=us');
		expect(missing.status).toBe(400);
		expect(missing.json._diagnostics.validation_failures[0]).toHaveProperty('state_code');
	});
});

describe('GET /api/internal/regions/city', () => {
	test('gives city info by slug: state short name, geoname id and nearby cities', async () => {
		const response = await callApi(app, 'GET', '/api/internal/regions/city?city_slug=us/pa/harrisburg');
		expect(response.status).toBe(200);
		expect(response.json).toMatchObject({
			name: 'Harrisburg',
			state_short_name: 'pa',
			state_name: 'Pennsylvania',
			geoname_id: HARRISBURG_PA,
			city_slug: 'us/pa/harrisburg',
			region: 'US',
		});
		expect(response.json.nearby.length).toBeGreaterThan(0);
		expect(response.json.nearby.map((c: { name: string }) => c.name)).not.toContain('Harrisburg');
	});

	test.each([
		['us/pa/atlantis', 404],
		['us/zz/harrisburg', 404],
		['xx/pa/harrisburg', 404],
		['harrisburg', 400],
		['us/pa/../../etc', 400],
	])('answers %s with %i', async (slug, status) => {
		const response = await callApi(
			app,
			'GET',
			`/api/internal/regions/city?city_slug=${encodeURIComponent(slug)}`,
		);
		expect(response.status).toBe(status);
	});
});

describe('GET /api/internal/regions/city/routes/{id}', () => {
	test('lists public routes near the city only, paged with links', async () => {
		const alice = await addMember('alice');
		await addRoute(alice, 'Riverfront loop', 40.2637, -76.8839, 3);
		await addRoute(alice, 'City Island', 40.255, -76.89, 3);
		await addRoute(alice, 'Capitol hill', 40.27, -76.88, 3);
		await addRoute(alice, 'Secret path', 40.26, -76.88, 0);
		await addRoute(alice, 'Friends path', 40.26, -76.88, 1);
		await addRoute(alice, 'Link-only path', 40.26, -76.88, 6);
		await addRoute(alice, 'Philadelphia run', 39.95, -75.16, 3);

		const first = await callApi(app, 'GET', `/api/internal/regions/city/routes/${HARRISBURG_PA}/?limit=2`);
		expect(first.status).toBe(200);
		expect(first.json.total_count).toBe(3);
		expect(first.json.routes).toHaveLength(2);
		expect(first.json.routes[0]).toMatchObject({
			owner: 'alice D.',
			path: expect.stringMatching(/^\/routes\/view\/\d+$/),
		});
		expect(first.json.routes[0].created).toMatch(/\+00:00$/);
		// The line, thinned, for the city map: the first point is the start.
		expect(first.json.routes[0].shape.length).toBe(4);
		expect(first.json.routes[0].shape[0]).toEqual([
			first.json.routes[0].start.lat,
			first.json.routes[0].start.lng,
		]);
		expect(first.json._links.next[0].href).toBe(
			`/api/internal/regions/city/routes/${HARRISBURG_PA}/?limit=2&offset=2`,
		);
		expect(first.json._links.prev).toBeUndefined();

		const second = await callApi(app, 'GET', first.json._links.next[0].href);
		expect(second.json.routes).toHaveLength(1);
		expect(second.json._links.next).toBeUndefined();
		const names = [...first.json.routes, ...second.json.routes].map((r: { name: string }) => r.name).sort();
		expect(names).toEqual(['Capitol hill', 'City Island', 'Riverfront loop']);
	});

	test('answers an empty page for a city without routes and 404 for an unknown id', async () => {
		const empty = await callApi(app, 'GET', `/api/internal/regions/city/routes/${HARRISBURG_PA}`);
		expect(empty.status).toBe(200);
		expect(empty.json).toMatchObject({ total_count: 0, routes: [], limit: 20, offset: 0 });
		expect((await callApi(app, 'GET', '/api/internal/regions/city/routes/1/')).status).toBe(404);
	});

	test.each(['limit=0', 'limit=51', 'offset=-1', 'offset=abc', 'limit=1e3'])(
		'refuses %s with 400',
		async (query) => {
			const response = await callApi(
				app,
				'GET',
				`/api/internal/regions/city/routes/${HARRISBURG_PA}/?${query}`,
			);
			expect(response.status).toBe(400);
		},
	);

	test('refuses an id that is not a number', async () => {
		expect((await callApi(app, 'GET', '/api/internal/regions/city/routes/abc/')).status).toBe(400);
	});
});

describe('GET /api/internal/regions/locate', () => {
	test('leads a city suggestion to its page, preferring the city of that name', async () => {
		const response = await callApi(
			app,
			'GET',
			'/api/internal/regions/locate?location=40.2737,-76.8844&kind=city&name=Harrisburg',
		);
		expect(response.json).toEqual({ kind: 'city', name: 'Harrisburg', path: '/us/pa/harrisburg/' });
	});

	test('leads a state suggestion to the state page and a country to the country page', async () => {
		const state = await callApi(
			app,
			'GET',
			'/api/internal/regions/locate?location=40.99,-77.6&kind=state&name=Pennsylvania',
		);
		expect(state.json.path).toBe('/us/pa/');
		const country = await callApi(
			app,
			'GET',
			'/api/internal/regions/locate?location=51.5,10.4&kind=country&name=Germany',
		);
		expect(country.json.path).toBe('/de/');
	});

	test('answers 404 far from any served city and 400 for a malformed location', async () => {
		expect((await callApi(app, 'GET', '/api/internal/regions/locate?location=0,0')).status).toBe(404);
		expect((await callApi(app, 'GET', '/api/internal/regions/locate?location=91,0')).status).toBe(400);
		expect((await callApi(app, 'GET', '/api/internal/regions/locate?location=north')).status).toBe(400);
	});
});

test('the regions endpoints are in the OpenAPI description', async () => {
	const spec = await callApi(app, 'GET', '/api/openapi.json');
	expect(Object.keys(spec.json.paths)).toEqual(
		expect.arrayContaining([
			'/api/internal/regions/states/',
			'/api/internal/regions/cities/',
			'/api/internal/regions/city/',
			'/api/internal/regions/city/routes/{id}/',
		]),
	);
});
