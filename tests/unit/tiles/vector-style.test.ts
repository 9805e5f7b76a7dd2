import { validateStyleMin } from '@maplibre/maplibre-gl-style-spec';
import { describe, expect, it } from 'vitest';
import { MAP_LAYERS } from '../../../src/lib/tiles/contract.ts';
import { LABEL_HALO_WIDTH, PLACE_LABELS, ROAD_STYLES, roadWidth } from '../../../src/lib/tiles/map-style.ts';
import { readMapFonts } from '../../../src/lib/tiles/palette.ts';
import { MAP_PALETTE } from '../../../src/lib/tiles/server/palette.ts';
import { buildVectorStyle } from '../../../src/lib/tiles/vector-style.ts';
import tokens from '../../../src/styles/_tokens.scss?raw';

const FONTS = readMapFonts(tokens);

const style = buildVectorStyle({
	tiles: '/tiles/{z}/{x}/{y}.pbf',
	origin: 'https://maps.example',
	palette: MAP_PALETTE,
	attribution: '© OpenStreetMap contributors',
	maxZoom: 18,
	fonts: FONTS,
});

/** Every colour a layer paints with. */
function coloursOf(layer: (typeof style.layers)[number]): string[] {
	const paint = (layer.paint ?? {}) as Record<string, unknown>;
	return ['background-color', 'fill-color', 'line-color', 'text-color', 'text-halo-color']
		.map((key) => paint[key])
		.filter((value): value is string => typeof value === 'string');
}

function layerOf(id: string) {
	const layer = style.layers.find((candidate) => candidate.id === id);
	if (!layer) throw new Error(`The style has no layer ${id}.`);
	return layer as typeof layer & {
		'source-layer'?: string;
		filter?: unknown;
		layout?: Record<string, unknown>;
		paint?: Record<string, unknown>;
	};
}

function paintOf(id: string): Record<string, unknown> {
	return layerOf(id).paint ?? {};
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
		// Water, green areas, buildings, roads and paths are all there, and the places' names.
		expect(new Set(used)).toEqual(new Set(MAP_LAYERS));
	});

	it('paints every colour from the base map palette', () => {
		const palette = new Set(Object.values(MAP_PALETTE));
		const colours = style.layers.flatMap(coloursOf);
		const names = style.layers.filter((layer) => layer.type === 'symbol');
		// One colour a layer, and a name's halo beside its colour.
		expect(colours.length).toBe(style.layers.length + names.length);
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
		// Names are drawn in the browser from its own fonts: no glyph files are asked for.
		expect(style.glyphs).toBeUndefined();
	});
});

describe('names on the vector base map', () => {
	const symbols = style.layers.filter((layer) => layer.type === 'symbol');

	it('sets every name in the body type, made bold or italic by the first family alone', () => {
		expect(FONTS[0]).toBe('Plus Jakarta Sans Variable');
		expect(FONTS.at(-1)).toBe('sans-serif');
		expect(layerOf('road-minor-label').layout?.['text-font']).toEqual(FONTS);
		expect(layerOf('place-city').layout?.['text-font']).toEqual([`${FONTS[0]} Bold`, ...FONTS]);
		expect(layerOf('place-suburb').layout?.['text-font']).toEqual(FONTS);
		expect(layerOf('waterway-label').layout?.['text-font']).toEqual([`${FONTS[0]} Italic`, ...FONTS]);
		for (const layer of symbols) {
			expect(layerOf(layer.id).layout?.['text-field']).toEqual(['get', 'name']);
			expect(paintOf(layer.id)).toMatchObject({
				'text-halo-color': MAP_PALETTE.halo,
				'text-halo-width': LABEL_HALO_WIDTH,
			});
		}
	});

	it('names streets along their line, from the zoom the raster tiles name each class at', () => {
		for (const road of ROAD_STYLES) {
			const label = layerOf(`road-${road.kind}-label`);
			expect(label['source-layer']).toBe('road');
			expect(label.filter).toEqual(['all', ['==', ['get', 'kind'], road.kind], ['has', 'name']]);
			expect(label.layout?.['symbol-placement']).toBe('line');
			expect(label.minzoom).toBe(road.labelZoom - 1);
		}
		// 11 pixels, 12 from Leaflet zoom 17.
		expect(layerOf('road-primary-label').layout?.['text-size']).toEqual(['step', ['zoom'], 11, 16, 12]);
		expect(paintOf('road-primary-label')['text-color']).toBe(MAP_PALETTE.label);
	});

	it('names rivers and streams along them, in italics, from Leaflet zoom 14', () => {
		const label = layerOf('waterway-label');
		expect(label['source-layer']).toBe('waterway');
		expect(label.filter).toEqual(['has', 'name']);
		expect(label.layout?.['symbol-placement']).toBe('line');
		expect(label.minzoom).toBe(13);
		expect(paintOf('waterway-label')['text-color']).toBe(MAP_PALETTE.water_label);
	});

	it('names each class of place at its points over the zooms the raster tiles show it', () => {
		for (const place of PLACE_LABELS) {
			const label = layerOf(`place-${place.kind}`);
			expect(label['source-layer']).toBe('place');
			expect(label.filter).toEqual(['==', ['get', 'kind'], place.kind]);
			expect(label.layout?.['symbol-placement']).toBeUndefined();
			expect(label.layout?.['text-size']).toBe(place.size);
			expect(paintOf(label.id)['text-color']).toBe(MAP_PALETTE[place.colour]);
		}
		// A city's name shows from Leaflet zoom 8 to 15: MapLibre's zooms 7 up to, not including, 15.
		expect(layerOf('place-city')).toMatchObject({ minzoom: 7, maxzoom: 15 });
		expect(paintOf('place-suburb')['text-color']).toBe(MAP_PALETTE.label_soft);
	});

	it('puts names above every line and area, and the more important names above the lesser', () => {
		const types = style.layers.map((layer) => layer.type);
		expect(types.slice(types.indexOf('symbol')).every((type) => type === 'symbol')).toBe(true);
		const ids = style.layers.map((layer) => layer.id);
		// MapLibre places the topmost layer's names first: a city's name wins over a street's, a main
		// road's over a lane's, a street's over a stream's.
		const order = (id: string) => ids.indexOf(id);
		expect(order('place-city')).toBeGreaterThan(order('place-hamlet'));
		expect(order('place-hamlet')).toBeGreaterThan(order('road-motorway-label'));
		expect(order('road-motorway-label')).toBeGreaterThan(order('road-minor-label'));
		expect(order('road-track-label')).toBeGreaterThan(order('waterway-label'));
	});
});
