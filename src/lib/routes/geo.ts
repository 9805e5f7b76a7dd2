import { EARTH_RADIUS_M } from '../core/units';

const toRadians = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle distance in metres (with the product's one earth radius). */
export function haversineM(aLat: number, aLng: number, bLat: number, bLng: number): number {
	const dLat = toRadians(bLat - aLat);
	const dLng = toRadians(bLng - aLng);
	const h =
		Math.sin(dLat / 2) ** 2 + Math.cos(toRadians(aLat)) * Math.cos(toRadians(bLat)) * Math.sin(dLng / 2) ** 2;
	return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Distance from the start at every point, in metres. */
export function cumulativeDistances(path: readonly [number, number][]): number[] {
	const out = new Array<number>(path.length);
	let total = 0;
	for (let i = 0; i < path.length; i++) {
		if (i > 0) total += haversineM(path[i - 1][0], path[i - 1][1], path[i][0], path[i][1]);
		out[i] = total;
	}
	return out;
}

export type ElevationSummary = {
	ascentM: number | null;
	descentM: number | null;
	minM: number | null;
	maxM: number | null;
};

/** Climb and descent over the known heights (points without one are skipped). */
export function summariseElevation(elevations: readonly (number | null | undefined)[]): ElevationSummary {
	let ascent = 0;
	let descent = 0;
	let min = Number.POSITIVE_INFINITY;
	let max = Number.NEGATIVE_INFINITY;
	let previous: number | null = null;
	for (const value of elevations) {
		if (value === null || value === undefined || !Number.isFinite(value)) continue;
		if (previous !== null) {
			const step = value - previous;
			if (step > 0) ascent += step;
			else descent -= step;
		}
		previous = value;
		min = Math.min(min, value);
		max = Math.max(max, value);
	}
	if (previous === null) return { ascentM: null, descentM: null, minM: null, maxM: null };
	const round = (n: number) => Math.round(n * 10) / 10;
	return { ascentM: round(ascent), descentM: round(descent), minM: round(min), maxM: round(max) };
}

/** Index of the path point closest to a position (for placing custom notes along the route). */
export function nearestPointIndex(path: readonly [number, number][], lat: number, lng: number): number {
	let best = 0;
	let bestDistance = Number.POSITIVE_INFINITY;
	const cosLat = Math.cos(toRadians(lat));
	for (let i = 0; i < path.length; i++) {
		const dy = path[i][0] - lat;
		const dx = (path[i][1] - lng) * cosLat;
		const d = dx * dx + dy * dy;
		if (d < bestDistance) {
			bestDistance = d;
			best = i;
		}
	}
	return best;
}

/** Half-width in degrees of a box that holds every point within `radiusM` of a latitude. */
export function boundingBox(lat: number, lng: number, radiusM: number) {
	const dLat = (radiusM / EARTH_RADIUS_M) * (180 / Math.PI);
	const cosLat = Math.cos(toRadians(lat));
	const minLat = lat - dLat;
	const maxLat = lat + dLat;
	// Near a pole or across the antimeridian the longitude band is the whole world.
	if (minLat <= -90 || maxLat >= 90 || cosLat < 1e-6) return { minLat, maxLat, minLng: null, maxLng: null };
	const dLng = dLat / cosLat;
	if (lng - dLng < -180 || lng + dLng > 180) return { minLat, maxLat, minLng: null, maxLng: null };
	return { minLat, maxLat, minLng: lng - dLng, maxLng: lng + dLng };
}
