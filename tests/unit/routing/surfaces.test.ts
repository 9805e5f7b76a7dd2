import { describe, expect, it } from 'vitest';
import { readOsmFile } from '../../../src/lib/routing/osm/read.ts';
import { buildRegion } from '../../../src/lib/routing/region.ts';
import { getRoadClassName, getSurface, SURFACES } from '../../../src/lib/routing/tags.ts';

const surfaceOf = (tags: Record<string, string>) => SURFACES[getSurface(tags)];

describe('the surface of a way', () => {
	it('reads the surface tag first', () => {
		expect(surfaceOf({ highway: 'path', surface: 'asphalt' })).toBe('paved');
		expect(surfaceOf({ highway: 'residential', surface: 'gravel' })).toBe('unpaved');
	});

	it('reads tracktype next, on a track or any other way', () => {
		expect(surfaceOf({ highway: 'track', tracktype: 'grade1' })).toBe('paved');
		expect(surfaceOf({ highway: 'track', tracktype: 'grade3' })).toBe('unpaved');
		expect(surfaceOf({ highway: 'unclassified', tracktype: 'grade2' })).toBe('unpaved');
	});

	it('falls back on the kind of way: trails unpaved, built ways paved, unknown kinds unknown', () => {
		expect(surfaceOf({ highway: 'path' })).toBe('unpaved');
		expect(surfaceOf({ highway: 'bridleway' })).toBe('unpaved');
		expect(surfaceOf({ highway: 'track' })).toBe('unpaved');
		expect(surfaceOf({ highway: 'footway' })).toBe('paved');
		expect(surfaceOf({ highway: 'cycleway' })).toBe('paved');
		expect(surfaceOf({ highway: 'steps' })).toBe('paved');
		expect(surfaceOf({ highway: 'residential' })).toBe('paved');
		// A surface value we do not know falls back too.
		expect(surfaceOf({ highway: 'path', surface: 'stepping_stones' })).toBe('unpaved');
		expect(surfaceOf({ highway: 'bus_guideway' })).toBe('unknown');
	});
});

describe('surfaces over Andorra', () => {
	it('names the surface of every way of a known kind, the mountain paths included', async () => {
		const osm = await readOsmFile(new URL('../../../data-regions/andorra.osm.pbf', import.meta.url).pathname);
		const graph = buildRegion('andorra', osm).graph;
		const byClass = new Map<string, Set<string>>();
		for (let s = 0; s < graph.segmentCount; s++) {
			const name = getRoadClassName(graph.segClass[s]);
			const kinds = byClass.get(name) ?? new Set<string>();
			kinds.add(SURFACES[graph.segSurface[s]]);
			byClass.set(name, kinds);
		}
		// Paths are most of Andorra's untagged ways off the roads: they were "unknown" before.
		expect(byClass.get('path')).toEqual(new Set(['unpaved']));
		for (const [name, kinds] of byClass) {
			if (name !== 'other') expect(kinds.has('unknown'), name).toBe(false);
		}
	}, 60_000);
});
