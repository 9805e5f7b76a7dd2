import type { Bounds } from './contract.ts';

// Web Mercator tile arithmetic (the XYZ scheme Leaflet and every tile service use).

const MAX_LATITUDE = 85.0511287798066;

/** The fractional tile position of a point at a zoom. */
export function lonLatToTile(lon: number, lat: number, z: number): { x: number; y: number } {
	const n = 2 ** z;
	const clamped = Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat));
	const radians = (clamped * Math.PI) / 180;
	return {
		x: ((lon + 180) / 360) * n,
		y: ((1 - Math.log(Math.tan(radians) + 1 / Math.cos(radians)) / Math.PI) / 2) * n,
	};
}

/** The longitude and latitude of a (fractional) tile position. */
export function tileToLonLat(x: number, y: number, z: number): { lon: number; lat: number } {
	const n = 2 ** z;
	const lon = (x / n) * 360 - 180;
	const lat = (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / n))) * 180) / Math.PI;
	return { lon, lat };
}

/** A tile's bounds: west, south, east, north. */
export function tileBounds(z: number, x: number, y: number): Bounds {
	const northWest = tileToLonLat(x, y, z);
	const southEast = tileToLonLat(x + 1, y + 1, z);
	return [northWest.lon, southEast.lat, southEast.lon, northWest.lat];
}

export function boundsIntersect(a: Bounds, b: Bounds): boolean {
	return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}

/** The tiles covering bounds at a zoom, as inclusive ranges. */
export function tileRange(
	bounds: Bounds,
	z: number,
): { minX: number; maxX: number; minY: number; maxY: number } {
	const last = 2 ** z - 1;
	const northWest = lonLatToTile(bounds[0], bounds[3], z);
	const southEast = lonLatToTile(bounds[2], bounds[1], z);
	const clamp = (value: number) => Math.max(0, Math.min(last, Math.floor(value)));
	return {
		minX: clamp(northWest.x),
		maxX: clamp(southEast.x),
		minY: clamp(northWest.y),
		maxY: clamp(southEast.y),
	};
}

/** A Web Mercator view: x is longitude in radians, y is ln tan(π/4 + φ/2), both scaled to pixels. */
export type MercatorView = {
	minX: number;
	maxY: number;
	scale: number;
	offsetX: number;
	offsetY: number;
	width: number;
	height: number;
};

/**
 * The tiles under a view and where each sits in its pixels, at the zoom whose tiles are drawn at
 * 256–512 pixels (high-density tiles then stay sharp, printed too).
 */
export function tilesUnderView(
	view: MercatorView,
	maxZoom = 18,
): { z: number; x: number; y: number; left: number; top: number; size: number }[] {
	const z = Math.max(0, Math.min(maxZoom, Math.floor(Math.log2((view.scale * 2 * Math.PI) / 256))));
	const n = 2 ** z;
	const tile = (2 * Math.PI) / n;
	const size = tile * view.scale;
	const west = view.minX - view.offsetX / view.scale;
	const east = view.minX + (view.width - view.offsetX) / view.scale;
	const north = view.maxY + view.offsetY / view.scale;
	const south = view.maxY - (view.height - view.offsetY) / view.scale;
	const clamp = (value: number) => Math.max(0, Math.min(n - 1, Math.floor(value)));
	const tiles = [];
	for (let y = clamp((Math.PI - north) / tile); y <= clamp((Math.PI - south) / tile); y++) {
		for (let x = clamp((west + Math.PI) / tile); x <= clamp((east + Math.PI) / tile); x++) {
			const left = view.offsetX + (x * tile - Math.PI - view.minX) * view.scale;
			const top = view.offsetY + (view.maxY - (Math.PI - y * tile)) * view.scale;
			tiles.push({
				z,
				x,
				y,
				left: Math.round(left * 10) / 10,
				top: Math.round(top * 10) / 10,
				size: Math.round(size * 10) / 10,
			});
		}
	}
	return tiles;
}

/**
 * A tile URL from a Leaflet-style template: {z}, {x}, {y}, {r} (`@2x`) and {s}, the subdomain Leaflet itself picks
 * of its default a, b, c, so a page and a Leaflet map ask for one address. Self-contained: the planner's inline
 * first paint carries its source.
 */
export function fillTileUrl(
	template: string,
	tile: { z: number; x: number; y: number },
	retina: boolean,
): string {
	return template
		.replace('{z}', String(tile.z))
		.replace('{x}', String(tile.x))
		.replace('{y}', String(tile.y))
		.replace('{s}', 'abc'[Math.abs(tile.x + tile.y) % 3])
		.replace('{r}', retina ? '@2x' : '');
}
