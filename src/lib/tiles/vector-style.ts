import type {
	ExpressionSpecification,
	LayerSpecification,
	StyleSpecification,
} from '@maplibre/maplibre-gl-style-spec';
import type { MapLayer } from './contract.ts';
import {
	AREA_STYLES,
	BOUNDARY_STYLES,
	BUILDING_EDGE_MIN_ZOOM,
	BUILDING_MIN_ZOOM,
	CASING_MIN_ZOOM,
	casingWidth,
	LABEL_HALO_WIDTH,
	PLACE_LABELS,
	RAILWAY_BASE,
	RAILWAY_DASH_MIN_ZOOM,
	RAILWAY_MIN_ZOOM,
	ROAD_LABEL,
	ROAD_STYLES,
	roadWidth,
	WATERWAY_LABEL,
	WATERWAY_STYLES,
} from './map-style.ts';
import type { MapColour } from './palette.ts';

// The MapLibre style that draws the server's vector tiles (`/tiles/{z}/{x}/{y}.pbf`) like its raster tiles.
// MapLibre inside Leaflet runs one zoom below Leaflet (its tiles are 512 pixels, Leaflet's 256), so every zoom of
// the shared tables is shifted by ZOOM_SHIFT. The style has no `glyphs` URL: MapLibre then draws names in the
// browser (TinySDF) in the CSS font families `text-font` lists, the page's own, and fetches no glyph files.

const ZOOM_SHIFT = -1;
const SOURCE = 'base';
/** MapLibre draws up to this zoom (its own); the source overzooms past its last level. */
const LAST_ZOOM = 22;

type Palette = Record<MapColour, string>;

export type VectorStyleOptions = {
	/** The vector tile URL template, e.g. `/tiles/{z}/{x}/{y}.pbf`; a path is made whole with `origin`. */
	tiles: string;
	origin: string;
	palette: Palette;
	attribution: string;
	/** The last zoom (Leaflet's) the server has tiles for. */
	maxZoom: number;
	/** CSS font families for names, best first (the page's body type). */
	fonts: readonly string[];
};

const zoom = (leafletZoom: number) => Math.max(0, leafletZoom + ZOOM_SHIFT);

/** A width in pixels at each whole Leaflet zoom from `from`, as the raster tiles draw it at that zoom. */
function widthByZoom(from: number, width: (z: number) => number): ExpressionSpecification {
	const stops: number[] = [];
	for (let z = from; z <= LAST_ZOOM + 1; z++) stops.push(zoom(z), Number(width(z).toFixed(2)));
	return ['interpolate', ['exponential', 1.42], ['zoom'], ...stops] as ExpressionSpecification;
}

const ofKind = (kind: string): ExpressionSpecification => ['==', ['get', 'kind'], kind];

function layerOf(layer: MapLayer) {
	return { source: SOURCE, 'source-layer': layer };
}

/**
 * `text-font` in a weight or slant. MapLibre reads both from the first name alone; the browser skips a family
 * it does not have, so the text is drawn in the next one, in that weight or slant.
 */
function fontsIn(fonts: readonly string[], variant?: 'Bold' | 'Italic'): string[] {
	return variant ? [`${fonts[0]} ${variant}`, ...fonts] : [...fonts];
}

export function buildVectorStyle(options: VectorStyleOptions): StyleSpecification {
	const c = options.palette;
	// The sea underneath, the world layer's land over it, then the regions' detail.
	const layers: LayerSpecification[] = [
		{ id: 'sea', type: 'background', paint: { 'background-color': c.water } },
		{ id: 'earth', type: 'fill', ...layerOf('earth'), paint: { 'fill-color': c.land } },
	];

	for (const area of AREA_STYLES) {
		layers.push({
			id: `landcover-${area.kind}`,
			type: 'fill',
			...layerOf('landcover'),
			minzoom: zoom(area.minZoom),
			filter: ofKind(area.kind),
			paint: { 'fill-color': c[area.fill] },
		});
	}
	layers.push({ id: 'water', type: 'fill', ...layerOf('water'), paint: { 'fill-color': c.water } });
	for (const waterway of WATERWAY_STYLES) {
		layers.push({
			id: `waterway-${waterway.kind}`,
			type: 'line',
			...layerOf('waterway'),
			minzoom: zoom(waterway.minZoom),
			maxzoom: zoom(Math.min(waterway.maxZoom + 1, 24)),
			filter: ofKind(waterway.kind),
			layout: { 'line-cap': 'round', 'line-join': 'round' },
			paint: {
				'line-color': c.water,
				'line-width': widthByZoom(waterway.minZoom, (z) => roadWidth(waterway.base, z)),
			},
		});
	}
	for (const boundary of BOUNDARY_STYLES) {
		layers.push({
			id: `boundary-${boundary.kind}`,
			type: 'line',
			...layerOf('boundary'),
			minzoom: zoom(boundary.minZoom),
			filter: ofKind(boundary.kind),
			layout: { 'line-join': 'round' },
			paint: {
				'line-color': c[boundary.colour],
				'line-width': boundary.width,
				...(boundary.dash ? { 'line-dasharray': [...boundary.dash] } : {}),
			},
		});
	}
	layers.push({
		id: 'building',
		type: 'fill',
		...layerOf('building'),
		minzoom: zoom(BUILDING_MIN_ZOOM),
		paint: { 'fill-color': c.building },
	});
	layers.push({
		id: 'building-edge',
		type: 'line',
		...layerOf('building'),
		minzoom: zoom(BUILDING_EDGE_MIN_ZOOM),
		paint: { 'line-color': c.building_edge, 'line-width': 1 },
	});
	const railWidth = widthByZoom(RAILWAY_MIN_ZOOM, (z) => Math.max(1, roadWidth(RAILWAY_BASE, z)));
	layers.push({
		id: 'railway',
		type: 'line',
		...layerOf('railway'),
		minzoom: zoom(RAILWAY_MIN_ZOOM),
		paint: { 'line-color': c.rail, 'line-width': railWidth },
	});
	layers.push({
		id: 'railway-dash',
		type: 'line',
		...layerOf('railway'),
		minzoom: zoom(RAILWAY_DASH_MIN_ZOOM),
		paint: {
			'line-color': c.land,
			'line-width': widthByZoom(RAILWAY_DASH_MIN_ZOOM, (z) => Math.max(1, roadWidth(RAILWAY_BASE, z)) * 0.45),
			'line-dasharray': [6, 6],
		},
	});

	// Casings under every fill, so junctions join cleanly; then fills, lesser roads first.
	for (const road of ROAD_STYLES) {
		if (!road.casing) continue;
		const from = Math.max(road.minZoom, CASING_MIN_ZOOM);
		layers.push({
			id: `road-${road.kind}-casing`,
			type: 'line',
			...layerOf('road'),
			minzoom: zoom(from),
			filter: ofKind(road.kind),
			layout: { 'line-cap': 'round', 'line-join': 'round' },
			paint: {
				'line-color': c[road.casing],
				'line-width': widthByZoom(from, (z) => casingWidth(roadWidth(road.base, z))),
			},
		});
	}
	for (const road of ROAD_STYLES) {
		layers.push({
			id: `road-${road.kind}`,
			type: 'line',
			...layerOf('road'),
			minzoom: zoom(road.minZoom),
			filter: ofKind(road.kind),
			layout: { 'line-cap': road.dash ? 'butt' : 'round', 'line-join': 'round' },
			paint: {
				'line-color': c[road.fill],
				// Paths and tracks have no casing: they keep at least 1.2 pixels so they stay visible.
				'line-width': widthByZoom(road.minZoom, (z) =>
					road.casing ? roadWidth(road.base, z) : Math.max(roadWidth(road.base, z), 1.2),
				),
				...(road.dash ? { 'line-dasharray': [...road.dash] } : {}),
			},
		});
	}

	// Names, least important first: MapLibre places the topmost layer's names first, and a name that would
	// collide with one already placed is left out.
	const halo = { 'text-halo-color': c.halo, 'text-halo-width': LABEL_HALO_WIDTH };
	layers.push({
		id: 'waterway-label',
		type: 'symbol',
		...layerOf('waterway'),
		minzoom: zoom(WATERWAY_LABEL.minZoom),
		filter: ['has', 'name'],
		layout: {
			'symbol-placement': 'line',
			'text-field': ['get', 'name'],
			'text-font': fontsIn(options.fonts, 'Italic'),
			'text-size': WATERWAY_LABEL.size,
		},
		paint: { 'text-color': c[WATERWAY_LABEL.colour], ...halo },
	});
	for (const road of ROAD_STYLES) {
		layers.push({
			id: `road-${road.kind}-label`,
			type: 'symbol',
			...layerOf('road'),
			minzoom: zoom(road.labelZoom),
			filter: ['all', ofKind(road.kind), ['has', 'name']],
			layout: {
				'symbol-placement': 'line',
				'text-field': ['get', 'name'],
				'text-font': fontsIn(options.fonts),
				'text-size': ['step', ['zoom'], ROAD_LABEL.size, zoom(ROAD_LABEL.largerFrom), ROAD_LABEL.largerSize],
			},
			paint: { 'text-color': c[ROAD_LABEL.colour], ...halo },
		});
	}
	for (const place of [...PLACE_LABELS].reverse()) {
		layers.push({
			id: `place-${place.kind}`,
			type: 'symbol',
			...layerOf('place'),
			minzoom: zoom(place.from),
			// A layer shows below its maxzoom: the name's last zoom is included.
			maxzoom: zoom(place.to + 1),
			filter: ofKind(place.kind),
			layout: {
				'text-field': ['get', 'name'],
				'text-font': fontsIn(options.fonts, place.bold ? 'Bold' : undefined),
				'text-size': place.size,
				// Above the point, as the raster tiles set it.
				'text-anchor': 'bottom',
			},
			paint: { 'text-color': c[place.colour], ...halo },
		});
	}

	return {
		version: 8,
		sources: {
			[SOURCE]: {
				type: 'vector',
				// The worker fetches tiles, and resolves nothing against the page: the address must be whole.
				tiles: [options.tiles.startsWith('/') ? `${options.origin}${options.tiles}` : options.tiles],
				minzoom: 0,
				maxzoom: options.maxZoom,
				attribution: options.attribution,
			},
		},
		layers,
	};
}
