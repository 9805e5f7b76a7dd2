import { METRES_PER_FOOT, METRES_PER_KM, METRES_PER_MILE, measurementSystemForPlace } from '../core/units';
import type { MercatorView } from '../tiles/tile-math';
import { mileMarkerSpacing } from '../workout-files/route-tools';

/** Pure drawing helpers for the view, print and embed pages: no DOM, no map library. */

export type Unit = 'mi' | 'km';

/** A member's own setting; visitors get miles in a US locale and kilometres elsewhere. */
export function unitFor(measurementSystem: string | null, acceptLanguage: string | null): Unit {
	if (measurementSystem) return measurementSystem === 'imperial' ? 'mi' : 'km';
	return measurementSystemForPlace({ locale: acceptLanguage }) === 'imperial' ? 'mi' : 'km';
}

/** Distances with 2 decimals in the unit. */
export function formatDistance(metres: number, unit: Unit): string {
	const value = metres / (unit === 'mi' ? METRES_PER_MILE : METRES_PER_KM);
	return `${value.toFixed(2)} ${unit}`;
}

export function formatHeight(metres: number | null, unit: Unit): string {
	if (metres === null) return '—';
	return unit === 'mi' ? `${Math.round(metres / METRES_PER_FOOT)} ft` : `${Math.round(metres)} m`;
}

const mercatorY = (lat: number) => {
	const r = (Math.max(-85, Math.min(85, lat)) * Math.PI) / 180;
	return Math.log(Math.tan(Math.PI / 4 + r / 2));
};

/** Fits a line into a width × height box (Web Mercator, north up, aspect kept). */
export function createProjection(path: readonly [number, number][], width: number, height: number, pad = 16) {
	let minX = Number.POSITIVE_INFINITY;
	let maxX = Number.NEGATIVE_INFINITY;
	let minY = Number.POSITIVE_INFINITY;
	let maxY = Number.NEGATIVE_INFINITY;
	for (const [lat, lng] of path) {
		const x = (lng * Math.PI) / 180;
		const y = mercatorY(lat);
		minX = Math.min(minX, x);
		maxX = Math.max(maxX, x);
		minY = Math.min(minY, y);
		maxY = Math.max(maxY, y);
	}
	const spanX = Math.max(maxX - minX, 1e-9);
	const spanY = Math.max(maxY - minY, 1e-9);
	const scale = Math.min((width - 2 * pad) / spanX, (height - 2 * pad) / spanY);
	const offsetX = (width - spanX * scale) / 2;
	const offsetY = (height - spanY * scale) / 2;
	const project = (lat: number, lng: number): [number, number] => [
		Math.round((offsetX + ((lng * Math.PI) / 180 - minX) * scale) * 10) / 10,
		Math.round((offsetY + (maxY - mercatorY(lat)) * scale) * 10) / 10,
	];
	// The view itself, so base map tiles can be laid under the line.
	const view: MercatorView = { minX, maxY, scale, offsetX, offsetY, width, height };
	return Object.assign(project, { view });
}

export function svgPolyline(
	path: readonly [number, number][],
	project: (lat: number, lng: number) => [number, number],
) {
	return path.map(([lat, lng]) => project(lat, lng).join(',')).join(' ');
}

/**
 * A list card's thumbnail of a route: the `points` of an SVG polyline fitted into a width × height
 * box, north up; null for a line of fewer than two points (nothing to draw).
 */
export function thumbnailPoints(
	line: readonly [number, number][],
	width: number,
	height: number,
	pad = 4,
): string | null {
	if (line.length < 2) return null;
	return svgPolyline(line, createProjection(line, width, height, pad));
}

/**
 * Mile or km markers along the line, spaced by the route's length (25 from 200 units, 10 from 100, 5 from
 * 20, 2 above 13, else 1), placed by interpolating between the points around each mark.
 */
export function distanceMarkers(
	path: readonly [number, number][],
	distances: readonly number[],
	unit: Unit,
): { label: string; lat: number; lng: number }[] {
	const total = distances.at(-1) ?? 0;
	const unitM = unit === 'mi' ? METRES_PER_MILE : METRES_PER_KM;
	const step = mileMarkerSpacing(total, unit);
	const markers: { label: string; lat: number; lng: number }[] = [];
	let i = 1;
	for (let mark = step; mark * unitM < total; mark += step) {
		const at = mark * unitM;
		while (i < distances.length - 1 && distances[i] < at) i++;
		const span = distances[i] - distances[i - 1] || 1;
		const t = (at - distances[i - 1]) / span;
		markers.push({
			label: String(mark),
			lat: path[i - 1][0] + (path[i][0] - path[i - 1][0]) * t,
			lng: path[i - 1][1] + (path[i][1] - path[i - 1][1]) * t,
		});
	}
	return markers;
}

/** An SVG path of height over distance, or null when the route has no heights. */
export function elevationProfilePath(
	distances: readonly number[],
	elevations: readonly (number | null)[] | null,
	width: number,
	height: number,
): { line: string; area: string; min: number; max: number } | null {
	if (!elevations) return null;
	const known = distances.flatMap((d, i) => {
		const e = elevations[i];
		return e === null || e === undefined ? [] : [[d, e] as const];
	});
	if (known.length < 2) return null;
	const total = distances.at(-1) || 1;
	const min = Math.min(...known.map(([, e]) => e));
	const max = Math.max(...known.map(([, e]) => e));
	const span = Math.max(max - min, 10);
	const points = known.map(
		([d, e]) =>
			`${Math.round((d / total) * width * 10) / 10},${Math.round((height - ((e - min) / span) * (height - 4) - 2) * 10) / 10}`,
	);
	const line = `M${points.join(' L')}`;
	return { line, area: `${line} L${width},${height} L0,${height} Z`, min, max };
}

export type ElevationSeries = {
	/** Distance from the start in the unit (mi or km), 3 decimals. */
	x: number[];
	/** Height in feet (mi) or metres (km), 1 decimal. */
	y: number[];
	lat: number[];
	lng: number[];
};

/**
 * The elevation chart's data: distance in the member's unit against height in feet or metres, with
 * each sample's position for the map. Points without a height are left out. Long routes keep the
 * lowest and highest point of each of `maxPoints / 2` stretches, so climbs and dips survive and the
 * page carries at most `maxPoints` samples whatever the route's length.
 */
export function elevationSeries(
	path: readonly [number, number][],
	distances: readonly number[],
	elevations: readonly (number | null)[] | null,
	unit: Unit,
	maxPoints = 600,
): ElevationSeries | null {
	if (!elevations) return null;
	const known: number[] = [];
	for (let i = 0; i < path.length; i++) {
		const e = elevations[i];
		if (e !== null && e !== undefined && Number.isFinite(e)) known.push(i);
	}
	if (known.length < 2) return null;
	let kept = known;
	if (known.length > maxPoints) {
		const buckets = Math.max(1, Math.floor(maxPoints / 2));
		const size = known.length / buckets;
		kept = [];
		for (let b = 0; b < buckets; b++) {
			const slice = known.slice(Math.floor(b * size), Math.floor((b + 1) * size));
			if (slice.length === 0) continue;
			let low = slice[0];
			let high = slice[0];
			for (const i of slice) {
				if ((elevations[i] as number) < (elevations[low] as number)) low = i;
				if ((elevations[i] as number) > (elevations[high] as number)) high = i;
			}
			for (const i of low === high ? [low] : [Math.min(low, high), Math.max(low, high)]) kept.push(i);
		}
		if (kept[0] !== known[0]) kept.unshift(known[0]);
		if (kept.at(-1) !== known.at(-1)) kept.push(known.at(-1) as number);
	}
	const unitM = unit === 'mi' ? METRES_PER_MILE : METRES_PER_KM;
	const heightM = unit === 'mi' ? METRES_PER_FOOT : 1;
	return {
		x: kept.map((i) => Math.round((distances[i] / unitM) * 1000) / 1000),
		y: kept.map((i) => Math.round(((elevations[i] as number) / heightM) * 10) / 10),
		lat: kept.map((i) => Math.round(path[i][0] * 1e6) / 1e6),
		lng: kept.map((i) => Math.round(path[i][1] * 1e6) / 1e6),
	};
}

/** A marker's label on the map at the current zoom: its centre in pixels and its size. */
export type MarkerBox = { x: number; y: number; width: number; height: number };

/** Every marker, every 2nd, 5th, 10th…: the markers left on show keep round numbers. */
const MARKER_STRIDES = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];

function markerBoxesOverlap(a: MarkerBox, b: MarkerBox): boolean {
	return Math.abs(a.x - b.x) * 2 < a.width + b.width && Math.abs(a.y - b.y) * 2 < a.height + b.height;
}

/**
 * Which distance markers to show at a zoom (their boxes in that zoom's pixels): the smallest
 * stride whose markers never overlap. Where a route comes back on itself even that can collide,
 * so a later marker that would cover an earlier one is left out.
 */
export function chooseVisibleMarkers(boxes: readonly MarkerBox[]): boolean[] {
	let best: boolean[] = boxes.map(() => false);
	for (const stride of MARKER_STRIDES) {
		const shown: MarkerBox[] = [];
		let collided = false;
		const visible = boxes.map((box, index) => {
			if ((index + 1) % stride !== 0) return false;
			if (shown.some((other) => markerBoxesOverlap(box, other))) {
				collided = true;
				return false;
			}
			shown.push(box);
			return true;
		});
		best = visible;
		if (!collided) break;
	}
	return best;
}
