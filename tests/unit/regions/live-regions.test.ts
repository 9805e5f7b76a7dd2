import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadApiModules } from '../../../src/lib/api/modules';
import { readConfig } from '../../../src/lib/core/config';
import { addRegion, removeRegion } from '../../../src/lib/regions/server/manage';
import { lonLatToTile } from '../../../src/lib/tiles/tile-math';
import { callApi, createTestApi, createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { TEST_CACHE_DIR } from '../routing/region-cache';

/**
 * A running server picks up a region added with `npm run regions -- add` and drops a removed one,
 * without a restart: routes, place search and the base map's regions follow within seconds.
 */

const ROME = join(import.meta.dirname, '../../fixtures/regions/rome.osm.pbf');
const IN_ROME = [
	{ lat: 41.8955, lon: 12.4812 },
	{ lat: 41.8998, lon: 12.4852 },
];

let database: TestDatabase;
let dataDir: string;
let modules: Awaited<ReturnType<typeof loadApiModules>>;
let app: ReturnType<typeof createTestApi>;

beforeAll(async () => {
	database = await openTestDb();
	dataDir = mkdtempSync(join(tmpdir(), 'mapstride-live-regions-'));
	// The bundled regions' graphs come from the cache the routing tests build once.
	mkdirSync(TEST_CACHE_DIR, { recursive: true });
	symlinkSync(TEST_CACHE_DIR, join(dataDir, 'routing-cache'));
	const deps = createTestDeps(database.db, {
		config: readConfig({
			NODE_ENV: 'test',
			PUBLIC_URL: 'http://localhost:4321',
			DATA_DIR: dataDir,
			API_RATE_LIMIT: '0',
		}),
	});
	modules = await loadApiModules(deps);
	app = createTestApi(deps, modules);
}, 120_000);

afterAll(async () => {
	await modules?.close();
	await database?.close();
	rmSync(dataDir, { recursive: true, force: true });
});

const routeInRome = () =>
	callApi(app, 'POST', '/api/routing/route', { body: { locations: IN_ROME, costing: 'bicycle' } });
const tileRegions = async () =>
	(
		(await (await modules.tiles.fetch(new Request('http://localhost/tiles/regions.json'))).json()) as {
			regions: { name: string }[];
		}
	).regions.map((region) => region.name);

describe('regions added and removed while the server runs', () => {
	it('serves an added region within seconds, and stops serving it once removed', async () => {
		const before = await routeInRome();
		expect(before.status).toBe(400);
		expect(before.json.error_code).toBe(171);
		expect(await tileRegions()).toEqual(['andorra', 'harrisburg', 'monaco']);

		await addRegion({ source: ROME, dataDir });
		await expect.poll(async () => (await routeInRome()).status, { timeout: 30_000, interval: 250 }).toBe(200);
		const route = await routeInRome();
		expect(route.json.trip.summary.length).toBeGreaterThan(0.3);
		const places = await callApi(
			app,
			'GET',
			'/api/geocode/search?q=Via%20del%20Corso&format=geojson&limit=3',
		);
		expect(
			places.json.features.map((feature: { properties: { name: string } }) => feature.properties.name),
		).toContain('Via del Corso');
		await expect
			.poll(tileRegions, { timeout: 30_000, interval: 250 })
			.toEqual(['andorra', 'harrisburg', 'monaco', 'rome']);
		const { x, y } = lonLatToTile(12.4825, 41.8959, 16);
		const tile = await modules.tiles.fetch(
			new Request(`http://localhost/tiles/16/${Math.floor(x)}/${Math.floor(y)}.pbf`),
		);
		expect(Buffer.from(await tile.arrayBuffer()).toString('latin1')).toContain('Via del Corso');
		// The bundled regions still route while and after the new one loads.
		const andorra = await callApi(app, 'POST', '/api/routing/route', {
			body: {
				locations: [
					{ lat: 42.5078, lon: 1.5211 },
					{ lat: 42.5101, lon: 1.5387 },
				],
				costing: 'pedestrian',
			},
		});
		expect(andorra.status).toBe(200);

		await removeRegion(dataDir, 'rome');
		await expect
			.poll(async () => (await routeInRome()).json.error_code, { timeout: 30_000, interval: 250 })
			.toBe(171);
		await expect
			.poll(tileRegions, { timeout: 30_000, interval: 250 })
			.toEqual(['andorra', 'harrisburg', 'monaco']);
	}, 120_000);
});
