import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RoutingEngine } from '../../../src/lib/routing/engine.ts';
import { loadRegion } from '../../../src/lib/routing/server/regions.ts';
import { REGIONS_DIR } from './region-cache.ts';

const MONACO = join(REGIONS_DIR, 'monaco.osm.gz');
const request = {
	locations: [
		{ lat: 43.7396, lon: 7.4275 },
		{ lat: 43.7315, lon: 7.4203 },
	],
	costing: 'pedestrian' as const,
};

describe('on-disk graph cache', () => {
	it('loads what it built, fast, and routes the same', async () => {
		const cacheDir = mkdtempSync(join(tmpdir(), 'routing-cache-'));
		const built = await loadRegion(MONACO, cacheDir);
		expect(built.fromCache).toBe(false);
		const loaded = await loadRegion(MONACO, cacheDir);
		expect(loaded.fromCache).toBe(true);
		expect(loaded.ms).toBeLessThan(1000);
		expect(Array.from(loaded.region.graph.segTime)).toEqual(Array.from(built.region.graph.segTime));
		expect(Array.from(loaded.region.hierarchies[2].head)).toEqual(
			Array.from(built.region.hierarchies[2].head),
		);
		expect(loaded.region.features.length).toBe(built.region.features.length);
		const fresh = new RoutingEngine({ regions: [built.region] }).route(request);
		const cached = new RoutingEngine({ regions: [loaded.region] }).route(request);
		expect(cached).toEqual(fresh);
	});

	it('rebuilds a truncated or foreign cache file instead of trusting it', async () => {
		const cacheDir = mkdtempSync(join(tmpdir(), 'routing-cache-'));
		await loadRegion(MONACO, cacheDir);
		const [file] = readdirSync(cacheDir);
		const path = join(cacheDir, file);
		const bytes = readFileSync(path);
		writeFileSync(path, bytes.subarray(0, bytes.length - 1000));
		const afterTruncation = await loadRegion(MONACO, cacheDir);
		expect(afterTruncation.fromCache).toBe(false);
		writeFileSync(path, 'not a graph');
		expect((await loadRegion(MONACO, cacheDir)).fromCache).toBe(false);
		expect((await loadRegion(MONACO, cacheDir)).fromCache).toBe(true);
		expect(readdirSync(cacheDir)).toEqual([file]);
	});

	it('stores the highway-avoiding car hierarchy once when no highway is open to cars', async () => {
		const cacheDir = mkdtempSync(join(tmpdir(), 'routing-cache-'));
		// Monaco has no motorways or trunks: the fourth hierarchy is the car one.
		await loadRegion(MONACO, cacheDir);
		const monaco = (await loadRegion(MONACO, cacheDir)).region;
		expect(monaco.hierarchies).toHaveLength(4);
		expect(monaco.hierarchies[3]).toBe(monaco.hierarchies[2]);
		const harrisburg = (await loadRegion(join(REGIONS_DIR, 'harrisburg.osm.pbf'), cacheDir)).region;
		expect(harrisburg.hierarchies[3]).not.toBe(harrisburg.hierarchies[2]);
	});
});
