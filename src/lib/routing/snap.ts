import KDBush from 'kdbush';
import { measureDistance, projectOnSegment } from './geo.ts';
import { getSegmentTime, type RoadGraph } from './graph.ts';

// Nearest-road search: a kd-tree over every shape point, plus extra points every DENSIFY metres along long
// stretches, so the nearest point of any stretch lies within DENSIFY of an indexed point.
const DENSIFY = 25;

export interface SnapIndex {
	/** KDBush data (x = lon, y = lat, Float32). */
	tree: KDBush;
	/** For indexed point i ≥ shape count: the shape index where its stretch starts. */
	extra: Uint32Array;
}

export interface Snap {
	segment: number;
	/** Metres from the segment's first shape point. */
	offset: number;
	lat: number;
	lon: number;
	distance: number;
}

export function buildSnapIndex(graph: RoadGraph): SnapIndex {
	const shapeCount = graph.shapeLat.length;
	const extra: number[] = [];
	const extraLat: number[] = [];
	const extraLon: number[] = [];
	for (let s = 0; s < graph.segmentCount; s++) {
		for (let k = graph.segShapeStart[s]; k < graph.segShapeStart[s + 1] - 1; k++) {
			const lat1 = graph.shapeLat[k] / 1e6;
			const lon1 = graph.shapeLon[k] / 1e6;
			const lat2 = graph.shapeLat[k + 1] / 1e6;
			const lon2 = graph.shapeLon[k + 1] / 1e6;
			const length = measureDistance(lat1, lon1, lat2, lon2);
			const pieces = Math.floor(length / DENSIFY);
			for (let i = 1; i <= pieces; i++) {
				const t = i / (pieces + 1);
				extra.push(k);
				extraLat.push(lat1 + (lat2 - lat1) * t);
				extraLon.push(lon1 + (lon2 - lon1) * t);
			}
		}
	}
	const tree = new KDBush(shapeCount + extra.length, 64, Float32Array);
	for (let i = 0; i < shapeCount; i++) tree.add(graph.shapeLon[i] / 1e6, graph.shapeLat[i] / 1e6);
	for (let i = 0; i < extra.length; i++) tree.add(extraLon[i], extraLat[i]);
	tree.finish();
	return { tree, extra: Uint32Array.from(extra) };
}

/** The segment whose shape holds shape point p. */
export function findSegmentOfShape(graph: RoadGraph, p: number): number {
	const starts = graph.segShapeStart;
	let lo = 0;
	let hi = graph.segmentCount - 1;
	while (lo < hi) {
		const mid = (lo + hi + 1) >>> 1;
		if (starts[mid] <= p) lo = mid;
		else hi = mid - 1;
	}
	return lo;
}

function isUsable(graph: RoadGraph, modeIndex: number, segment: number): boolean {
	if (modeIndex < 0) return true;
	return getSegmentTime(graph, modeIndex, segment, 0) > 0 || getSegmentTime(graph, modeIndex, segment, 1) > 0;
}

/** Nearest point on a road usable by the mode (any mode when modeIndex < 0) within maxDistance metres. */
export function snapToRoad(
	graph: RoadGraph,
	index: SnapIndex,
	lat: number,
	lon: number,
	modeIndex: number,
	maxDistance: number,
): Snap | null {
	const shapeCount = graph.shapeLat.length;
	const seen = new Set<number>();
	for (const radius of [60, 250, 1000, maxDistance]) {
		if (radius > maxDistance) continue;
		const reach = radius + DENSIFY + 5;
		const dLat = reach / 111_000;
		const dLon = reach / (111_000 * Math.max(0.05, Math.cos((lat * Math.PI) / 180)));
		const ids = index.tree.range(lon - dLon, lat - dLat, lon + dLon, lat + dLat);
		let best: { segment: number; k: number; t: number; lat: number; lon: number; distance: number } | null =
			null;
		seen.clear();
		for (const id of ids) {
			const p = id < shapeCount ? id : index.extra[id - shapeCount];
			// Every segment holds its own copy of its shape points, so a point belongs to exactly one segment.
			const segment = findSegmentOfShape(graph, p);
			for (const k of [p - 1, p]) {
				if (k < graph.segShapeStart[segment] || k >= graph.segShapeStart[segment + 1] - 1) continue;
				if (seen.has(k)) continue;
				seen.add(k);
				if (!isUsable(graph, modeIndex, segment)) continue;
				const projection = projectOnSegment(
					lat,
					lon,
					graph.shapeLat[k] / 1e6,
					graph.shapeLon[k] / 1e6,
					graph.shapeLat[k + 1] / 1e6,
					graph.shapeLon[k + 1] / 1e6,
				);
				if (!best || projection.distance < best.distance) best = { segment, k, ...projection };
			}
		}
		if (best && best.distance <= radius) {
			let offset = 0;
			for (let i = graph.segShapeStart[best.segment]; i < best.k; i++) {
				offset += measureShapeStep(graph, i);
			}
			offset += measureShapeStep(graph, best.k) * best.t;
			return { segment: best.segment, offset, lat: best.lat, lon: best.lon, distance: best.distance };
		}
	}
	return null;
}

export function measureShapeStep(graph: RoadGraph, k: number): number {
	return measureDistance(
		graph.shapeLat[k] / 1e6,
		graph.shapeLon[k] / 1e6,
		graph.shapeLat[k + 1] / 1e6,
		graph.shapeLon[k + 1] / 1e6,
	);
}
