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
