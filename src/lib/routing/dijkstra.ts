import type { Terminal } from './ch.ts';
import { getSegmentCost, isTurnAllowed, type RoadGraph } from './graph.ts';
import { IndexedHeap } from './heap.ts';

export interface PlainResult {
	cost: number;
	segments: number[];
	directions: number[];
	settled: number;
}

/**
 * Plain Dijkstra over the road graph. It is the reference the hierarchy is tested against, and it answers
 * requests whose costs differ from the prepared ones (highway avoidance multiplies motorway and trunk costs).
 */
export class PlainQuery {
	private readonly heap: IndexedHeap;
	private readonly dist: Float64Array;
	private readonly stampOf: Uint32Array;
	private readonly parent: Int32Array;
	private stamp = 0;

	private readonly graph: RoadGraph;

	constructor(graph: RoadGraph) {
		this.graph = graph;
		const n = graph.junctionCount;
		this.heap = new IndexedHeap(n);
		this.dist = new Float64Array(n);
		this.stampOf = new Uint32Array(n);
		this.parent = new Int32Array(n);
	}

	findPath(
		modeIndex: number,
		sources: Terminal[],
		targets: Terminal[],
		highwayFactor = 1,
	): PlainResult | null {
		const { graph, heap, dist, stampOf, parent } = this;
		const stamp = ++this.stamp;
		heap.clear();
		for (const s of sources) {
			if (stampOf[s.node] === stamp && dist[s.node] <= s.cost) continue;
			stampOf[s.node] = stamp;
			dist[s.node] = s.cost;
			parent[s.node] = -1;
			heap.push(s.node, s.cost);
		}
		const targetCost = new Map<number, number>();
		for (const t of targets) targetCost.set(t.node, Math.min(targetCost.get(t.node) ?? Infinity, t.cost));
		let best = Number.POSITIVE_INFINITY;
		let bestNode = -1;
		let settled = 0;
		while (heap.size > 0) {
			if (heap.peekKey() >= best) break;
			const u = heap.pop();
			settled++;
			const du = dist[u];
			const extra = targetCost.get(u);
			if (extra !== undefined && du + extra < best) {
				best = du + extra;
				bestNode = u;
			}
			for (let i = graph.adjStart[u]; i < graph.adjStart[u + 1]; i++) {
				const s = graph.adjSeg[i];
				const forward = graph.segFrom[s] === u;
				const cost = getSegmentCost(graph, modeIndex, s, forward ? 0 : 1, highwayFactor);
				if (cost === 0) continue;
				const x = forward ? graph.segTo[s] : graph.segFrom[s];
				const d = du + cost;
				if (stampOf[x] !== stamp || d < dist[x]) {
					stampOf[x] = stamp;
					dist[x] = d;
					parent[x] = s;
					heap.push(x, d);
				}
			}
		}
		if (bestNode < 0) return null;
		const segments: number[] = [];
		const directions: number[] = [];
		for (let v = bestNode; parent[v] >= 0; ) {
			const s = parent[v];
			const forward = graph.segTo[s] === v && graph.segFrom[s] !== v;
			segments.push(s);
			directions.push(forward ? 0 : 1);
			v = forward ? graph.segFrom[s] : graph.segTo[s];
		}
		segments.reverse();
		directions.reverse();
		return { cost: best, segments, directions, settled };
	}
}

/** Where a search may begin or end on a snapped segment: 0 or 1 the way along it, -1 on the junction itself. */
export interface DirectedTerminal extends Terminal {
	direction: number;
}

export interface TurnAwareResult extends PlainResult {
	source: DirectedTerminal;
	target: DirectedTerminal;
}

/**
 * Dijkstra over travelled segments instead of junctions, so a turn can be refused by where it comes from: the
 * search that honours turn restrictions. Slower than the hierarchy, so it runs only when the hierarchy's
 * path makes a banned turn.
 */
export class TurnAwareQuery {
	private readonly graph: RoadGraph;
	private readonly heap: IndexedHeap;
	private readonly dist: Float64Array;
	private readonly stampOf: Uint32Array;
	private readonly parent: Int32Array;
	private stamp = 0;

	constructor(graph: RoadGraph) {
		this.graph = graph;
		const states = graph.segmentCount * 2;
		this.heap = new IndexedHeap(states);
		this.dist = new Float64Array(states);
		this.stampOf = new Uint32Array(states);
		this.parent = new Int32Array(states);
	}

	findPath(
		modeIndex: number,
		originSegment: number,
		sources: DirectedTerminal[],
		destinationSegment: number,
		targets: DirectedTerminal[],
		highwayFactor = 1,
	): TurnAwareResult | null {
		const { graph, heap, dist, stampOf, parent } = this;
		const stamp = ++this.stamp;
		heap.clear();
		// parent: -1 the state is the origin's own piece, -2 - k it left source junction terminal k.
		const reach = (state: number, cost: number, from: number) => {
			if (stampOf[state] === stamp && dist[state] <= cost) return;
			stampOf[state] = stamp;
			dist[state] = cost;
			parent[state] = from;
			heap.push(state, cost);
		};
		const endOf = (state: number) => {
			const s = state >> 1;
			return (state & 1) === 0 ? graph.segTo[s] : graph.segFrom[s];
		};
		const leave = (junction: number, cost: number, arrivedBy: number, from: number) => {
			for (let i = graph.adjStart[junction]; i < graph.adjStart[junction + 1]; i++) {
				const s = graph.adjSeg[i];
				for (const d of [0, 1]) {
					const start = d === 0 ? graph.segFrom[s] : graph.segTo[s];
					if (start !== junction) continue;
					const c = getSegmentCost(graph, modeIndex, s, d, highwayFactor);
					if (c === 0) continue;
					if (arrivedBy >= 0 && !isTurnAllowed(graph, modeIndex, arrivedBy, junction, s)) continue;
					reach(s * 2 + d, cost + c, from);
				}
			}
		};
		sources.forEach((source, k) => {
			if (source.direction >= 0) reach(originSegment * 2 + source.direction, source.cost, -1);
			else leave(source.node, source.cost, -1, -2 - k);
		});
		let best = Number.POSITIVE_INFINITY;
		let bestState = -1;
		let bestTarget: DirectedTerminal | null = null;
		let settled = 0;
		while (heap.size > 0) {
			if (heap.peekKey() >= best) break;
			const state = heap.pop();
			settled++;
			const cost = dist[state];
			const segment = state >> 1;
			const junction = endOf(state);
			for (const target of targets) {
				if (target.node !== junction) continue;
				if (
					target.direction >= 0 &&
					!isTurnAllowed(graph, modeIndex, segment, junction, destinationSegment)
				) {
					continue;
				}
				if (cost + target.cost < best) {
					best = cost + target.cost;
					bestState = state;
					bestTarget = target;
				}
			}
			leave(junction, cost, segment, state);
		}
		if (bestState < 0 || !bestTarget) return null;
		const segments: number[] = [];
		const directions: number[] = [];
		let state = bestState;
		let source: DirectedTerminal | null = null;
		for (;;) {
			const from = parent[state];
			if (from === -1) {
				source = sources.find((s) => s.direction === (state & 1)) ?? null;
				break;
			}
			segments.push(state >> 1);
			directions.push(state & 1);
			if (from <= -2) {
				source = sources[-2 - from];
				break;
			}
			state = from;
		}
		if (!source) return null;
		segments.reverse();
		directions.reverse();
		return { cost: best, segments, directions, settled, source, target: bestTarget };
	}
}
