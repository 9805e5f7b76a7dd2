import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadRegion } from '../../../src/lib/routing/server/regions.ts';

// Tests share one cache folder outside the repo, so the first run builds and later runs load.
export const TEST_CACHE_DIR = join(tmpdir(), 'mapstride-routing-test-cache');
export const REGIONS_DIR = join(import.meta.dirname, '../../../data-regions');

export async function loadTestRegion(file: string) {
	return (await loadRegion(join(REGIONS_DIR, file), TEST_CACHE_DIR)).region;
}
