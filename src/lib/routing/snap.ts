import KDBush from 'kdbush';
import { measureDistance, measureStep } from './geo.ts';
import { getSegmentTime, isCutOff, type RoadGraph } from './graph.ts';

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
			const length = measureStep(lat1, lon1, lat2, lon2);
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

const METRES_PER_DEGREE = (6371008.8 * Math.PI) / 180;

interface Candidate {
	k: number;
	segment: number;
	t: number;
	d2: number;
}

/**
 * Nearest point on a road usable by the mode (any mode when modeIndex < 0) within maxDistance metres. A road on
 * a small piece of network cut off from the rest (a parking lot, a footway ending at a fence) is passed over
 * for the nearest road that connects, as long as one lies within maxDistance; `distance` says how far the
 * point moved.
 */
export function snapToRoad(
	graph: RoadGraph,
	index: SnapIndex,
	lat: number,
	lon: number,
	modeIndex: number,
	maxDistance: number,
): Snap | null {
	const shapeCount = graph.shapeLat.length;
	const { shapeLat, shapeLon, segShapeStart } = graph;
	// A local flat frame in metres around the query point: exact enough to compare candidates metres apart.
	const kx = METRES_PER_DEGREE * Math.max(0.05, Math.cos((lat * Math.PI) / 180));
	const ky = METRES_PER_DEGREE;
	const qLat = Math.round(lat * 1e6);
	const qLon = Math.round(lon * 1e6);
	let lastRadius = -1;
	let cutOff: Candidate | null = null;
	for (const radius of [15, 60, 250, 1000, maxDistance]) {
		if (radius > maxDistance || radius <= lastRadius) continue;
		lastRadius = radius;
		const reach = radius + DENSIFY + 5;
		const dLat = reach / ky;
		const dLon = reach / kx;
		const ids = index.tree.range(lon - dLon, lat - dLat, lon + dLon, lat + dLat);
		let connected: Candidate | null = null;
		for (let i = 0; i < ids.length; i++) {
			const id = ids[i];
			const p = id < shapeCount ? id : index.extra[id - shapeCount];
			// Every segment holds its own copy of its shape points, so a point belongs to exactly one segment.
			const segment = findSegmentOfShape(graph, p);
			if (!isUsable(graph, modeIndex, segment)) continue;
			const first = segShapeStart[segment];
			const last = segShapeStart[segment + 1] - 1;
			// Only the stretch starting at p: every point of a stretch lies within DENSIFY of its start or of one
			// of its own densified points, so the stretch ending at p is found through those.
			const k = p;
			if (k < first || k >= last) continue;
			const ax = ((shapeLon[k] - qLon) / 1e6) * kx;
			const ay = ((shapeLat[k] - qLat) / 1e6) * ky;
			const dx = ((shapeLon[k + 1] - shapeLon[k]) / 1e6) * kx;
			const dy = ((shapeLat[k + 1] - shapeLat[k]) / 1e6) * ky;
			const lengthSquared = dx * dx + dy * dy;
			let t = lengthSquared > 0 ? -(ax * dx + ay * dy) / lengthSquared : 0;
			t = Math.max(0, Math.min(t, 1));
			const px = ax + dx * t;
			const py = ay + dy * t;
			const d2 = px * px + py * py;
			if (modeIndex >= 0 && isCutOff(graph, modeIndex, segment)) {
				if (!cutOff || d2 < cutOff.d2) cutOff = { k, segment, t, d2 };
			} else if (!connected || d2 < connected.d2) connected = { k, segment, t, d2 };
		}
		if (connected && connected.d2 <= radius * radius) return toSnap(graph, connected, lat, lon);
	}
	// Only cut-off roads within reach: snap there, and let the route search say it cannot leave them.
	if (cutOff && cutOff.d2 <= maxDistance * maxDistance) return toSnap(graph, cutOff, lat, lon);
	return null;
}

function toSnap(graph: RoadGraph, candidate: Candidate, lat: number, lon: number): Snap {
	const { shapeLat, shapeLon, segShapeStart } = graph;
	const { k, segment, t } = candidate;
	const pLat = (shapeLat[k] + (shapeLat[k + 1] - shapeLat[k]) * t) / 1e6;
	const pLon = (shapeLon[k] + (shapeLon[k + 1] - shapeLon[k]) * t) / 1e6;
	let offset = 0;
	for (let i = segShapeStart[segment]; i < k; i++) offset += measureShapeStep(graph, i);
	offset += measureShapeStep(graph, k) * t;
	return { segment, offset, lat: pLat, lon: pLon, distance: measureDistance(lat, lon, pLat, pLon) };
}

export function measureShapeStep(graph: RoadGraph, k: number): number {
	return measureStep(
		graph.shapeLat[k] / 1e6,
		graph.shapeLon[k] / 1e6,
		graph.shapeLat[k + 1] / 1e6,
		graph.shapeLon[k + 1] / 1e6,
	);
}
