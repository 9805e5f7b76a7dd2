import type { Terminal } from './ch.ts';
import { getSegmentCost, type RoadGraph } from './graph.ts';
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
