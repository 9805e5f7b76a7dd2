import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { loadApiModules } from '../../../src/lib/api/modules';
import { readConfig } from '../../../src/lib/core/config';
import { createRoutesApi } from '../../../src/lib/routes/server/api';
import type { RoutingEngine } from '../../../src/lib/routing/engine';
import { createHeightLookup } from '../../../src/lib/routing/server/heights';
import { loadEngine } from '../../../src/lib/routing/server/regions';
import { callApi, createTestApi, createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { REGIONS_DIR, TEST_CACHE_DIR } from '../../unit/routing/region-cache';
import { addMember, linePayload, type Member } from './helpers';

let database: TestDatabase;
let engine: RoutingEngine;
let app: ReturnType<typeof createTestApi>;
let deps: ReturnType<typeof createTestDeps>;
let alice: Member;

beforeAll(async () => {
	database = await openTestDb();
	// Andorra's extract and the bundled N42E001 tile: heights in Andorra, none in Harrisburg.
	engine = await loadEngine({ regionsDir: REGIONS_DIR, cacheDir: TEST_CACHE_DIR, only: ['andorra.osm.pbf'] });
	deps = createTestDeps(database.db);
	app = createTestApi(deps, { routes: [createRoutesApi({ heights: createHeightLookup({ engine }) })] });
});
beforeEach(async () => {
	await database.reset();
	alice = await addMember(deps, 'alice');
});
afterAll(() => database.close());

type SentPoint = { lat: number; lng: number; order: number; travel_mode: string; ele?: number | null };
type SavedPoint = { lat: number; lng: number; ele: number | null };

/** Andorra la Vella up towards Escaldes, `count` points, with no heights unless `ele` gives them. */
function andorraPoints(count = 11, ele?: number): SentPoint[] {
	return Array.from({ length: count }, (_, i) => ({
		lat: 42.5063 + (0.0034 * i) / (count - 1),
		lng: 1.5218 + (0.0167 * i) / (count - 1),
		order: i,
		travel_mode: 'WALKING',
		...(ele === undefined ? {} : { ele }),
	}));
}

/** What the routing engine's own height service says for the points (what /routing/height answers). */
const engineHeights = (points: readonly SentPoint[]) =>
	engine.height({ shape: points.map((point) => ({ lat: point.lat, lon: point.lng })) }).height ?? [];

const save = (points: SentPoint[], name = 'Up to Escaldes') =>
	callApi(app, 'POST', '/api/v7.1/route/', { token: alice.token, body: { name, privacy: 0, points } });

const pointsOf = async (id: number): Promise<SavedPoint[]> =>
	(
		await callApi(app, 'GET', `/api/v7.1/route/${id}/?field_set=detailed_internal`, {
			token: alice.token,
		})
	).json.points;

describe('a saved route’s heights come from the server’s elevation data', () => {
	test('a route saved without heights gets each point’s height, and its climb, from the elevation tiles', async () => {
		const points = andorraPoints();
		const created = await save(points);
		expect(created.status).toBe(201);
		const expected = engineHeights(points);
		// Andorra la Vella lies at about 1,000–1,100 m: real heights, not zeros.
		for (const height of expected) expect(height).toBeGreaterThan(900);
		expect((await pointsOf(created.json.id)).map((point) => point.ele)).toEqual(expected);
		expect(created.json.total_ascent).toBeGreaterThan(0);
		expect(created.json.min_elevation).toBeCloseTo(Math.min(...(expected as number[])), 0);
		expect(created.json.max_elevation).toBeCloseTo(Math.max(...(expected as number[])), 0);
	});

	test('heights the sender made up are replaced by the server’s', async () => {
		const created = await save(andorraPoints(11, 5));
		expect(created.status).toBe(201);
		const saved = await pointsOf(created.json.id);
		expect(saved.map((point) => point.ele)).toEqual(engineHeights(andorraPoints()));
		expect(created.json.min_elevation).toBeGreaterThan(900);
	});

	test('an update is measured again: new points get the server’s heights, not the sender’s', async () => {
		const created = await save(linePayload('Harrisburg first').points);
		const moved = andorraPoints(6, 1);
		const updated = await callApi(app, 'PUT', `/api/v7.1/route/${created.json.id}/`, {
			token: alice.token,
			body: { name: 'Moved to Andorra', points: moved, version: created.json.version },
		});
		expect(updated.status).toBe(200);
		expect((await pointsOf(created.json.id)).map((point) => point.ele)).toEqual(engineHeights(moved));
		expect(updated.json.total_ascent).toBeGreaterThan(0);
	});
});

describe('where the server has no elevation data, none is invented', () => {
	test('a route outside every elevation tile, saved without heights, has none', async () => {
		const { points } = linePayload('Front Street', { points: 6 });
		const bare = points.map(({ ele: _ele, ...point }) => point);
		const created = await save(bare);
		expect(created.status).toBe(201);
		expect((await pointsOf(created.json.id)).every((point) => point.ele === null)).toBe(true);
		expect(created.json.total_ascent).toBeNull();
		expect(created.json.min_elevation).toBeNull();
		expect(created.json.max_elevation).toBeNull();
	});

	test('outside every tile, the heights the sender recorded (a device’s) stand', async () => {
		const created = await save(linePayload('Front Street', { climb: 30 }).points);
		expect(created.status).toBe(201);
		expect(created.json.total_ascent).toBe(30);
		expect((await pointsOf(created.json.id))[0].ele).toBe(100);
	});

	test('a route leaving the tiles has the server’s heights inside and none beyond, not the sender’s', async () => {
		// From the N42E001 tile east into N42E002, which the server does not have.
		const points: SentPoint[] = Array.from({ length: 9 }, (_, i) => ({
			lat: 42.45,
			lng: 1.98 + i * 0.005,
			order: i,
			travel_mode: 'WALKING',
			ele: 3000,
		}));
		const created = await save(points, 'Over the tile edge');
		expect(created.status).toBe(201);
		const saved = await pointsOf(created.json.id);
		for (const [i, point] of saved.entries()) {
			if (points[i].lng < 2) expect(point.ele).toBeGreaterThan(900);
			else if (points[i].lng > 2) expect(point.ele).toBeNull();
		}
		expect(saved.map((point) => point.ele)).toEqual(engineHeights(points));
		expect(created.json.max_elevation).toBeLessThan(3000);
	});
});

describe('as the house mounts the routes API', () => {
	test('a route saved in a bundled region is measured with the bundled elevation tiles', async () => {
		const dataDir = mkdtempSync(join(tmpdir(), 'mapstride-route-heights-'));
		// The bundled regions' graphs come from the cache the routing tests build once.
		mkdirSync(TEST_CACHE_DIR, { recursive: true });
		symlinkSync(TEST_CACHE_DIR, join(dataDir, 'routing-cache'));
		const house = createTestDeps(database.db, {
			config: readConfig({ NODE_ENV: 'test', PUBLIC_URL: 'http://localhost:4321', DATA_DIR: dataDir }),
		});
		const modules = await loadApiModules(house);
		try {
			const houseApp = createTestApi(house, modules);
			const points = andorraPoints();
			const created = await callApi(houseApp, 'POST', '/api/v7.1/route/', {
				token: alice.token,
				body: { name: 'Up to Escaldes', privacy: 0, points },
			});
			expect(created.status).toBe(201);
			const saved = await callApi(
				houseApp,
				'GET',
				`/api/v7.1/route/${created.json.id}/?field_set=detailed_internal`,
				{
					token: alice.token,
				},
			);
			expect(saved.json.points.map((point: SavedPoint) => point.ele)).toEqual(engineHeights(points));
		} finally {
			await modules.close();
			rmSync(dataDir, { recursive: true, force: true });
		}
	});
});
