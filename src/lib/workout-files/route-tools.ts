import { KM_M, MILE_M } from './geo';

export interface LatLng {
	lat: number;
	lng: number;
}

/** Tolerance in degrees by point count; segments of 200 points or fewer are not simplified. */
export function offroadTolerance(pointCount: number): number | null {
	if (pointCount <= 200) return null;
	if (pointCount < 1000) return 5e-5;
	if (pointCount < 4000) return 1e-4;
	return 1.5e-4;
}

/**
 * Douglas–Peucker simplification of an off-road route segment. Distances are measured in
 * plain degrees, as the tolerances are given, perpendicular to the chord between kept points. The
 * first and last points always stay. Iterative with an explicit stack, so a 400,000-point segment
 * cannot overflow the call stack.
 */
export function simplifyOffroadSegment<T extends LatLng>(points: readonly T[]): T[] {
	const tolerance = offroadTolerance(points.length);
	if (tolerance === null) return points.slice();
	return simplifyDouglasPeucker(points, tolerance);
}

export function simplifyDouglasPeucker<T extends LatLng>(points: readonly T[], tolerance: number): T[] {
	const n = points.length;
	if (n <= 2) return points.slice();
	const keep = new Uint8Array(n);
	keep[0] = 1;
	keep[n - 1] = 1;
	const tol2 = tolerance * tolerance;
	const stack: number[] = [0, n - 1];
	while (stack.length > 0) {
		const last = stack.pop() as number;
		const first = stack.pop() as number;
		const ax = points[first].lng;
		const ay = points[first].lat;
		const dx = points[last].lng - ax;
		const dy = points[last].lat - ay;
		const len2 = dx * dx + dy * dy;
		let maxD2 = -1;
		let index = -1;
		for (let i = first + 1; i < last; i++) {
			const px = points[i].lng - ax;
			const py = points[i].lat - ay;
			let d2: number;
			if (len2 === 0) d2 = px * px + py * py;
			else {
				// distance to the segment (clamped), as simplify-js and Leaflet measure it
				let t = (px * dx + py * dy) / len2;
				t = Math.max(0, Math.min(1, t));
				const ex = px - t * dx;
				const ey = py - t * dy;
				d2 = ex * ex + ey * ey;
			}
			if (d2 > maxD2) {
				maxD2 = d2;
				index = i;
			}
		}
		if (maxD2 > tol2) {
			keep[index] = 1;
			stack.push(first, index, index, last);
		}
	}
	const out: T[] = [];
	for (let i = 0; i < n; i++) if (keep[i]) out.push(points[i]);
	return out;
}

/**
 * Distance between mile (or km) markers on a route map, in units: 25 when the total is at
 * least 200 units, 10 from 100, 5 from 20, 2 above 13, else 1.
 */
export function mileMarkerSpacing(totalDistanceM: number, unit: 'mi' | 'km'): number {
	const units = totalDistanceM / (unit === 'mi' ? MILE_M : KM_M);
	if (units >= 200) return 25;
	if (units >= 100) return 10;
	if (units >= 20) return 5;
	if (units > 13) return 2;
	return 1;
}
