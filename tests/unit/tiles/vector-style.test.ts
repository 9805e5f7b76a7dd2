import { validateStyleMin } from '@maplibre/maplibre-gl-style-spec';
import { describe, expect, it } from 'vitest';
import { MAP_LAYERS } from '../../../src/lib/tiles/contract.ts';
import { ROAD_STYLES, roadWidth } from '../../../src/lib/tiles/map-style.ts';
import { MAP_PALETTE } from '../../../src/lib/tiles/server/palette.ts';
import { buildVectorStyle } from '../../../src/lib/tiles/vector-style.ts';

const style = buildVectorStyle({
	tiles: '/tiles/{z}/{x}/{y}.pbf',
	origin: 'https://maps.example',
	palette: MAP_PALETTE,
	attribution: '© OpenStreetMap contributors',
	maxZoom: 18,
});

/** Every colour a layer paints with. */
function coloursOf(layer: (typeof style.layers)[number]): string[] {
	const paint = (layer.paint ?? {}) as Record<string, unknown>;
	return ['background-color', 'fill-color', 'line-color']
		.map((key) => paint[key])
		.filter((value): value is string => typeof value === 'string');
}

function paintOf(id: string): Record<string, unknown> {
	return (style.layers.find((layer) => layer.id === id)?.paint ?? {}) as Record<string, unknown>;
}

/** The value of an `interpolate` expression at a stop's input. */
function stopValue(expression: unknown, input: number): number | undefined {
	const parts = expression as unknown[];
	for (let i = 3; i < parts.length; i += 2) if (parts[i] === input) return parts[i + 1] as number;
	return undefined;
}

describe('the vector base map style', () => {
	it('is a style MapLibre accepts', () => {
		expect(validateStyleMin(style)).toEqual([]);
	});

	it('draws only from layers the server puts in its vector tiles', () => {
		const used = style.layers.flatMap((layer) => ('source-layer' in layer ? [layer['source-layer']] : []));
		expect(used.length).toBeGreaterThan(10);
		for (const sourceLayer of used) expect(MAP_LAYERS).toContain(sourceLayer);
		// Water, green areas, buildings, roads and paths are all there.
		expect(new Set(used)).toEqual(new Set(['landcover', 'water', 'building', 'waterway', 'railway', 'road']));
	});

	it('paints every colour from the base map palette', () => {
		const palette = new Set(Object.values(MAP_PALETTE));
		const colours = style.layers.flatMap(coloursOf);
		expect(colours.length).toBe(style.layers.length);
		for (const colour of colours) expect(palette).toContain(colour);
		const byId = new Map(style.layers.map((layer) => [layer.id, coloursOf(layer)[0]]));
		expect(byId.get('water')).toBe(MAP_PALETTE.water);
		expect(byId.get('landcover-park')).toBe(MAP_PALETTE.park);
		expect(byId.get('building')).toBe(MAP_PALETTE.building);
		expect(byId.get('road-motorway')).toBe(MAP_PALETTE.motorway);
		expect(byId.get('road-path')).toBe(MAP_PALETTE.path);
	});

	it('has a line for each road class, casings below every fill, and paths dashed', () => {
		const ids = style.layers.map((layer) => layer.id);
		for (const road of ROAD_STYLES) expect(ids).toContain(`road-${road.kind}`);
		const lastCasing = Math.max(...ids.flatMap((id, i) => (id.endsWith('-casing') ? [i] : [])));
		const firstFill = ids.findIndex((id) => id.startsWith('road-') && !id.endsWith('-casing'));
		expect(lastCasing).toBeLessThan(firstFill);
		expect(paintOf('road-path')['line-dasharray']).toEqual([2.5, 1.5]);
	});

	it('draws at a Leaflet zoom what the raster tile of that zoom draws, one MapLibre zoom lower', () => {
		const primary = style.layers.find((layer) => layer.id === 'road-primary');
		expect(primary?.minzoom).toBe(7);
		const width = paintOf('road-primary')['line-width'];
		// Leaflet zoom 15 is MapLibre zoom 14.
		expect(stopValue(width, 14)).toBeCloseTo(roadWidth(3.2, 15), 2);
	});

	it('asks this server for its vector tiles, up to the last zoom it has', () => {
		const source = style.sources.base;
		expect(source).toMatchObject({
			type: 'vector',
			tiles: ['https://maps.example/tiles/{z}/{x}/{y}.pbf'],
			maxzoom: 18,
			attribution: '© OpenStreetMap contributors',
		});
		// No text layers: they would need glyph files this server does not serve.
		expect(style.layers.some((layer) => layer.type === 'symbol')).toBe(false);
		expect(style.glyphs).toBeUndefined();
	});
});
