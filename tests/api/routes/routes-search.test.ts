import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
	buildRouteSearchParams,
	decodePreviewLine,
	PREVIEW_LINE_MAX_POINTS,
} from '../../../src/lib/routes/contract';
import { callApi, createTestClock } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { addMember, createRoutesTestApp, linePayload, type Member } from './helpers';

let database: TestDatabase;
let made: ReturnType<typeof createRoutesTestApp>;
let alice: Member;
let bob: Member;
const clock = createTestClock();
const HARRISBURG = { lat: 40.2732, lng: -76.8867 };
const ANDORRA = { lat: 42.5063, lng: 1.5218 };

const api = (method: string, path: string, token?: string) => callApi(made.app, method, path, { token });
const ids = (response: Awaited<ReturnType<typeof api>>) =>
	response.json._embedded.routes.map((route: { name: string }) => route.name);

/** Named so each search has a known answer. Distances in km, climbs in metres. */
const FIXTURES = [
	{ name: 'River walk', km: 3, climb: 10, at: HARRISBURG, type: 9 },
	{ name: 'River run', km: 8, climb: 40, at: HARRISBURG, type: 16 },
	{ name: 'Capitol loop', km: 5, climb: 25, at: { lat: 40.2644, lng: -76.8835 }, type: 16 },
	{ name: 'Long ride', km: 60, climb: 600, at: { lat: 40.33, lng: -76.95 }, type: 11 },
	{ name: 'Far river ride', km: 40, climb: 300, at: { lat: 40.8, lng: -77.5 }, type: 11 },
	{ name: 'Pyrenees climb', km: 12, climb: 900, at: ANDORRA, type: 16 },
];

beforeAll(async () => {
	database = await openTestDb();
	made = createRoutesTestApp(database);
	made.deps.clock = clock;
	alice = await addMember(made.deps, 'alice');
	bob = await addMember(made.deps, 'bob');
	for (const fixture of FIXTURES) {
		clock.advance(60);
		const response = await callApi(made.app, 'POST', '/api/v7.1/route/', {
			token: alice.token,
			body: linePayload(fixture.name, {
				...fixture.at,
				km: fixture.km,
				climb: fixture.climb,
				activity_type: fixture.type,
			}),
		});
		expect(response.status).toBe(201);
	}
	// Alice's private route and Bob's 45 public ones for paging.
	await callApi(made.app, 'POST', '/api/v7.1/route/', {
		token: alice.token,
		body: linePayload('River secret', { privacy: 0 }),
	});
	for (let i = 0; i < 45; i++) {
		clock.advance(1);
		await callApi(made.app, 'POST', '/api/v7.1/route/', {
			token: bob.token,
			body: linePayload(`Bob ${String(i).padStart(2, '0')}`, { lat: 10, lng: 10, km: 1 + i / 10, climb: i }),
		});
	}
});
afterAll(() => database.close());

describe('route search', () => {
	test('pages by 20, newest first, with next and prev links that walk the whole list', async () => {
		const first = await api('GET', `/api/v7.1/route/?user=${bob.id}`);
		expect(first.json.total_count).toBe(45);
		expect(ids(first)).toHaveLength(20);
		expect(ids(first)[0]).toBe('Bob 44');
		expect(first.json._links.prev).toBeUndefined();
		const seen: string[] = [...ids(first)];
		let page = first;
		while (page.json._links.next) {
			const href: string = page.json._links.next[0].href;
			expect(href).toMatch(/^\/v7\.1\/route\/\?/);
			expect(href).toContain(`user=${bob.id}`);
			page = await api('GET', `/api${href}`);
			seen.push(...ids(page));
		}
		expect(seen).toHaveLength(45);
		expect(new Set(seen).size).toBe(45);
		expect(seen.at(-1)).toBe('Bob 00');
		expect(page.json._links.prev[0].href).toContain('offset=20');
		const custom = await api('GET', `/api/v7.1/route/?user=${bob.id}&limit=7&offset=40`);
		expect(ids(custom)).toHaveLength(5);
		expect(custom.json._links.next).toBeUndefined();
		expect(custom.json._links.prev[0].href).toContain('offset=33');
	});

	test('sorts six ways', async () => {
		const base = `/api/v7.1/route/?user=${alice.id}&close_to_location=40.27,-76.88&search_radius=200000`;
		const order = async (orderBy: string) => ids(await api('GET', `${base}&order_by=${orderBy}`));
		expect(await order('-date_created')).toEqual([
			'Far river ride',
			'Long ride',
			'Capitol loop',
			'River run',
			'River walk',
		]);
		expect(await order('date_created')).toEqual([
			'River walk',
			'River run',
			'Capitol loop',
			'Long ride',
			'Far river ride',
		]);
		expect(await order('-distance')).toEqual([
			'Long ride',
			'Far river ride',
			'River run',
			'Capitol loop',
			'River walk',
		]);
		expect(await order('distance')).toEqual([
			'River walk',
			'Capitol loop',
			'River run',
			'Far river ride',
			'Long ride',
		]);
		expect(await order('-total_ascent')).toEqual([
			'Long ride',
			'Far river ride',
			'River run',
			'Capitol loop',
			'River walk',
		]);
		expect(await order('total_ascent')).toEqual([
			'River walk',
			'Capitol loop',
			'River run',
			'Far river ride',
			'Long ride',
		]);
		expect((await api('GET', `${base}&order_by=name`)).status).toBe(400);
	});

	test('filters by place and radius with exact great-circle distance, not just the box', async () => {
		const near = await api('GET', '/api/v7.1/route/?close_to_location=40.2732,-76.8867&search_radius=2000');
		expect(ids(near).sort()).toEqual(['Capitol loop', 'River run', 'River walk']);
		// 1 km east of the start the corner of the box still holds the start, the circle does not.
		const corner = await api('GET', '/api/v7.1/route/?close_to_location=40.2795,-76.8793&search_radius=900');
		expect(ids(corner)).toEqual([]);
		const andorra = await api(
			'GET',
			`/api/v7.1/route/?close_to_location=${ANDORRA.lat},${ANDORRA.lng}&search_radius=1000`,
		);
		expect(ids(andorra)).toEqual(['Pyrenees climb']);
	});

	test('filters by distance in metres from the member’s unit at 1609.34 m a mile, and by activity type', async () => {
		const params = buildRouteSearchParams({
			unit: 'mi',
			distanceMinimum: 3,
			distanceMaximum: 10,
			location: '40.27,-76.88',
			radius: 100,
		});
		expect(params.get('minimum_distance')).toBe('4828.02');
		expect(params.get('maximum_distance')).toBe('16093.4');
		expect(params.get('search_radius')).toBe('160934');
		const miles = await api('GET', `/api/v7.1/route/?${params}`);
		expect(ids(miles).sort()).toEqual(['Capitol loop', 'River run']);
		const rides = await api('GET', '/api/v7.1/route/?activity_type=11&order_by=distance');
		expect(ids(rides)).toEqual(['Far river ride', 'Long ride']);
		// The 'at least' maximum means no upper bound.
		const atLeast = await api('GET', '/api/v7.1/route/?minimum_distance=50000&maximum_distance=3218688');
		expect(ids(atLeast)).toEqual(['Long ride']);
	});

	test('matches the name on its first word only, and never shows others’ private routes', async () => {
		const river = await api('GET', '/api/v7.1/route/?text_search=river%20walk&order_by=date_created');
		expect(ids(river)).toEqual(['River walk', 'River run', 'Far river ride']);
		const asAlice = await api('GET', '/api/v7.1/route/?text_search=river&order_by=date_created', alice.token);
		expect(ids(asAlice)).toContain('River secret');
		const asBob = await api('GET', '/api/v7.1/route/?text_search=river', bob.token);
		expect(ids(asBob)).not.toContain('River secret');
		expect(asBob.json.total_count).toBe(3);
		const wildcard = await api('GET', '/api/v7.1/route/?text_search=%25');
		expect(wildcard.json.total_count).toBe(0);
	});

	test('my-routes text search pages by 40 ordered by match', async () => {
		const mine = await api('GET', `/api/v7.1/route/?user=${alice.id}&text_search=river`, alice.token);
		expect(mine.json._links.self[0].href).toContain('limit=40');
		// Names starting with the word come before names only containing it; newest first within.
		expect(ids(mine)).toEqual(['River secret', 'River run', 'River walk', 'Far river ride']);
		const bobs = await api('GET', `/api/v7.1/route/?user=${bob.id}&text_search=bob`, bob.token);
		expect(ids(bobs)).toHaveLength(40);
		expect(bobs.json.total_count).toBe(45);
	});
});

describe('a search result item', () => {
	test('carries the activity, the start and a small simplified line of the route', async () => {
		const near = `${HARRISBURG.lat},${HARRISBURG.lng}`;
		const found = await api(
			'GET',
			`/api/v7.1/route/?close_to_location=${near}&search_radius=2000&order_by=distance`,
		);
		const walk = found.json._embedded.routes.find((route: { name: string }) => route.name === 'River walk');
		expect(walk).toMatchObject({
			activity_type: 9,
			starting_location: { type: 'Point', coordinates: [HARRISBURG.lng, HARRISBURG.lat] },
		});
		const line = decodePreviewLine(walk.preview_line);
		// A straight line north keeps just its two ends, at the route's own start and finish.
		expect(line).toHaveLength(2);
		expect(line[0][0]).toBeCloseTo(HARRISBURG.lat, 5);
		expect(line[0][1]).toBeCloseTo(HARRISBURG.lng, 5);
		expect(line[1][0]).toBeCloseTo(HARRISBURG.lat + 3 / 111.195, 4);
	});

	test("keeps a long winding route's preview line to a few dozen points", async () => {
		clock.advance(60);
		const points = Array.from({ length: 5000 }, (_, i) => ({
			lat: 41 + i * 0.00005,
			lng: -77 + 0.003 * Math.sin(i / 300),
			order: i,
			travel_mode: 'WALKING',
		}));
		const created = await callApi(made.app, 'POST', '/api/v7.1/route/', {
			token: alice.token,
			body: { name: 'Winding trail', privacy: 3, activity_type: 24, points },
		});
		expect(created.status).toBe(201);
		const found = await api('GET', '/api/v7.1/route/?close_to_location=41,-77&search_radius=1000');
		const [trail] = found.json._embedded.routes;
		expect(trail).toMatchObject({ name: 'Winding trail', activity_type: 24 });
		const line = decodePreviewLine(trail.preview_line);
		expect(line.length).toBeGreaterThan(10);
		expect(line.length).toBeLessThanOrEqual(PREVIEW_LINE_MAX_POINTS);
		expect(trail.preview_line.length).toBeLessThan(400);
		expect(line[0]).toEqual([41, -77]);
		// The whole item stays small though the route has 5,000 points.
		expect(JSON.stringify(trail).length).toBeLessThan(1500);
	});
});
