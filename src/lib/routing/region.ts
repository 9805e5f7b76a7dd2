import { type ContractionHierarchy, contractGraph, HierarchyQuery, type Terminal } from './ch.ts';
import { type DirectedTerminal, PlainQuery, TurnAwareQuery } from './dijkstra.ts';
import { measureStep } from './geo.ts';
import type { Place } from './geocode.ts';
import { buildRoadGraph, getSegmentCost, getSegmentTime, isTurnAllowed, type RoadGraph } from './graph.ts';
import type { OsmData } from './osm/model.ts';
import { buildSnapIndex, type Snap, type SnapIndex, snapToRoad } from './snap.ts';
import { isHighwayClass, MODES } from './tags.ts';

/** One loaded map region: its graph, one hierarchy per mode, the snapping index and its named features. */
export interface Region {
	name: string;
	graph: RoadGraph;
	hierarchies: ContractionHierarchy[];
	snapIndex: SnapIndex;
	features: Place[];
	/** Figures for reports: OSM nodes in routable ways. */
	roadNodeCount: number;
}

/** Cost multiplier of motorways and trunks when a request avoids highways. */
export const HIGHWAY_AVOID_FACTOR = 25;
/** Index in Region.hierarchies of the car hierarchy built with that multiplier. */
export const AUTO_AVOIDING_HIGHWAYS = MODES.length;

/** Builds a region from an imported extract: one hierarchy per mode, plus cars avoiding highways. */
export function buildRegion(name: string, osm: OsmData, options: { witnessLimit?: number } = {}): Region {
	const graph = buildRoadGraph(osm);
	const hierarchies = MODES.map((_, m) => contractGraph(graph, m, options));
	// Without motorways or trunks open to cars the weights are the same, and so is the hierarchy.
	const auto = MODES.indexOf('auto');
	let hasHighways = false;
	for (let s = 0; s < graph.segmentCount && !hasHighways; s++) {
		hasHighways =
			isHighwayClass(graph.segClass[s]) &&
			(getSegmentTime(graph, auto, s, 0) > 0 || getSegmentTime(graph, auto, s, 1) > 0);
	}
	hierarchies.push(
		hasHighways
			? contractGraph(graph, auto, { ...options, highwayFactor: HIGHWAY_AVOID_FACTOR })
			: hierarchies[auto],
	);
	const snapIndex = buildSnapIndex(graph);
	return {
		name,
		graph,
		hierarchies,
		snapIndex,
		features: collectFeatures(name, graph, osm),
		roadNodeCount: 0,
	};
}

function collectFeatures(regionName: string, graph: RoadGraph, osm: OsmData): Place[] {
	const features: Place[] = [];
	const seen = new Set<number>();
	for (let s = 0; s < graph.segmentCount; s++) {
		const name = graph.segName[s];
		if (name < 0 || seen.has(name)) continue;
		seen.add(name);
		const k = (graph.segShapeStart[s] + graph.segShapeStart[s + 1]) >> 1;
		features.push({
			name: graph.names[name],
			lat: graph.shapeLat[k] / 1e6,
			lon: graph.shapeLon[k] / 1e6,
			type: 'street',
			population: 0,
			country: '',
			admin: '',
			context: regionName,
		});
	}
	for (const poi of osm.pois) {
		const [key, value] = poi.kind.split('=');
		features.push({
			name: poi.name,
			lat: poi.lat,
			lon: poi.lon,
			type: key === 'natural' || key === 'tourism' ? value : key,
			population: 0,
			country: '',
			admin: '',
			context: regionName,
		});
	}
	return features;
}

/** Counts bytes of the typed arrays a region keeps in memory while serving. */
export function measureRegionBytes(region: Region): number {
	let bytes = 0;
	const add = (value: unknown): void => {
		if (ArrayBuffer.isView(value)) bytes += value.byteLength;
	};
	for (const value of Object.values(region.graph)) add(value);
	for (const name of region.graph.names) bytes += name.length * 2;
	for (const ch of new Set(region.hierarchies)) for (const value of Object.values(ch)) add(value);
	bytes += region.snapIndex.tree.data.byteLength;
	add(region.snapIndex.extra);
	return bytes;
}

export function containsPoint(region: Region, lat: number, lon: number, margin = 0.02): boolean {
	const b = region.graph.bbox;
	return lat >= b[0] - margin && lat <= b[2] + margin && lon >= b[1] - margin && lon <= b[3] + margin;
}

// Query objects hold per-search scratch arrays; one set per region and mode, made on first use.
interface Queries {
	ch: HierarchyQuery[];
	plain: PlainQuery;
	/** Made on first need: only regions with turn restrictions ever use it. */
	turnAware: TurnAwareQuery | null;
}
const queryCache = new WeakMap<Region, Queries>();

export function getQueries(region: Region): Queries {
	let queries = queryCache.get(region);
	if (!queries) {
		queries = {
			ch: region.hierarchies.map((ch) => new HierarchyQuery(ch, region.graph)),
			plain: new PlainQuery(region.graph),
			turnAware: null,
		};
		queryCache.set(region, queries);
	}
	return queries;
}

export function snapInRegion(
	region: Region,
	lat: number,
	lon: number,
	modeIndex: number,
	maxDistance: number,
) {
	return snapToRoad(region.graph, region.snapIndex, lat, lon, modeIndex, maxDistance);
}

/** A stretch of one segment travelled in one direction, between two offsets in metres from its first point. */
export interface Piece {
	segment: number;
	direction: number;
	from: number;
	to: number;
}

export interface LegPath {
	pieces: Piece[];
	cost: number;
	settled: number;
}

// Snaps within this many metres of a segment end also start or end at that junction directly.
const AT_JUNCTION = 0.5;

/** A place the search may start from (or end at), and which way along the snapped segment leads there. */
type SnapTerminal = DirectedTerminal;

function getSnapTerminals(
	graph: RoadGraph,
	modeIndex: number,
	snap: Snap,
	highwayFactor: number,
	leaving: boolean,
): SnapTerminal[] {
	const length = graph.segLength[snap.segment];
	const forward = getSegmentCost(graph, modeIndex, snap.segment, 0, highwayFactor);
	const backward = getSegmentCost(graph, modeIndex, snap.segment, 1, highwayFactor);
	const ratio = length > 0 ? snap.offset / length : 0;
	const from = graph.segFrom[snap.segment];
	const to = graph.segTo[snap.segment];
	const terminals: SnapTerminal[] = [];
	if (leaving) {
		if (forward > 0) terminals.push({ node: to, cost: Math.round(forward * (1 - ratio)), direction: 0 });
		if (backward > 0) terminals.push({ node: from, cost: Math.round(backward * ratio), direction: 1 });
	} else {
		if (forward > 0) terminals.push({ node: from, cost: Math.round(forward * ratio), direction: 0 });
		if (backward > 0) terminals.push({ node: to, cost: Math.round(backward * (1 - ratio)), direction: 1 });
	}
	if (snap.offset <= AT_JUNCTION) terminals.push({ node: from, cost: 0, direction: -1 });
	if (length - snap.offset <= AT_JUNCTION) terminals.push({ node: to, cost: 0, direction: -1 });
	return terminals;
}

/**
 * The terminal the search used at a junction: the cheapest one there. A segment whose two ends meet at one
 * junction (a loop) offers that junction both ways round, so the node alone cannot tell which way to go.
 */
function pickTerminal(terminals: SnapTerminal[], node: number): SnapTerminal | null {
	let best: SnapTerminal | null = null;
	for (const terminal of terminals) {
		if (terminal.node === node && (!best || terminal.cost < best.cost)) best = terminal;
	}
	return best;
}

/**
 * Fastest path between two snapped points. The hierarchy answers normal requests; highway avoidance
 * (a cost factor the hierarchy was not built with) runs plain Dijkstra.
 */
export function findLegPath(
	region: Region,
	modeIndex: number,
	origin: Snap,
	destination: Snap,
	highwayFactor = 1,
): LegPath | null {
	const graph = region.graph;
	const sources = getSnapTerminals(graph, modeIndex, origin, highwayFactor, true);
	const targets = getSnapTerminals(graph, modeIndex, destination, highwayFactor, false);
	const queries = getQueries(region);
	// Cars avoiding highways have a prepared hierarchy; other cost variants fall back to plain Dijkstra.
	const prepared =
		highwayFactor === 1
			? modeIndex
			: highwayFactor === HIGHWAY_AVOID_FACTOR && modeIndex === MODES.indexOf('auto')
				? AUTO_AVOIDING_HIGHWAYS
				: -1;
	const core =
		prepared >= 0 && queries.ch[prepared]
			? queries.ch[prepared].findPath(sources, targets)
			: queries.plain.findPath(modeIndex, sources, targets, highwayFactor);
	let best: LegPath | null = null;
	if (core) {
		const startNode =
			core.segments.length > 0
				? getStartNode(graph, core.segments[0], core.directions[0])
				: findMeetingNode(sources, targets);
		const endNode =
			core.segments.length > 0
				? getEndNode(graph, core.segments.at(-1) ?? 0, core.directions.at(-1) ?? 0)
				: startNode;
		let route: CorePath = {
			segments: core.segments,
			directions: core.directions,
			source: pickTerminal(sources, startNode),
			target: pickTerminal(targets, endNode),
			cost: core.cost,
			settled: core.settled,
		};
		// The hierarchy knows nothing of turn restrictions: when its path makes a banned turn, search again over
		// travelled segments, which can refuse a turn by where it comes from.
		if (graph.turnFrom.length > 0 && makesBannedTurn(graph, modeIndex, origin, destination, route)) {
			queries.turnAware ??= new TurnAwareQuery(graph);
			const found = queries.turnAware.findPath(
				modeIndex,
				origin.segment,
				sources,
				destination.segment,
				targets,
				highwayFactor,
			);
			route = found ?? { ...route, source: null, target: null };
		}
		if (route.source && route.target) best = buildPieces(graph, origin, destination, route);
	}
	// Both points on one segment, travelled directly.
	if (origin.segment === destination.segment) {
		const length = graph.segLength[origin.segment];
		const direction = destination.offset >= origin.offset ? 0 : 1;
		const time = getSegmentCost(graph, modeIndex, origin.segment, direction, highwayFactor);
		if (time > 0) {
			const cost =
				length > 0 ? Math.round((time * Math.abs(destination.offset - origin.offset)) / length) : 0;
			if (!best || cost <= best.cost) {
				best = {
					pieces: [{ segment: origin.segment, direction, from: origin.offset, to: destination.offset }],
					cost,
					settled: best?.settled ?? 0,
				};
			}
		}
	}
	return best;
}

interface CorePath {
	segments: number[];
	directions: number[];
	/** The terminals the path leaves the origin and reaches the destination by; null when there is no path. */
	source: SnapTerminal | null;
	target: SnapTerminal | null;
	cost: number;
	settled: number;
}

/** Every segment the path travels, origin and destination pieces included, with the direction of travel. */
function listTravelled(origin: Snap, destination: Snap, route: CorePath): [number, number][] {
	const travelled: [number, number][] = [];
	if (route.source && route.source.direction >= 0) travelled.push([origin.segment, route.source.direction]);
	route.segments.forEach((segment, i) => {
		travelled.push([segment, route.directions[i]]);
	});
	if (route.target && route.target.direction >= 0) {
		travelled.push([destination.segment, route.target.direction]);
	}
	return travelled;
}

function makesBannedTurn(
	graph: RoadGraph,
	modeIndex: number,
	origin: Snap,
	destination: Snap,
	route: CorePath,
): boolean {
	const travelled = listTravelled(origin, destination, route);
	for (let i = 1; i < travelled.length; i++) {
		const [from, direction] = travelled[i - 1];
		const via = getEndNode(graph, from, direction);
		if (!isTurnAllowed(graph, modeIndex, from, via, travelled[i][0])) return true;
	}
	return false;
}

function buildPieces(graph: RoadGraph, origin: Snap, destination: Snap, route: CorePath): LegPath {
	const pieces: Piece[] = [];
	if (route.source?.direction === 0) {
		pieces.push({
			segment: origin.segment,
			direction: 0,
			from: origin.offset,
			to: graph.segLength[origin.segment],
		});
	} else if (route.source?.direction === 1) {
		pieces.push({ segment: origin.segment, direction: 1, from: origin.offset, to: 0 });
	}
	route.segments.forEach((segment, i) => {
		const length = graph.segLength[segment];
		pieces.push(
			route.directions[i] === 0
				? { segment, direction: 0, from: 0, to: length }
				: { segment, direction: 1, from: length, to: 0 },
		);
	});
	if (route.target?.direction === 0) {
		pieces.push({ segment: destination.segment, direction: 0, from: 0, to: destination.offset });
	} else if (route.target?.direction === 1) {
		pieces.push({
			segment: destination.segment,
			direction: 1,
			from: graph.segLength[destination.segment],
			to: destination.offset,
		});
	}
	// Zero-length pieces come from snaps that sit on a junction.
	const kept = pieces.filter((piece) => Math.abs(piece.to - piece.from) > 0.01);
	const fallback: Piece = { segment: origin.segment, direction: 0, from: origin.offset, to: origin.offset };
	return { pieces: kept.length > 0 ? kept : [fallback], cost: route.cost, settled: route.settled };
}

function findMeetingNode(sources: Terminal[], targets: Terminal[]): number {
	let best = Number.POSITIVE_INFINITY;
	let node = -1;
	for (const s of sources) {
		for (const t of targets) {
			if (s.node === t.node && s.cost + t.cost < best) {
				best = s.cost + t.cost;
				node = s.node;
			}
		}
	}
	return node;
}

function getStartNode(graph: RoadGraph, segment: number, direction: number): number {
	return direction === 0 ? graph.segFrom[segment] : graph.segTo[segment];
}

function getEndNode(graph: RoadGraph, segment: number, direction: number): number {
	return direction === 0 ? graph.segTo[segment] : graph.segFrom[segment];
}

/** The shape of a piece as [lat, lon] points in travel order. */
export function getPieceShape(graph: RoadGraph, piece: Piece): [number, number][] {
	const start = graph.segShapeStart[piece.segment];
	const end = graph.segShapeStart[piece.segment + 1];
	const low = Math.min(piece.from, piece.to);
	const high = Math.max(piece.from, piece.to);
	const points: [number, number][] = [];
	let position = 0;
	for (let k = start; k < end - 1; k++) {
		const lat1 = graph.shapeLat[k] / 1e6;
		const lon1 = graph.shapeLon[k] / 1e6;
		const lat2 = graph.shapeLat[k + 1] / 1e6;
		const lon2 = graph.shapeLon[k + 1] / 1e6;
		const step = measureStep(lat1, lon1, lat2, lon2);
		const next = position + step;
		if (next >= low && position <= high) {
			if (points.length === 0) points.push(interpolate(lat1, lon1, lat2, lon2, step, low - position));
			if (next < high) points.push([lat2, lon2]);
			else {
				points.push(interpolate(lat1, lon1, lat2, lon2, step, high - position));
				break;
			}
		}
		position = next;
	}
	if (points.length === 0) {
		const k = low <= 0 ? start : end - 1;
		points.push([graph.shapeLat[k] / 1e6, graph.shapeLon[k] / 1e6]);
	}
	if (points.length === 1) points.push(points[0]);
	return piece.direction === 0 ? points : points.reverse();
}

function interpolate(
	lat1: number,
	lon1: number,
	lat2: number,
	lon2: number,
	step: number,
	along: number,
): [number, number] {
	const t = step > 0 ? Math.min(1, Math.max(0, along / step)) : 0;
	return [lat1 + (lat2 - lat1) * t, lon1 + (lon2 - lon1) * t];
}
