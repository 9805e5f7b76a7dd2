/**
 * A chart and a map of the same line, linked both ways: the chart's cursor marks its place on the map
 * with the values there, and pointing at the line on the map moves the chart's cursor. The workout and
 * route pages each keep one pair of these in a store; this file holds what both need and nothing of
 * either chart's or map's own code, so the server and unit tests can read it too.
 */

export type LatLng = { lat: number; lng: number };

/** Where a chart's cursor is on the line, and the chart's values there in words ("2.35 km · 412 m"). */
export type ChartPlace = LatLng & { reading: string };

/**
 * The index of the sample nearest `point`, among those with a position (a sample inside a privacy zone
 * has none, so it is never chosen); null when none has. Distances are compared on a plane scaled by the
 * cosine of the latitude, which is enough to pick the nearest of points a few metres apart.
 */
export function nearestIndex(
	lat: readonly (number | null)[],
	lng: readonly (number | null)[],
	point: LatLng,
): number | null {
	const scale = Math.cos((point.lat * Math.PI) / 180) ** 2;
	let best: number | null = null;
	let bestDistance = Number.POSITIVE_INFINITY;
	for (let i = 0; i < lat.length; i++) {
		const a = lat[i];
		const b = lng[i];
		if (a === null || b === null || a === undefined || b === undefined) continue;
		const distance = (a - point.lat) ** 2 + (b - point.lng) ** 2 * scale;
		if (distance < bestDistance) {
			bestDistance = distance;
			best = i;
		}
	}
	return best;
}

/**
 * Where a key moves a chart's cursor, as a slider moves: the arrows by a hundredth of the samples,
 * Page Up and Page Down by a tenth, Home and End to either end. From no cursor any key starts at an end.
 * Null for a key that does not move it.
 */
export function keyedIndex(key: string, current: number | null, count: number): number | null {
	if (count <= 0) return null;
	const last = count - 1;
	const step = Math.max(1, Math.round(count / 100));
	const page = Math.max(1, Math.round(count / 10));
	const from = (forward: boolean, by: number) =>
		current === null ? (forward ? 0 : last) : Math.min(last, Math.max(0, current + (forward ? by : -by)));
	switch (key) {
		case 'ArrowRight':
		case 'ArrowUp':
			return from(true, step);
		case 'ArrowLeft':
		case 'ArrowDown':
			return from(false, step);
		case 'PageUp':
			return from(true, page);
		case 'PageDown':
			return from(false, page);
		case 'Home':
			return 0;
		case 'End':
			return last;
		default:
			return null;
	}
}
