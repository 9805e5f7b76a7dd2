// Small geodesy helpers; distances in metres.

const EARTH_RADIUS = 6371008.8;
const RAD = Math.PI / 180;

export function measureDistance(lat1: number, lon1: number, lat2: number, lon2: number): number {
	const p1 = lat1 * RAD;
	const p2 = lat2 * RAD;
	const dp = p2 - p1;
	const dl = (lon2 - lon1) * RAD;
	const a = Math.sin(dp / 2) ** 2 + Math.cos(p1) * Math.cos(p2) * Math.sin(dl / 2) ** 2;
	return 2 * EARTH_RADIUS * Math.asin(Math.min(1, Math.sqrt(a)));
}

/**
 * Distance between nearby points on a flat local frame: within 0.1% of the great-circle distance below
 * ~20 km, and several times cheaper. Used for the steps of road shapes, consistently everywhere.
 */
export function measureStep(lat1: number, lon1: number, lat2: number, lon2: number): number {
	const x = (lon2 - lon1) * Math.cos(((lat1 + lat2) / 2) * RAD);
	const y = lat2 - lat1;
	return Math.sqrt(x * x + y * y) * RAD * EARTH_RADIUS;
}

/** Compass bearing from the first point to the second, degrees 0–360. */
export function measureBearing(lat1: number, lon1: number, lat2: number, lon2: number): number {
	const p1 = lat1 * RAD;
	const p2 = lat2 * RAD;
	const dl = (lon2 - lon1) * RAD;
	const y = Math.sin(dl) * Math.cos(p2);
	const x = Math.cos(p1) * Math.sin(p2) - Math.sin(p1) * Math.cos(p2) * Math.cos(dl);
	return (Math.atan2(y, x) / RAD + 360) % 360;
}

export interface Projection {
	/** Fraction 0–1 along the segment. */
	t: number;
	lat: number;
	lon: number;
	distance: number;
}

/** Projects a point onto a short segment in a local flat frame (fine for snapping distances). */
export function projectOnSegment(
	lat: number,
	lon: number,
	lat1: number,
	lon1: number,
	lat2: number,
	lon2: number,
): Projection {
	const kx = Math.cos(lat * RAD);
	const ax = (lon1 - lon) * kx;
	const ay = lat1 - lat;
	const bx = (lon2 - lon) * kx;
	const by = lat2 - lat;
	const dx = bx - ax;
	const dy = by - ay;
	const lengthSquared = dx * dx + dy * dy;
	let t = lengthSquared > 0 ? -(ax * dx + ay * dy) / lengthSquared : 0;
	t = Math.max(0, Math.min(t, 1));
	const plat = lat1 + (lat2 - lat1) * t;
	const plon = lon1 + (lon2 - lon1) * t;
	return { t, lat: plat, lon: plon, distance: measureDistance(lat, lon, plat, plon) };
}
