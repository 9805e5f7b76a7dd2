import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { MAP_PALETTE } from '../../../src/lib/tiles/server/palette.ts';
import { lonLatToTile } from '../../../src/lib/tiles/tile-math.ts';
import { fillDisk } from '../../helpers/disk-full.ts';
import { createTownService, MARKET_STREET } from './town.ts';

const Z = 16;
const at = lonLatToTile(MARKET_STREET.lon, MARKET_STREET.lat, Z);
const TOWN_TILE = { z: Z, x: Math.floor(at.x), y: Math.floor(at.y) };
/** The zoom-13 tile that holds the whole town. */
const WHOLE_TOWN = { z: 13, x: 2347, y: 3093 };

async function pixels(png: Buffer) {
	const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
	const colourAt = (px: number, py: number) => {
		const offset = (Math.floor(py) * info.width + Math.floor(px)) * 3;
		return `#${[data[offset], data[offset + 1], data[offset + 2]].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
	};
	const distinct = new Set<string>();
	for (let i = 0; i < data.length; i += 3) distinct.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
	return { info, colourAt, distinct: distinct.size };
}

function distance(a: string, b: string): number {
	const channels = (hex: string) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
	const [p, q] = [channels(a), channels(b)];
	return Math.max(...p.map((value, i) => Math.abs(value - q[i])));
}

describe('vector tiles', () => {
	it('encodes each layer of the town with its classes and names', async () => {
		const service = await createTownService();
		const tile = await service.getTile({ ...WHOLE_TOWN, scale: 1, format: 'pbf' });
		expect(tile.contentType).toBe('application/vnd.mapbox-vector-tile');
		const decoded = new VectorTile(new PbfReader(tile.body));
		expect(Object.keys(decoded.layers).sort()).toEqual([
			'building',
			'landcover',
			'place',
			'road',
			'water',
			'waterway',
		]);
		const roads = decoded.layers.road;
		const kinds = Array.from({ length: roads.length }, (_, i) => roads.feature(i).properties);
		expect(kinds).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ kind: 'minor', name: 'Market Street' }),
				expect.objectContaining({ kind: 'path' }),
			]),
		);
		expect(roads.extent).toBe(4096);
		const park = decoded.layers.landcover.feature(0);
		expect(park.type).toBe(3);
		expect(park.properties.kind).toBe('park');
		expect(decoded.layers.place.feature(0).properties.name).toBe('Testbrook');
	});

	it('answers an empty vector tile far from the town', async () => {
		const service = await createTownService();
		const tile = await service.getTile({ z: 10, x: 3, y: 3, scale: 1, format: 'pbf' });
		expect(tile.covered).toBe(false);
		expect(Object.keys(new VectorTile(new PbfReader(tile.body)).layers)).toEqual([]);
	});
});

describe('raster tiles', () => {
	const cacheDir = mkdtempSync(join(tmpdir(), 'mapstride-tiles-'));
	afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

	it('draws the street where the street is, on land, with many colours', async () => {
		const service = await createTownService();
		const tile = await service.getTile({ ...TOWN_TILE, scale: 1, format: 'png' });
		const image = await pixels(tile.body);
		expect(image.info.width).toBe(256);
		expect(image.distinct).toBeGreaterThan(8);
		const streetY = (at.y - TOWN_TILE.y) * 256;
		const streetX = (at.x - TOWN_TILE.x) * 256;
		expect(distance(image.colourAt(streetX, streetY), MAP_PALETTE.road)).toBeLessThan(12);
		// Just beside the street's casing: plain land.
		expect(distance(image.colourAt(streetX, streetY + 12), MAP_PALETTE.land)).toBeLessThan(12);
	});

	it('draws @2x tiles at 512 pixels', async () => {
		const service = await createTownService();
		const tile = await service.getTile({ ...TOWN_TILE, scale: 2, format: 'png' });
		expect((await pixels(tile.body)).info.width).toBe(512);
	});

	it('says there is no map data outside the regions, lightly', async () => {
		const service = await createTownService();
		const tile = await service.getTile({ z: 12, x: 2000, y: 1500, scale: 1, format: 'png' });
		expect(tile.covered).toBe(false);
		const image = await pixels(tile.body);
		expect(distance(image.colourAt(10, 10), MAP_PALETTE.no_data)).toBeLessThan(6);
		// The words are there: darker pixels across the middle row band.
		let dark = 0;
		for (let x = 40; x < 216; x++) if (distance(image.colourAt(x, 124), MAP_PALETTE.no_data) > 40) dark++;
		expect(dark).toBeGreaterThan(10);
	});

	it('keeps drawn tiles on disk and serves them again unchanged', async () => {
		const first = await (await createTownService(cacheDir)).getTile({
			...TOWN_TILE,
			scale: 1,
			format: 'png',
		});
		const [styleDir] = readdirSync(cacheDir);
		expect(styleDir).toMatch(/^tiles-[0-9a-f]{12}$/);
		expect(readdirSync(join(cacheDir, styleDir, String(Z)))).toEqual([String(TOWN_TILE.x)]);
		const again = await (await createTownService(cacheDir)).getTile({
			...TOWN_TILE,
			scale: 1,
			format: 'png',
		});
		expect(again.etag).toBe(first.etag);
	});

	it('still answers a tile when the disk is full, and leaves no part-written copy behind', async () => {
		const fullDir = mkdtempSync(join(tmpdir(), 'mapstride-tiles-full-'));
		try {
			const service = await createTownService(fullDir);
			const disk = fillDisk(fullDir, { roomLeft: 10 });
			const tile = await service.getTile({ ...TOWN_TILE, scale: 1, format: 'png' }).finally(disk.restore);
			expect(disk.refused).toBe(1);
			expect((await pixels(tile.body)).info.width).toBe(256);
			const drawn = readdirSync(fullDir, { recursive: true }).filter((name) =>
				/\.(png|tmp)$/.test(String(name)),
			);
			expect(drawn).toEqual([]);
		} finally {
			rmSync(fullDir, { recursive: true, force: true });
		}
	});
});
