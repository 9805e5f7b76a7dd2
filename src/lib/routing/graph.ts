import { measureStep } from './geo.ts';
import { findNodeIndex, type OsmData } from './osm/model.ts';
import { getRoadClass, getSurface, getWayAccess, isHighwayClass, MODES, type Mode } from './tags.ts';

/**
 * The road network of one region. Junctions (way ends and nodes shared by ways) are graph nodes; a segment is
 * the stretch of one way between two junctions, with its shape points laid out consecutively.
 */
export interface RoadGraph {
	junctionCount: number;
	segmentCount: number;
	segFrom: Uint32Array;
	segTo: Uint32Array;
	/** Shape points of segment s are [segShapeStart[s], segShapeStart[s + 1]), both junctions included. */
	segShapeStart: Uint32Array;
	/** Degrees × 1e6. */
	shapeLat: Int32Array;
	shapeLon: Int32Array;
	segLength: Float32Array;
	segName: Int32Array;
	segClass: Uint8Array;
	/** Index into SURFACES (tags.ts). */
	segSurface: Uint8Array;
	/** Travel time in ms for mode m and direction d (0 forward, 1 backward) at [(m * 2 + d) * S + s]; 0 = closed. */
	segTime: Uint32Array;
	/** Bit m set: mode m may use the segment only to reach a place on it (access=destination and the like). */
	segDestinationOnly: Uint8Array;
	/** Bit m set: mode m pays DISCOURAGED_FACTOR on the segment (walkers on a main road without a sidewalk). */
	segDiscouraged: Uint8Array;
	/** Bit m set: for mode m the segment lies on a small piece of network cut off from the rest. */
	segCutOff: Uint8Array;
	/** Banned turns: from segment turnFrom[i] over junction turnVia[i] onto turnTo[i], for the modes in turnModes[i]. */
	turnFrom: Uint32Array;
	turnVia: Uint32Array;
	turnTo: Uint32Array;
	turnModes: Uint8Array;
	/** Segments touching junction j: adjSeg[adjStart[j] .. adjStart[j + 1]). */
	adjStart: Uint32Array;
	adjSeg: Uint32Array;
	names: string[];
	/** minLat, minLon, maxLat, maxLon of the road shape. */
	bbox: Float64Array;
}

/**
 * Cost multiplier of ways open only to reach places on them (access, vehicle, motor_vehicle or motorcar =
 * destination, customers or delivery): passing through is a last resort. As OSRM and Valhalla do, such a way
 * stays in the graph with a large penalty rather than a hard ban, so a route that starts or ends on it, or on a
 * street reached only through it, still uses it, while through traffic takes any other way that is less than ten
 * times slower. A hard rule ("only the first and last stretch") would need the search to track whether it has
 * left the restricted area, which the contraction hierarchies cannot; the penalty keeps them exact. The answer
 * reports the real travel time, not the penalty.
 */
export const DESTINATION_ONLY_FACTOR = 10;

/** Cost multiplier of ways a mode may use but should leave for a better one running alongside. */
export const DISCOURAGED_FACTOR = 2;

/**
 * Pieces of network with fewer junctions than this (or than half the largest piece, in tiny graphs) count as
 * cut off: a parking lot or a footway ending at a fence. Points are snapped past them to a way that connects.
 */
export const CUT_OFF_JUNCTIONS = 100;

export function getModeIndex(mode: Mode): number {
	return MODES.indexOf(mode);
}

/** Travel time of a segment in a direction (0 forward, 1 backward); 0 when closed. */
export function getSegmentTime(
	graph: RoadGraph,
	modeIndex: number,
	segment: number,
	direction: number,
): number {
	return graph.segTime[(modeIndex * 2 + direction) * graph.segmentCount + segment];
}

/** What the route search pays for a segment: its time, times the highway, destination-only and discouraged factors. */
export function getSegmentCost(
	graph: RoadGraph,
	modeIndex: number,
	segment: number,
	direction: number,
	highwayFactor = 1,
): number {
	const time = getSegmentTime(graph, modeIndex, segment, direction);
	if (time === 0) return 0;
	let factor = 1;
	if (highwayFactor !== 1 && isHighwayClass(graph.segClass[segment])) factor *= highwayFactor;
	if (graph.segDestinationOnly[segment] & (1 << modeIndex)) factor *= DESTINATION_ONLY_FACTOR;
	if (graph.segDiscouraged[segment] & (1 << modeIndex)) factor *= DISCOURAGED_FACTOR;
	return time * factor;
}

export function isCutOff(graph: RoadGraph, modeIndex: number, segment: number): boolean {
	return (graph.segCutOff[segment] & (1 << modeIndex)) !== 0;
}

class GrowableInt32 {
	data = new Int32Array(1024);
	length = 0;
	push(value: number): void {
		if (this.length === this.data.length) {
			const next = new Int32Array(this.data.length * 2);
			next.set(this.data);
			this.data = next;
		}
		this.data[this.length++] = value;
	}
	toUint32(): Uint32Array {
		return new Uint32Array(this.data.buffer.slice(0, this.length * 4));
	}
	toInt32(): Int32Array {
		return this.data.slice(0, this.length);
	}
}

function toTime(lengthMetres: number, speedKmh: number): number {
	if (speedKmh <= 0) return 0;
	return Math.max(1, Math.round((lengthMetres / (speedKmh / 3.6)) * 1000));
}

/** Builds the road graph from an imported extract. */
export function buildRoadGraph(osm: OsmData): RoadGraph {
	const usable: {
		refs: Int32Array;
		name: number;
		roadClass: number;
		speeds: number[];
		destinationOnly: number;
		discouraged: number;
		wayId: number;
		surface: number;
	}[] = [];
	const names: string[] = [];
	const nameIds = new Map<string, number>();
	const usage = new Uint8Array(osm.nodeCount);
	for (const way of osm.ways) {
		const speeds: number[] = [];
		let any = false;
		let destinationOnly = 0;
		let discouraged = 0;
		MODES.forEach((mode, m) => {
			const access = getWayAccess(way.tags, mode);
			speeds.push(access?.forward ?? 0, access?.backward ?? 0);
			if (access && (access.forward > 0 || access.backward > 0)) any = true;
			if (access?.destinationOnly) destinationOnly |= 1 << m;
			if (access?.discouraged) discouraged |= 1 << m;
		});
		if (!any) continue;
		const indexes: number[] = [];
		for (const ref of way.refs) {
			const index = findNodeIndex(osm, ref);
			if (index >= 0 && indexes[indexes.length - 1] !== index) indexes.push(index);
		}
		if (indexes.length < 2) continue;
		const refs = Int32Array.from(indexes);
		for (let i = 0; i < refs.length; i++) {
			const extra = i === 0 || i === refs.length - 1 ? 2 : 1;
			usage[refs[i]] = Math.min(255, usage[refs[i]] + extra);
		}
		const label = way.tags.name ?? way.tags.ref ?? '';
		let name = -1;
		if (label) {
			name = nameIds.get(label) ?? -1;
			if (name < 0) {
				name = names.length;
				names.push(label);
				nameIds.set(label, name);
			}
		}
		usable.push({
			refs,
			name,
			roadClass: getRoadClass(way.tags),
			speeds,
			destinationOnly,
			discouraged,
			wayId: way.id,
			surface: getSurface(way.tags),
		});
	}
	const junctionOf = new Int32Array(osm.nodeCount).fill(-1);
	let junctionCount = 0;
	const segFrom = new GrowableInt32();
	const segTo = new GrowableInt32();
	const segShapeStart = new GrowableInt32();
	const shapeLat = new GrowableInt32();
	const shapeLon = new GrowableInt32();
	const segName = new GrowableInt32();
	const segClass = new GrowableInt32();
	const lengths: number[] = [];
	const speedsOf: number[][] = [];
	const destinationOnlyOf: number[] = [];
	const discouragedOf: number[] = [];
	const surfaceOf: number[] = [];
	const segmentsOfWay = new Map<number, number[]>();
	const getJunction = (index: number): number => {
		if (junctionOf[index] < 0) junctionOf[index] = junctionCount++;
		return junctionOf[index];
	};
	for (const way of usable) {
		const refs = way.refs;
		let start = 0;
		for (let i = 1; i < refs.length; i++) {
			if (usage[refs[i]] < 2 && i < refs.length - 1) continue;
			segFrom.push(getJunction(refs[start]));
			segTo.push(getJunction(refs[i]));
			segShapeStart.push(shapeLat.length);
			let length = 0;
			for (let k = start; k <= i; k++) {
				const lat = Math.round(osm.nodeLat[refs[k]] / 10);
				const lon = Math.round(osm.nodeLon[refs[k]] / 10);
				if (k > start) {
					length += measureStep(
						shapeLat.data[shapeLat.length - 1] / 1e6,
						shapeLon.data[shapeLon.length - 1] / 1e6,
						lat / 1e6,
						lon / 1e6,
					);
				}
				shapeLat.push(lat);
				shapeLon.push(lon);
			}
			lengths.push(length);
			segName.push(way.name);
			segClass.push(way.roadClass);
			speedsOf.push(way.speeds);
			destinationOnlyOf.push(way.destinationOnly);
			discouragedOf.push(way.discouraged);
			surfaceOf.push(way.surface);
			const ofWay = segmentsOfWay.get(way.wayId);
			if (ofWay) ofWay.push(lengths.length - 1);
			else segmentsOfWay.set(way.wayId, [lengths.length - 1]);
			start = i;
		}
	}
	segShapeStart.push(shapeLat.length);
	const segmentCount = lengths.length;
	const segTime = new Uint32Array(MODES.length * 2 * segmentCount);
	for (let s = 0; s < segmentCount; s++) {
		const speeds = speedsOf[s];
		for (let k = 0; k < MODES.length * 2; k++) segTime[k * segmentCount + s] = toTime(lengths[s], speeds[k]);
	}
	const from = segFrom.toUint32();
	const to = segTo.toUint32();
	const adjStart = new Uint32Array(junctionCount + 1);
	for (let s = 0; s < segmentCount; s++) {
		adjStart[from[s] + 1]++;
		if (to[s] !== from[s]) adjStart[to[s] + 1]++;
	}
	for (let j = 0; j < junctionCount; j++) adjStart[j + 1] += adjStart[j];
	const fill = adjStart.slice(0, junctionCount);
	const adjSeg = new Uint32Array(adjStart[junctionCount]);
	for (let s = 0; s < segmentCount; s++) {
		adjSeg[fill[from[s]]++] = s;
		if (to[s] !== from[s]) adjSeg[fill[to[s]]++] = s;
	}
	const lat = shapeLat.toInt32();
	const lon = shapeLon.toInt32();
	const bbox = new Float64Array([90, 180, -90, -180]);
	for (let i = 0; i < lat.length; i++) {
		bbox[0] = Math.min(bbox[0], lat[i] / 1e6);
		bbox[1] = Math.min(bbox[1], lon[i] / 1e6);
		bbox[2] = Math.max(bbox[2], lat[i] / 1e6);
		bbox[3] = Math.max(bbox[3], lon[i] / 1e6);
	}
	const graph: RoadGraph = {
		junctionCount,
		segmentCount,
		segFrom: from,
		segTo: to,
		segShapeStart: segShapeStart.toUint32(),
		shapeLat: lat,
		shapeLon: lon,
		segLength: Float32Array.from(lengths),
		segName: segName.toInt32(),
		segClass: Uint8Array.from(segClass.toInt32()),
		segSurface: Uint8Array.from(surfaceOf),
		segTime,
		segDestinationOnly: Uint8Array.from(destinationOnlyOf),
		segDiscouraged: Uint8Array.from(discouragedOf),
		segCutOff: new Uint8Array(segmentCount),
		turnFrom: new Uint32Array(0),
		turnVia: new Uint32Array(0),
		turnTo: new Uint32Array(0),
		turnModes: new Uint8Array(0),
		adjStart,
		adjSeg,
		names,
		bbox,
	};
	for (let m = 0; m < MODES.length; m++) markCutOffPieces(graph, m);
	addTurnRestrictions(graph, osm, junctionOf, segmentsOfWay);
	return graph;
}

/**
 * Turns the extract's restrictions into banned segment-to-segment turns at junctions. An only_* restriction
 * bans every other turn from its from-way at that junction, the U-turn included.
 */
function addTurnRestrictions(
	graph: RoadGraph,
	osm: OsmData,
	junctionOf: Int32Array,
	segmentsOfWay: Map<number, number[]>,
): void {
	const from: number[] = [];
	const via: number[] = [];
	const to: number[] = [];
	const modes: number[] = [];
	const touching = (way: number, junction: number) =>
		(segmentsOfWay.get(way) ?? []).filter(
			(s) => graph.segFrom[s] === junction || graph.segTo[s] === junction,
		);
	for (const restriction of osm.restrictions) {
		const index = findNodeIndex(osm, restriction.via);
		const junction = index >= 0 ? junctionOf[index] : -1;
		if (junction < 0) continue;
		const fromSegments = touching(restriction.from, junction);
		const toSegments = touching(restriction.to, junction);
		if (fromSegments.length === 0 || toSegments.length === 0) continue;
		for (const f of fromSegments) {
			const banned = restriction.only
				? Array.from(graph.adjSeg.subarray(graph.adjStart[junction], graph.adjStart[junction + 1])).filter(
						(s) => !toSegments.includes(s),
					)
				: toSegments;
			for (const t of banned) {
				from.push(f);
				via.push(junction);
				to.push(t);
				modes.push(restriction.modes);
			}
		}
	}
	graph.turnFrom = Uint32Array.from(from);
	graph.turnVia = Uint32Array.from(via);
	graph.turnTo = Uint32Array.from(to);
	graph.turnModes = Uint8Array.from(modes);
}

const bannedTurns = new WeakMap<RoadGraph, Map<string, number>>();

/** Whether mode m may go from segment `from` over junction `via` onto segment `to`. */
export function isTurnAllowed(
	graph: RoadGraph,
	modeIndex: number,
	from: number,
	via: number,
	to: number,
): boolean {
	if (graph.turnFrom.length === 0) return true;
	let banned = bannedTurns.get(graph);
	if (!banned) {
		banned = new Map();
		for (let i = 0; i < graph.turnFrom.length; i++) {
			const key = `${graph.turnFrom[i]}:${graph.turnVia[i]}:${graph.turnTo[i]}`;
			banned.set(key, (banned.get(key) ?? 0) | graph.turnModes[i]);
		}
		bannedTurns.set(graph, banned);
	}
	return ((banned.get(`${from}:${via}:${to}`) ?? 0) & (1 << modeIndex)) === 0;
}

/**
 * Marks, for one mode, the segments outside the large strongly connected pieces of the network (Tarjan's
 * algorithm, iterative so a long chain of junctions cannot overflow the stack). A segment counts as connected
 * only when both its ends lie in a large piece.
 */
function markCutOffPieces(graph: RoadGraph, modeIndex: number): void {
	const n = graph.junctionCount;
	const index = new Int32Array(n).fill(-1);
	const low = new Int32Array(n);
	const component = new Int32Array(n).fill(-1);
	const onStack = new Uint8Array(n);
	const stack = new Int32Array(n);
	let stackSize = 0;
	const callNode = new Int32Array(n);
	const callEdge = new Int32Array(n);
	let counter = 0;
	const sizes: number[] = [];
	for (let root = 0; root < n; root++) {
		if (index[root] >= 0) continue;
		let depth = 0;
		callNode[0] = root;
		callEdge[0] = graph.adjStart[root];
		index[root] = low[root] = counter++;
		stack[stackSize++] = root;
		onStack[root] = 1;
		while (depth >= 0) {
			const u = callNode[depth];
			if (callEdge[depth] < graph.adjStart[u + 1]) {
				const s = graph.adjSeg[callEdge[depth]++];
				const forward = graph.segFrom[s] === u;
				if (getSegmentTime(graph, modeIndex, s, forward ? 0 : 1) === 0) continue;
				const x = forward ? graph.segTo[s] : graph.segFrom[s];
				if (index[x] < 0) {
					index[x] = low[x] = counter++;
					stack[stackSize++] = x;
					onStack[x] = 1;
					depth++;
					callNode[depth] = x;
					callEdge[depth] = graph.adjStart[x];
				} else if (onStack[x]) low[u] = Math.min(low[u], index[x]);
				continue;
			}
			if (low[u] === index[u]) {
				const id = sizes.length;
				let size = 0;
				let x: number;
				do {
					x = stack[--stackSize];
					onStack[x] = 0;
					component[x] = id;
					size++;
				} while (x !== u);
				sizes.push(size);
			}
			depth--;
			if (depth >= 0) {
				const parent = callNode[depth];
				low[parent] = Math.min(low[parent], low[u]);
			}
		}
	}
	const largest = sizes.reduce((max, size) => Math.max(max, size), 0);
	const threshold = Math.min(CUT_OFF_JUNCTIONS, largest / 2);
	const bit = 1 << modeIndex;
	for (let s = 0; s < graph.segmentCount; s++) {
		const usable = getSegmentTime(graph, modeIndex, s, 0) > 0 || getSegmentTime(graph, modeIndex, s, 1) > 0;
		if (!usable) continue;
		if (sizes[component[graph.segFrom[s]]] < threshold || sizes[component[graph.segTo[s]]] < threshold) {
			graph.segCutOff[s] |= bit;
		}
	}
}
