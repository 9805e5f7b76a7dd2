import { describe, expect, it } from 'vitest';
import { readOsmXmlText } from '../../../src/lib/routing/osm/read.ts';
import { classifyArea, classifyLine, joinRings } from '../../../src/lib/tiles/server/features.ts';
import { readTown, TOWN_XML } from './town.ts';

describe('map features of an extract', () => {
	it('puts streets, paths, green areas, water, buildings and place names in their layers and classes', async () => {
		const { features } = await readTown();
		const summary = features.map((f) => [
			f.properties.layer,
			f.properties.kind,
			f.geometry.type,
			f.properties.name ?? null,
		]);
		expect(summary).toEqual(
			expect.arrayContaining([
				['road', 'minor', 'LineString', 'Market Street'],
				['road', 'path', 'LineString', null],
				['landcover', 'park', 'Polygon', null],
				['waterway', 'river', 'LineString', 'Paxton Creek'],
				['building', 'building', 'Polygon', null],
				['water', 'water', 'Polygon', null],
				['place', 'village', 'Point', 'Testbrook'],
			]),
		);
		expect(features).toHaveLength(7);
	});

	it('closes a multipolygon lake from its two halves', async () => {
		const { features } = await readTown();
		const lake = features.find((f) => f.properties.layer === 'water');
		expect(lake?.geometry.type).toBe('Polygon');
		const ring = lake?.geometry.type === 'Polygon' ? lake.geometry.coordinates[0] : [];
		expect(ring).toHaveLength(5);
		expect(ring[0]).toEqual(ring[4]);
	});

	it('draws areas under lines and names last', async () => {
		const layers = (await readTown()).features.map((f) => f.properties.layer);
		expect(layers.indexOf('landcover')).toBeLessThan(layers.indexOf('road'));
		expect(layers.at(-1)).toBe('place');
	});

	it('leaves the routing import as it was: only highways, relations skipped', async () => {
		const osm = await readOsmXmlText(TOWN_XML);
		expect(osm.ways.map((way) => way.id)).toEqual([100, 101]);
		expect(osm.nodeCount).toBe(20);
	});

	it('classifies tags the way the map draws them', () => {
		expect(classifyLine({ highway: 'motorway_link' })).toEqual({ layer: 'road', kind: 'motorway' });
		expect(classifyLine({ highway: 'track' })).toEqual({ layer: 'road', kind: 'track' });
		expect(classifyLine({ highway: 'pedestrian', area: 'yes' })).toBeNull();
		expect(classifyLine({ railway: 'rail' })).toEqual({ layer: 'railway', kind: 'rail' });
		expect(classifyLine({ waterway: 'stream' })).toEqual({ layer: 'waterway', kind: 'stream' });
		expect(classifyArea({ landuse: 'forest' })).toEqual({ layer: 'landcover', kind: 'wood' });
		expect(classifyArea({ landuse: 'reservoir' })).toEqual({ layer: 'water', kind: 'water' });
		expect(classifyArea({ building: 'no' })).toBeNull();
		expect(classifyArea({ amenity: 'parking' })).toBeNull();
	});

	it('joins ring pieces in any direction and drops pieces that never close', () => {
		expect(
			joinRings([
				[1, 2, 3],
				[1, 4, 3],
			]),
		).toEqual([[1, 4, 3, 2, 1]]);
		expect(joinRings([[1, 2, 3]])).toEqual([]);
	});
});
