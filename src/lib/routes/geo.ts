import { EARTH_RADIUS_M } from '../core/units';
import { computeElevationChange } from '../workout-files/metrics';

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

/**
 * Climb and descent over the known heights (points without one are skipped), with the product's one climb
 * count (computeElevationChange: 5 m hysteresis), unsmoothed because a route's points may lie kilometres
 * apart and take their heights from the height map, which does not jitter.
 */
export function summariseElevation(elevations: readonly (number | null | undefined)[]): ElevationSummary {
	const known: number[] = [];
	let min = Number.POSITIVE_INFINITY;
	let max = Number.NEGATIVE_INFINITY;
	for (const value of elevations) {
		if (value === null || value === undefined || !Number.isFinite(value)) continue;
		known.push(value);
		min = Math.min(min, value);
		max = Math.max(max, value);
	}
	if (known.length === 0) return { ascentM: null, descentM: null, minM: null, maxM: null };
	const { gain, loss } = computeElevationChange(known, [0], { smooth: false });
	const round = (n: number) => Math.round(n * 10) / 10;
	return {
		ascentM: round(gain),
		descentM: round(loss),
		minM: round(min),
		maxM: round(max),
	};
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

/**
 * The line with at most `maxPoints` points that keeps its shape: Douglas–Peucker (on a flat
 * projection around the line) at the smallest tolerance, from a thousandth of the line's extent up,
 * that leaves few enough points. One pass ranks every point by the tolerance that would drop it, so
 * a long line is not simplified over and over. Start and finish always stay.
 */
export function simplifyLine(path: readonly [number, number][], maxPoints: number): [number, number][] {
	const n = path.length;
	if (n <= 2) return path.map(([lat, lng]) => [lat, lng]);
	const cosLat = Math.cos(toRadians(path[0][0]));
	const xs = new Float64Array(n);
	const ys = new Float64Array(n);
	let minX = Number.POSITIVE_INFINITY;
	let maxX = Number.NEGATIVE_INFINITY;
	let minY = Number.POSITIVE_INFINITY;
	let maxY = Number.NEGATIVE_INFINITY;
	for (let i = 0; i < n; i++) {
		xs[i] = path[i][1] * cosLat;
		ys[i] = path[i][0];
		minX = Math.min(minX, xs[i]);
		maxX = Math.max(maxX, xs[i]);
		minY = Math.min(minY, ys[i]);
		maxY = Math.max(maxY, ys[i]);
	}
	const finest = (Math.max(maxX - minX, maxY - minY, 1e-9) / 1000) ** 2;
	// The squared tolerance at which each point would go: its distance from the chord it splits,
	// capped by the chord's own (a point stays only while the one that made its chord stays).
	const weight = new Float64Array(n);
	const stack: number[] = [0, n - 1, Number.POSITIVE_INFINITY];
	while (stack.length > 0) {
		const cap = stack.pop() as number;
		const last = stack.pop() as number;
		const first = stack.pop() as number;
		const dx = xs[last] - xs[first];
		const dy = ys[last] - ys[first];
		const length = dx * dx + dy * dy;
		let farthest = -1;
		let farthestDistance = 0;
		for (let i = first + 1; i < last; i++) {
			const t =
				length === 0
					? 0
					: Math.max(0, Math.min(1, ((xs[i] - xs[first]) * dx + (ys[i] - ys[first]) * dy) / length));
			const ex = xs[first] + t * dx - xs[i];
			const ey = ys[first] + t * dy - ys[i];
			const distance = ex * ex + ey * ey;
			if (distance > farthestDistance) {
				farthest = i;
				farthestDistance = distance;
			}
		}
		// Below the finest tolerance nothing in this stretch can stay: no need to rank it.
		if (farthest < 0 || farthestDistance <= finest) continue;
		const ranked = Math.min(farthestDistance, cap);
		weight[farthest] = ranked;
		stack.push(first, farthest, ranked, farthest, last, ranked);
	}
	const ranks = Array.from(weight.subarray(1, n - 1))
		.filter((value) => value > finest)
		.sort((a, b) => b - a);
	// Strictly above the first rank that would not fit, so ties never push past maxPoints.
	const threshold = ranks.length > maxPoints - 2 ? ranks[Math.max(0, maxPoints - 2)] : finest;
	const kept: [number, number][] = [[path[0][0], path[0][1]]];
	for (let i = 1; i < n - 1; i++) if (weight[i] > threshold) kept.push([path[i][0], path[i][1]]);
	kept.push([path[n - 1][0], path[n - 1][1]]);
	return kept;
}
