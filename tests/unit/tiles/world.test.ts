import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { measureBounds } from '../../../src/lib/tiles/server/feature-sets.ts';
import { MAP_PALETTE } from '../../../src/lib/tiles/server/palette.ts';
import {
	indexFeatures,
	loadWorld,
	type TileRegion,
	TileService,
} from '../../../src/lib/tiles/server/service.ts';
import { lonLatToTile } from '../../../src/lib/tiles/tile-math.ts';
import { MARKET_STREET, readTown } from './town.ts';

/** Counts of each base-map colour in a raster tile (within a few shades). */
async function colourShares(png: Buffer): Promise<Record<string, number>> {
	const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
	const targets = Object.entries(MAP_PALETTE).map(
		([name, hex]) => [name, [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16))] as const,
	);
	const counts: Record<string, number> = {};
	for (let i = 0; i < data.length; i += 3) {
		for (const [name, [r, g, b]] of targets) {
			if (Math.abs(data[i] - r) < 4 && Math.abs(data[i + 1] - g) < 4 && Math.abs(data[i + 2] - b) < 4) {
				counts[name] = (counts[name] ?? 0) + 1;
				break;
			}
		}
	}
	const total = info.width * info.height;
	return Object.fromEntries(Object.entries(counts).map(([name, count]) => [name, count / total]));
}

function tileAt(lon: number, lat: number, z: number) {
	const at = lonLatToTile(lon, lat, z);
	return { z, x: Math.floor(at.x), y: Math.floor(at.y) };
}

function decode(body: Buffer) {
	return new VectorTile(new PbfReader(body));
}

function namesIn(tile: VectorTile, kind: string): string[] {
	const layer = tile.layers.place;
	const names: string[] = [];
	for (let i = 0; layer && i < layer.length; i++) {
		const { properties } = layer.feature(i);
		if (properties.kind === kind) names.push(String(properties.name));
	}
	return names;
}

describe('the world layer', () => {
	let world: TileRegion;
	let service: TileService;
	beforeAll(() => {
		world = loadWorld();
		service = new TileService([], { world });
	}, 120_000);

	it('draws the Croatian coast near Split as land and sea, with no "no data" grey', async () => {
		const tile = await service.getTile({ ...tileAt(16.44, 43.51, 9), scale: 1, format: 'png' });
		expect(tile.covered).toBe(false);
		const shares = await colourShares(tile.body);
		expect(shares.land).toBeGreaterThan(0.2);
		expect(shares.water).toBeGreaterThan(0.2);
		// Only a few anti-aliased edge pixels may come near the old grey.
		expect(shares.no_data ?? 0).toBeLessThan(0.01);
	});

	it('draws the open Atlantic as sea only', async () => {
		const tile = await service.getTile({ ...tileAt(-35, 35, 6), scale: 1, format: 'png' });
		expect((await colourShares(tile.body)).water).toBeGreaterThan(0.99);
	});

	it('draws the border between Croatia and Bosnia', async () => {
		const tile = await service.getTile({ ...tileAt(16.5, 45.1, 7), scale: 1, format: 'png' });
		expect((await colourShares(tile.body)).boundary ?? 0).toBeGreaterThan(0.001);
	});

	it('names countries, US states and cities in the vector tiles', async () => {
		const europe = decode((await service.getTile({ ...tileAt(16, 45, 4), scale: 1, format: 'pbf' })).body);
		expect(Object.keys(europe.layers)).toEqual(expect.arrayContaining(['earth', 'boundary', 'place']));
		expect(namesIn(europe, 'country')).toContain('Croatia');
		expect(namesIn(europe, 'large_city')).toContain('Zagreb');
		const california = decode(
			(await service.getTile({ ...tileAt(-119, 36, 5), scale: 1, format: 'pbf' })).body,
		);
		expect(namesIn(california, 'state')).toContain('California');
		expect(namesIn(california, 'metropolis')).toContain('Los Angeles');
	});

	it('keeps a loaded region’s streets on top, on land', async () => {
		const collection = await readTown();
		const town = indexFeatures('town', { bounds: measureBounds(collection), collection });
		const withTown = new TileService([town], { world });
		const tile = await withTown.getTile({
			...tileAt(MARKET_STREET.lon, MARKET_STREET.lat, 16),
			scale: 1,
			format: 'png',
		});
		expect(tile.covered).toBe(true);
		const shares = await colourShares(tile.body);
		expect(shares.road).toBeGreaterThan(0.005);
		expect(shares.land).toBeGreaterThan(0.3);
	});
});
