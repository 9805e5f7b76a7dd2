import polyline from '@mapbox/polyline';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readOsmFile, readOsmXmlText } from '../../../src/lib/routing/osm/read.ts';
import { decodePolyline, encodePolyline } from '../../../src/lib/routing/polyline.ts';
import { REGIONS_DIR } from './region-cache.ts';
import { writeWorldXml } from './world.ts';

describe('polyline6', () => {
	it('encodes like @mapbox/polyline and decodes back', () => {
		const point = fc.tuple(
			fc.double({ min: -90, max: 90, noNaN: true }),
			fc.double({ min: -180, max: 180, noNaN: true }),
		);
		fc.assert(
			fc.property(fc.array(point, { minLength: 1, maxLength: 50 }), (points) => {
				const encoded = encodePolyline(points as [number, number][], 6);
				expect(encoded).toBe(polyline.encode(points as [number, number][], 6));
				const decoded = decodePolyline(encoded, 6);
				decoded.forEach(([lat, lon], i) => {
					expect(Math.abs(lat - points[i][0])).toBeLessThanOrEqual(5e-7 + 1e-12);
					expect(Math.abs(lon - points[i][1])).toBeLessThanOrEqual(5e-7 + 1e-12);
				});
			}),
			{ seed: 7, numRuns: 300 },
		);
	});

	it('refuses truncated and foreign text', () => {
		expect(() => decodePolyline('_p~iF~ps|U_', 6)).toThrow();
		expect(() => decodePolyline(' ', 6)).toThrow();
	});
});

describe('OSM readers', () => {
	it('reads nodes, ways and tags from OSM XML', async () => {
		const osm = await readOsmXmlText(writeWorldXml({ highway: 'steps', name: 'Stair' }));
		expect(osm.nodeCount).toBe(5);
		expect(Array.from(osm.nodeIds)).toEqual([1, 2, 3, 5, 6]);
		expect(osm.nodeLat[1] / 1e7).toBeCloseTo(45.0, 7);
		expect(osm.ways).toHaveLength(3);
		expect(osm.ways[0].tags.highway).toBe('steps');
		expect(osm.ways[1].refs).toEqual([1, 3, 2]);
	});

	it('refuses OSM XML with a DOCTYPE', async () => {
		const xml = '<?xml version="1.0"?><!DOCTYPE osm [<!ENTITY x "y">]><osm version="0.6"></osm>';
		await expect(readOsmXmlText(xml)).rejects.toThrow(/DOCTYPE/);
	});

	it('reads the PBF extract and the gzipped XML extract', async () => {
		const andorra = await readOsmFile(`${REGIONS_DIR}/andorra.osm.pbf`);
		expect(andorra.nodeCount).toBeGreaterThan(60_000);
		expect(andorra.ways.length).toBeGreaterThan(1000);
		// Node ids come out sorted, so lookups can binary-search.
		for (let i = 1; i < andorra.nodeCount; i++)
			expect(andorra.nodeIds[i] > andorra.nodeIds[i - 1]).toBe(true);
		// Every coordinate lies in Andorra and its surroundings.
		for (let i = 0; i < andorra.nodeCount; i += 997) {
			expect(andorra.nodeLat[i] / 1e7).toBeGreaterThan(42.2);
			expect(andorra.nodeLat[i] / 1e7).toBeLessThan(42.9);
		}
		expect(andorra.pois.some((poi) => poi.kind === 'natural=peak')).toBe(true);
		const monaco = await readOsmFile(`${REGIONS_DIR}/monaco.osm.gz`);
		expect(monaco.nodeCount).toBeGreaterThan(10_000);
		expect(monaco.ways.some((way) => way.tags.name === 'Boulevard des Moulins')).toBe(true);
	});

	it('refuses unknown formats', async () => {
		await expect(readOsmFile(`${REGIONS_DIR}/README.md`)).rejects.toThrow(/Unknown extract format/);
	});
});
