import { readFileSync } from 'node:fs';
import { measureBounds } from '../../../src/lib/tiles/server/feature-sets.ts';
import { readMapFeaturesFromXml } from '../../../src/lib/tiles/server/features.ts';
import { indexFeatures, TileService } from '../../../src/lib/tiles/server/service.ts';

/** The hand-written town of tests/fixtures/tiles: a street, a footway, a park, a river, a building, a lake. */
export const TOWN_XML = readFileSync(new URL('../../fixtures/tiles/small-town.osm', import.meta.url), 'utf8');

/** Market Street runs west–east along this latitude. */
export const MARKET_STREET = { lat: 40.26, lon: -76.84 };

export async function readTown() {
	return readMapFeaturesFromXml(TOWN_XML);
}

export async function createTownService(cacheDir: string | null = null): Promise<TileService> {
	const collection = await readTown();
	return new TileService([indexFeatures('town', { bounds: measureBounds(collection), collection })], {
		cacheDir,
		dataKey: 'town',
	});
}
