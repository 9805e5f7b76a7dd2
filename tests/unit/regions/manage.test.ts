import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRegions, suggestRegionName } from '../../../src/lib/regions/server/catalogue.ts';
import {
	type AddProgress,
	addRegion,
	detectExtractFormat,
	RegionError,
	removeRegion,
} from '../../../src/lib/regions/server/manage.ts';
import { loadEngine } from '../../../src/lib/routing/server/regions.ts';
import { loadTileService } from '../../../src/lib/tiles/server/service.ts';
import { lonLatToTile } from '../../../src/lib/tiles/tile-math.ts';

/**
 * `npm run regions`: an extract no demo uses (a few streets of Rome) added from a file and from a URL
 * served on this machine, with heights from a local elevation source; every kind of bad input refused
 * with its reason and nothing left behind; a replacement that swaps in whole; and removal.
 */

const ROME = join(import.meta.dirname, '../../fixtures/regions/rome.osm.pbf');
const romeBytes = readFileSync(ROME);
const andorraTile = Object.values(
	unzipSync(readFileSync('data-regions/N42E001.hgt.zip'), { filter: (file) => file.name.endsWith('.hgt') }),
)[0];
const IN_ROME = [
	{ lat: 41.8955, lon: 12.4812 },
	{ lat: 41.8998, lon: 12.4852 },
];

const served: Record<string, { status?: number; body: Uint8Array; headers?: Record<string, string> }> = {
	'/extracts/rome-latest.osm.pbf': { body: romeBytes },
	'/extracts/download-page.osm.pbf': {
		body: Buffer.from('<!DOCTYPE html><html><head><title>Download</title></head><body>Rome</body></html>'),
	},
	// Says it is longer than what it sends, as a connection cut mid-download does.
	'/extracts/cut-short.osm.pbf': { body: romeBytes.subarray(0, 20_000) },
	// Rome lies in N41E012; a test source may serve the bundled Andorra tile under that name.
	'/skadi/N41/N41E012.hgt.gz': { body: gzipSync(andorraTile) },
	'/broken-skadi/N41/N41E012.hgt.gz': { body: gzipSync(andorraTile.subarray(0, 5000)) },
};
let server: Server;
let base: string;
/** A port nothing listens on: connections to it are refused. */
let closedPort: number;
const folders: string[] = [];

function dataFolder(): string {
	const folder = mkdtempSync(join(tmpdir(), 'mapstride-regions-'));
	folders.push(folder);
	return folder;
}

/** Every file under a folder, so a failed command can be shown to have left nothing. */
function listFiles(dir: string, prefix = ''): string[] {
	if (!existsSync(dir)) return [];
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory()
			? listFiles(join(dir, entry.name), `${prefix}${entry.name}/`)
			: [`${prefix}${entry.name}`],
	);
}

beforeAll(async () => {
	server = createServer((request, response) => {
		const path = request.url ?? '';
		const item = served[path];
		if (!item) {
			response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
			return;
		}
		if (path.includes('cut-short')) {
			// Declares the whole file, sends part of it, and hangs up.
			response.writeHead(200, { 'content-length': String(romeBytes.length) });
			response.write(item.body);
			setTimeout(() => response.socket?.destroy(), 50);
			return;
		}
		response.writeHead(item.status ?? 200, { 'content-length': String(item.body.length) }).end(item.body);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	const probe = createServer();
	await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
	closedPort = (probe.address() as AddressInfo).port;
	await new Promise((resolve) => probe.close(resolve));
});

afterAll(async () => {
	await new Promise((resolve) => server.close(resolve));
	for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

describe('adding a region', () => {
	it('adds an extract from a file: routing, place search and the base map all have it', async () => {
		const dataDir = dataFolder();
		const stages: AddProgress['stage'][] = [];
		const manifest = await addRegion({
			source: ROME,
			dataDir,
			onProgress: (progress) => {
				if (stages.at(-1) !== progress.stage) stages.push(progress.stage);
			},
		});
		expect(manifest).toMatchObject({
			name: 'rome',
			format: 'osm.pbf',
			bytes: romeBytes.length,
			heights: null,
		});
		expect(manifest.roadNodes).toBe(185);
		expect(manifest.nodes).toBeGreaterThan(1000);
		expect(stages).toEqual(['copy', 'read', 'build', 'map', 'install']);
		expect(listRegions(dataDir).map((region) => [region.name, region.bundled])).toEqual([
			['andorra', true],
			['harrisburg', true],
			['monaco', true],
			['rome', false],
		]);

		const engine = await loadEngine({
			regionsDir: [join(dataDir, 'regions')],
			cacheDir: join(dataDir, 'routing-cache'),
			warmRoutes: 0,
		});
		const route = engine.route({ locations: IN_ROME, costing: 'pedestrian' });
		expect(route.trip.summary.length).toBeGreaterThan(0.3);
		const streets = route.trip.legs[0].maneuvers.flatMap((maneuver) => maneuver.street_names ?? []);
		expect(streets).toContain('Piazza Venezia');
		const found = engine.searchGeocode('Via del Corso', 5);
		expect(found.features.map((feature) => feature.properties.name)).toContain('Via del Corso');

		const tiles = await loadTileService({
			regionsDir: [join(dataDir, 'regions')],
			cacheDir: join(dataDir, 'tile-cache'),
			world: false,
		});
		expect(tiles.listRegions().map((region) => region.name)).toEqual(['rome']);
		// The zoom 16 tile over Piazza Venezia: the streets are there.
		const { x, y } = lonLatToTile(12.4825, 41.8959, 16);
		const tile = await tiles.getTile({ z: 16, x: Math.floor(x), y: Math.floor(y), scale: 1, format: 'pbf' });
		expect(tile.covered).toBe(true);
		expect(tile.body.toString('latin1')).toContain('Via del Corso');
	});

	it('downloads an extract from a URL and fetches the heights under its roads', async () => {
		const dataDir = dataFolder();
		const downloads: number[] = [];
		const manifest = await addRegion({
			source: `${base}/extracts/rome-latest.osm.pbf`,
			dataDir,
			elevationUrl: `${base}/skadi/{tile_dir}/{tile}.hgt.gz`,
			onProgress: (progress) => {
				if (progress.stage === 'download') downloads.push(progress.done);
			},
		});
		expect(manifest.name).toBe('rome');
		expect(downloads.at(-1)).toBe(romeBytes.length);
		expect(manifest.heights).toEqual({ tiles: 1, fetched: 1, present: 0, failed: [] });
		expect(listFiles(join(dataDir, 'dem'))).toEqual(['N41E012.hgt']);

		const engine = await loadEngine({
			regionsDir: [join(dataDir, 'regions')],
			cacheDir: join(dataDir, 'routing-cache'),
			fetchedDemDir: join(dataDir, 'dem'),
			warmRoutes: 0,
		});
		const heights = engine.height({ shape: IN_ROME, range: false });
		expect(heights.height?.every((height) => typeof height === 'number')).toBe(true);
	});

	it('a bad elevation tile is reported and not kept; the region is added without heights there', async () => {
		const dataDir = dataFolder();
		const manifest = await addRegion({
			source: ROME,
			dataDir,
			elevationUrl: `${base}/broken-skadi/{tile_dir}/{tile}.hgt.gz`,
		});
		expect(manifest.heights?.fetched).toBe(0);
		expect(manifest.heights?.failed).toEqual([
			{ tile: 'N41E012', reason: expect.stringMatching(/size|samples|bytes/i) },
		]);
		expect(listFiles(join(dataDir, 'dem'))).toEqual([]);
	});

	it('replacing a region swaps it in whole: one extract, one graph, one feature set', async () => {
		const dataDir = dataFolder();
		await addRegion({ source: ROME, dataDir });
		// A newer extract of the same place, in another format: one new street.
		const newer = join(dataFolder(), 'rome.osm.gz');
		writeFileSync(
			newer,
			gzipSync(`<?xml version="1.0"?><osm version="0.6">
				<node id="1" lat="41.8960" lon="12.4820"/><node id="2" lat="41.8970" lon="12.4830"/>
				<way id="10"><nd ref="1"/><nd ref="2"/><tag k="highway" v="residential"/><tag k="name" v="Via Nuova"/></way>
			</osm>`),
		);
		const manifest = await addRegion({ source: newer, dataDir });
		expect(manifest).toMatchObject({ name: 'rome', format: 'osm.gz', roadNodes: 2 });
		expect(
			listFiles(dataDir)
				.filter((file) => file.includes('rome'))
				.sort(),
		).toEqual([
			'regions/rome.json',
			'regions/rome.osm.gz',
			expect.stringMatching(/^routing-cache\/rome-[0-9a-f]{16}-v\d+\.graph$/),
			expect.stringMatching(/^tile-cache\/rome-[0-9a-f]{16}-f\d+\.json$/),
		]);
		const engine = await loadEngine({
			regionsDir: [join(dataDir, 'regions')],
			cacheDir: join(dataDir, 'routing-cache'),
			warmRoutes: 0,
		});
		expect(engine.searchGeocode('Via Nuova', 1).features).toHaveLength(1);
		expect(engine.searchGeocode('Via del Corso', 1).features).toHaveLength(0);
	});

	it('an extract without map data is refused', async () => {
		const empty = join(dataFolder(), 'empty.osm.gz');
		writeFileSync(empty, gzipSync('<?xml version="1.0"?><osm version="0.6"></osm>'));
		const dataDir = dataFolder();
		await expect(addRegion({ source: empty, dataDir })).rejects.toThrow(/holds no map data/);
		expect(listFiles(dataDir)).toEqual([]);
	});

	it('names a region from its source and refuses names that are not names', async () => {
		expect(suggestRegionName('https://download.geofabrik.de/europe/liechtenstein-latest.osm.pbf')).toBe(
			'liechtenstein',
		);
		expect(suggestRegionName('/tmp/Planet Extract (2).osm.gz')).toBe('planet-extract-2');
		const dataDir = dataFolder();
		await expect(addRegion({ source: ROME, dataDir, name: 'Rome Centre' })).rejects.toThrow(
			/cannot name a region/,
		);
		await expect(addRegion({ source: ROME, dataDir, name: 'andorra' })).rejects.toThrow(
			/bundled demo region/,
		);
		expect(listFiles(dataDir)).toEqual([]);
	});
});

describe('bad input changes nothing', () => {
	const cases: [string, () => string | Promise<string>, RegExp][] = [
		[
			'a truncated PBF',
			() => {
				const path = join(dataFolder(), 'cut.osm.pbf');
				writeFileSync(path, romeBytes.subarray(0, 30_000));
				return path;
			},
			/not a readable OpenStreetMap extract: .*truncated/,
		],
		[
			'an HTML page saved as .pbf',
			() => {
				const path = join(dataFolder(), 'page.osm.pbf');
				writeFileSync(path, '<!doctype html>\n<html><body>Your download will start shortly</body></html>');
				return path;
			},
			/HTML page, not an OpenStreetMap extract/,
		],
		[
			'a file that is no extract at all',
			() => {
				const path = join(dataFolder(), 'photo.osm.pbf');
				writeFileSync(path, Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]));
				return path;
			},
			/not an OpenStreetMap extract/,
		],
		[
			'OSM XML cut off mid-element',
			() => {
				const path = join(dataFolder(), 'cut.osm');
				writeFileSync(
					path,
					'<?xml version="1.0"?><osm version="0.6"><node id="1" lat="41.9" lon="12.4"><tag k=',
				);
				return path;
			},
			/not a readable OpenStreetMap extract/,
		],
		['a missing file', () => join(tmpdir(), 'no-such-extract.osm.pbf'), /No file at/],
		['a URL that answers 404', () => `${base}/extracts/gone.osm.pbf`, /answered 404/],
		['a URL serving an HTML page', () => `${base}/extracts/download-page.osm.pbf`, /HTML page/],
		[
			'a download cut short',
			() => `${base}/extracts/cut-short.osm.pbf`,
			/download of .* (broke off|ended after)/,
		],
		[
			'a server that is not there',
			() => `http://127.0.0.1:${closedPort}/extract.osm.pbf`,
			/download of .* failed: ECONNREFUSED/,
		],
	];
	for (const [what, makeSource, reason] of cases) {
		it(`${what}: a clear error, and the regions, caches and heights are as before`, async () => {
			const dataDir = dataFolder();
			await addRegion({ source: ROME, dataDir });
			const before = listFiles(dataDir);
			const source = await makeSource();
			const error = await addRegion({ source, dataDir, name: 'rome' }).catch((caught: unknown) => caught);
			expect(error).toBeInstanceOf(RegionError);
			expect((error as Error).message).toMatch(reason);
			expect(listFiles(dataDir)).toEqual(before);
		});
	}

	it('tells an extract by its bytes', () => {
		expect(detectExtractFormat(romeBytes.subarray(0, 64))).toBe('osm.pbf');
		expect(detectExtractFormat(gzipSync('<osm/>'))).toBe('osm.gz');
		expect(detectExtractFormat(Buffer.from('\uFEFF<?xml version="1.0"?><osm>'))).toBe('osm');
		expect(() => detectExtractFormat(new Uint8Array())).toThrow(/empty/);
	});
});

describe('removing a region', () => {
	it('removes the extract and everything built from it; bundled and unknown regions are refused', async () => {
		const dataDir = dataFolder();
		await addRegion({ source: ROME, dataDir });
		await expect(removeRegion(dataDir, 'monaco')).rejects.toThrow(/bundled demo region/);
		await expect(removeRegion(dataDir, 'paris')).rejects.toThrow(
			/No region named paris\. Added regions: rome/,
		);
		const removed = await removeRegion(dataDir, 'rome');
		expect(removed).toHaveLength(4);
		expect(listFiles(dataDir)).toEqual([]);
		expect(listRegions(dataDir).map((region) => region.name)).toEqual(['andorra', 'harrisburg', 'monaco']);
	});
});

describe('npm run regions', () => {
	const run = promisify(execFile);
	const cli = (dataDir: string, ...args: string[]) =>
		run(join('node_modules', '.bin', 'tsx'), ['src/lib/regions/cli.ts', ...args], {
			env: { ...process.env, DATA_DIR: dataDir, ELEVATION_URL: undefined },
		});

	it('adds, lists and removes, and says why when it cannot', async () => {
		const dataDir = dataFolder();
		const added = await cli(dataDir, 'add', ROME);
		expect(added.stdout).toMatch(/reading/);
		expect(added.stdout).toMatch(/Added rome: 56 kB, [\d,]+ nodes, [\d,]+ ways, 185 road nodes/);
		expect((await cli(dataDir, 'list')).stdout).toMatch(/^rome\s+added\s+56 kB\s+185 road nodes/m);
		const refused = await cli(dataDir, 'remove', 'andorra').catch(
			(error: { code: number; stderr: string }) => error,
		);
		expect(refused).toMatchObject({
			code: 2,
			stderr: expect.stringMatching(/bundled demo region.*Nothing was changed\./),
		});
		expect((await cli(dataDir, 'remove', 'rome')).stdout).toMatch(/Removed rome/);
		expect((await cli(dataDir, 'list')).stdout).not.toMatch(/rome/);
	}, 60_000);
});

describe('the lock', () => {
	it('a second command waits its turn with a clear message; a dead holder does not block', async () => {
		const dataDir = dataFolder();
		const busy = addRegion({ source: ROME, dataDir });
		await expect(addRegion({ source: ROME, dataDir })).rejects.toThrow(/Another regions command/);
		await busy;
		writeFileSync(join(dataDir, 'regions', '.lock'), '999999');
		await expect(removeRegion(dataDir, 'rome')).resolves.toHaveLength(4);
	});
});
