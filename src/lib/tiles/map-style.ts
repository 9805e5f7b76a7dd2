import type { MapColour } from './palette.ts';

// How the base map looks, shared by the raster renderer (server) and the MapLibre style (browser), so both
// engines draw the same map. Zooms are Leaflet's (256-pixel tiles); widths are pixels at that zoom.

export type RoadStyle = {
	kind: string;
	minZoom: number;
	/** Width in pixels at zoom 14; see `roadWidth`. */
	base: number;
	fill: MapColour;
	casing: MapColour | null;
	/** Dash and gap as multiples of the line's width. */
	dash?: readonly [number, number];
	labelZoom: number;
};

/** Drawn in this order: lesser roads first so major roads cross over them. */
export const ROAD_STYLES: readonly RoadStyle[] = [
	{ kind: 'track', minZoom: 13, base: 1.1, fill: 'track', casing: null, dash: [3, 2], labelZoom: 17 },
	{ kind: 'path', minZoom: 14, base: 1, fill: 'path', casing: null, dash: [2.5, 1.5], labelZoom: 17 },
	{ kind: 'service', minZoom: 14, base: 1.2, fill: 'road', casing: 'casing', labelZoom: 17 },
	{ kind: 'minor', minZoom: 12, base: 1.9, fill: 'road', casing: 'casing', labelZoom: 15 },
	{ kind: 'tertiary', minZoom: 11, base: 2.4, fill: 'secondary', casing: 'casing', labelZoom: 15 },
	{ kind: 'secondary', minZoom: 9, base: 2.8, fill: 'secondary', casing: 'casing_major', labelZoom: 15 },
	{ kind: 'primary', minZoom: 8, base: 3.2, fill: 'primary', casing: 'casing_major', labelZoom: 14 },
	{ kind: 'motorway', minZoom: 5, base: 3.6, fill: 'motorway', casing: 'casing_major', labelZoom: 14 },
];

/** Road casings show from this zoom. */
export const CASING_MIN_ZOOM = 12;

/** Land cover, drawn in this order. */
export const AREA_STYLES: readonly { kind: string; fill: MapColour; minZoom: number }[] = [
	{ kind: 'ice', fill: 'ice', minZoom: 9 },
	{ kind: 'rock', fill: 'rock', minZoom: 11 },
	{ kind: 'grass', fill: 'grass', minZoom: 11 },
	{ kind: 'pitch', fill: 'pitch', minZoom: 13 },
	{ kind: 'wood', fill: 'wood', minZoom: 9 },
	{ kind: 'park', fill: 'park', minZoom: 10 },
];

export const WATERWAY_STYLES: readonly { kind: string; minZoom: number; maxZoom: number; base: number }[] = [
	// The world layer's large rivers (1:50 m): too coarse to sit beside streets, so only at small scales.
	{ kind: 'major_river', minZoom: 4, maxZoom: 9, base: 4.2 },
	{ kind: 'river', minZoom: 8, maxZoom: 99, base: 2.4 },
	{ kind: 'stream', minZoom: 13, maxZoom: 99, base: 1 },
];

/** Borders of the world layer: states dashed under countries. Widths in pixels. */
export const BOUNDARY_STYLES: readonly {
	kind: string;
	minZoom: number;
	width: number;
	colour: MapColour;
	dash?: readonly [number, number];
}[] = [
	{ kind: 'state', minZoom: 4, width: 0.8, colour: 'boundary', dash: [4, 3] },
	{ kind: 'country', minZoom: 0, width: 1.3, colour: 'boundary' },
];

export const BUILDING_MIN_ZOOM = 14;
/** Building outlines show from this zoom. */
export const BUILDING_EDGE_MIN_ZOOM = 16;
export const RAILWAY_MIN_ZOOM = 11;
/** Railways are drawn at least 1 pixel wide, at this base width. */
export const RAILWAY_BASE = 1.2;
/** Railways get their dashed middle from this zoom. */
export const RAILWAY_DASH_MIN_ZOOM = 14;

// Names. Where two collide, the more important wins: places, then streets by class, then waterways.

/** Street names show from each road class's `labelZoom`, at this size in pixels, a pixel larger from `largerFrom`. */
export const ROAD_LABEL: { colour: MapColour; size: number; largerSize: number; largerFrom: number } = {
	colour: 'label',
	size: 11,
	largerSize: 12,
	largerFrom: 17,
};

/** River and stream names, in italics, from this zoom. */
export const WATERWAY_LABEL: { colour: MapColour; size: number; minZoom: number } = {
	colour: 'water_label',
	size: 12,
	minZoom: 14,
};

export type PlaceLabelStyle = {
	kind: string;
	/** The first and last zoom the name shows at. */
	from: number;
	to: number;
	/** Size in pixels. */
	size: number;
	bold: boolean;
	colour: MapColour;
};

/** Place names, most important first. */
export const PLACE_LABELS: readonly PlaceLabelStyle[] = [
	{ kind: 'country', from: 2, to: 6, size: 13, bold: true, colour: 'label_soft' },
	{ kind: 'metropolis', from: 4, to: 15, size: 15, bold: true, colour: 'label' },
	{ kind: 'state', from: 5, to: 8, size: 12, bold: false, colour: 'label_soft' },
	{ kind: 'large_city', from: 6, to: 15, size: 14, bold: true, colour: 'label' },
	{ kind: 'city', from: 8, to: 15, size: 16, bold: true, colour: 'label' },
	{ kind: 'town', from: 10, to: 16, size: 14, bold: true, colour: 'label' },
	{ kind: 'village', from: 12, to: 16, size: 13, bold: false, colour: 'label' },
	{ kind: 'suburb', from: 13, to: 16, size: 12, bold: false, colour: 'label_soft' },
	{ kind: 'quarter', from: 14, to: 17, size: 12, bold: false, colour: 'label_soft' },
	{ kind: 'neighbourhood', from: 15, to: 17, size: 11, bold: false, colour: 'label_soft' },
	{ kind: 'hamlet', from: 14, to: 17, size: 11, bold: false, colour: 'label' },
];

/** The halo round every name, in pixels beyond the letters' edge, in the `halo` colour. */
export const LABEL_HALO_WIDTH = 1.2;

/** Line width in pixels for a line of this base width at this zoom. */
export function roadWidth(base: number, z: number): number {
	return Math.max(0.6, base * 1.42 ** (z - 14));
}

/** The width of a road's casing (both edges together) for a fill this wide, in pixels. */
export function casingWidth(width: number): number {
	return width + Math.max(1, Math.min(2, width / 4)) * 2;
}
