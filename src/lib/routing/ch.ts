import { getSegmentCost, type RoadGraph } from './graph.ts';
import { IndexedHeap } from './heap.ts';

/**
 * Contraction hierarchy of one mode. Edges are laid out as [up edges grouped by source][down edges grouped by
 * target]; `head` is the other end. `mid` is the contracted middle node of a shortcut, or -1 - segment for an
 * original edge; a shortcut's halves are the edges at positions `first` (from → mid) and `second` (mid → to).
 */
export interface ContractionHierarchy {
	nodeCount: number;
	upStart: Uint32Array;
	downStart: Uint32Array;
	head: Uint32Array;
	weight: Uint32Array;
	mid: Int32Array;
	first: Int32Array;
	second: Int32Array;
}

class GrowingEdges {
	from = new Int32Array(1 << 16);
	to = new Int32Array(1 << 16);
	weight = new Float64Array(1 << 16);
	mid = new Int32Array(1 << 16);
	first = new Int32Array(1 << 16);
	second = new Int32Array(1 << 16);
	length = 0;
	add(from: number, to: number, weight: number, mid: number, first: number, second: number): number {
		if (this.length === this.from.length) {
			const grow = <T extends Int32Array | Float64Array>(array: T): T => {
				const next = new (array.constructor as new (n: number) => T)(array.length * 2);
				next.set(array);
				return next;
			};
			this.from = grow(this.from);
			this.to = grow(this.to);
			this.weight = grow(this.weight);
			this.mid = grow(this.mid);
			this.first = grow(this.first);
			this.second = grow(this.second);
		}
		this.from[this.length] = from;
		this.to[this.length] = to;
		this.weight[this.length] = weight;
		this.mid[this.length] = mid;
		this.first[this.length] = first;
		this.second[this.length] = second;
		return this.length++;
	}
}

export interface ContractOptions {
	/** Settled-node limit of witness searches; lower builds faster with more shortcuts. */
	witnessLimit?: number;
	/** Multiplies the cost of motorways and trunks (a hierarchy for "avoid highways"). */
	highwayFactor?: number;
}

/** Builds the hierarchy for one mode of a road graph. */
export function contractGraph(
	graph: RoadGraph,
	modeIndex: number,
	options: ContractOptions = {},
): ContractionHierarchy {
	const n = graph.junctionCount;
	const edges = new GrowingEdges();
	const out: number[][] = Array.from({ length: n }, () => []);
	const inn: number[][] = Array.from({ length: n }, () => []);
	const addOrImprove = (
		from: number,
		to: number,
		weight: number,
		mid: number,
		first = -1,
		second = -1,
	): boolean => {
		const list = out[from];
		for (let i = 0; i < list.length; i++) {
			const e = list[i];
			if (edges.to[e] === to) {
				if (edges.weight[e] <= weight) return false;
				edges.weight[e] = weight;
				edges.mid[e] = mid;
				edges.first[e] = first;
				edges.second[e] = second;
				return true;
			}
		}
		const e = edges.add(from, to, weight, mid, first, second);
		list.push(e);
		inn[to].push(e);
		return true;
	};
	for (let s = 0; s < graph.segmentCount; s++) {
		const a = graph.segFrom[s];
		const b = graph.segTo[s];
		if (a === b) continue;
		const forward = getSegmentCost(graph, modeIndex, s, 0, options.highwayFactor);
		const backward = getSegmentCost(graph, modeIndex, s, 1, options.highwayFactor);
		if (forward > 0) addOrImprove(a, b, forward, -1 - s);
		if (backward > 0) addOrImprove(b, a, backward, -1 - s);
	}

	const contracted = new Uint8Array(n);
	const deleted = new Uint32Array(n);
	const level = new Uint32Array(n);
	const rank = new Uint32Array(n);
	const witnessLimit = options.witnessLimit ?? 400;
	const witnessHeap = new IndexedHeap(n);
	const witnessDist = new Float64Array(n);
	const witnessStamp = new Uint32Array(n);
	let stamp = 0;

	// Bounded Dijkstra from `source` that avoids `skip`; results in witnessDist where witnessStamp === stamp.
	const searchWitness = (source: number, skip: number, maxCost: number, limit: number): void => {
		stamp++;
		witnessHeap.clear();
		witnessDist[source] = 0;
		witnessStamp[source] = stamp;
		witnessHeap.push(source, 0);
		let settled = 0;
		while (witnessHeap.size > 0) {
			if (witnessHeap.peekKey() > maxCost) break;
			const u = witnessHeap.pop();
			if (++settled > limit) break;
			const du = witnessDist[u];
			const list = out[u];
			for (let i = 0; i < list.length; i++) {
				const e = list[i];
				const x = edges.to[e];
				if (x === skip || contracted[x]) continue;
				const d = du + edges.weight[e];
				if (witnessStamp[x] !== stamp || d < witnessDist[x]) {
					witnessStamp[x] = stamp;
					witnessDist[x] = d;
					witnessHeap.push(x, d);
				}
			}
		}
	};

	const ins: number[] = [];
	const outs: number[] = [];
	const collect = (v: number): void => {
		ins.length = 0;
		outs.length = 0;
		for (const e of inn[v]) if (!contracted[edges.from[e]]) ins.push(e);
		for (const e of out[v]) if (!contracted[edges.to[e]]) outs.push(e);
	};

	// Runs the contraction of v; adds the shortcuts when `apply`, else only counts them.
	const contractNode = (v: number, apply: boolean, limit: number): number => {
		collect(v);
		let added = 0;
		let maxOut = 0;
		for (const e of outs) maxOut = Math.max(maxOut, edges.weight[e]);
		const inList = ins.slice();
		const outList = outs.slice();
		for (const ein of inList) {
			const u = edges.from[ein];
			const wIn = edges.weight[ein];
			searchWitness(u, v, wIn + maxOut, limit);
			for (const eout of outList) {
				const x = edges.to[eout];
				if (x === u) continue;
				const need = wIn + edges.weight[eout];
				if (witnessStamp[x] === stamp && witnessDist[x] <= need) continue;
				added++;
				if (apply) addOrImprove(u, x, need, v, ein, eout);
			}
		}
		if (apply) return added;
		return 2 * (added - inList.length - outList.length) + deleted[v] + level[v];
	};

	const queue = new IndexedHeap(n);
	for (let v = 0; v < n; v++) queue.push(v, contractNode(v, false, 50));
	let order = 0;
	while (queue.size > 0) {
		const v = queue.pop();
		const priority = contractNode(v, false, 50);
		if (queue.size > 0 && priority > queue.peekKey()) {
			queue.push(v, priority);
			continue;
		}
		contractNode(v, true, witnessLimit);
		contracted[v] = 1;
		rank[v] = order++;
		const neighbours = new Set<number>();
		for (const e of inn[v]) if (!contracted[edges.from[e]]) neighbours.add(edges.from[e]);
		for (const e of out[v]) if (!contracted[edges.to[e]]) neighbours.add(edges.to[e]);
		for (const u of neighbours) {
			deleted[u]++;
			level[u] = Math.max(level[u], level[v] + 1);
		}
		// Only cheap neighbours are re-prioritised eagerly; the rest are checked lazily when popped.
		if (neighbours.size <= 8)
			for (const u of neighbours) queue.push(u, Math.min(contractNode(u, false, 50), 1e15));
		// Drop edges to contracted nodes from neighbour lists so later scans stay short.
		for (const u of neighbours) {
			out[u] = out[u].filter((e) => !contracted[edges.to[e]]);
			inn[u] = inn[u].filter((e) => !contracted[edges.from[e]]);
		}
	}
	return layOutHierarchy(n, edges, rank);
}

function layOutHierarchy(n: number, edges: GrowingEdges, rank: Uint32Array): ContractionHierarchy {
	const upStart = new Uint32Array(n + 1);
	const downStart = new Uint32Array(n + 1);
	for (let e = 0; e < edges.length; e++) {
		const from = edges.from[e];
		const to = edges.to[e];
		if (rank[to] > rank[from]) upStart[from + 1]++;
		else downStart[to + 1]++;
	}
	for (let v = 0; v < n; v++) upStart[v + 1] += upStart[v];
	const upCount = upStart[n];
	downStart[0] = upCount;
	for (let v = 0; v < n; v++) downStart[v + 1] += downStart[v];
	const total = edges.length;
	const head = new Uint32Array(total);
	const weight = new Uint32Array(total);
	const mid = new Int32Array(total);
	const first = new Int32Array(total);
	const second = new Int32Array(total);
	const positionOf = new Int32Array(total);
	const upFill = upStart.slice(0, n);
	const downFill = downStart.slice(0, n);
	for (let e = 0; e < edges.length; e++) {
		const from = edges.from[e];
		const to = edges.to[e];
		const position = rank[to] > rank[from] ? upFill[from]++ : downFill[to]++;
		head[position] = rank[to] > rank[from] ? to : from;
		weight[position] = edges.weight[e];
		mid[position] = edges.mid[e];
		positionOf[e] = position;
	}
	for (let e = 0; e < total; e++) {
		const position = positionOf[e];
		first[position] = edges.mid[e] < 0 ? -1 : positionOf[edges.first[e]];
		second[position] = edges.mid[e] < 0 ? -1 : positionOf[edges.second[e]];
	}
	return { nodeCount: n, upStart, downStart, head, weight, mid, first, second };
}

/** A point where a search starts or ends: a junction and the cost already spent (or still to spend). */
export interface Terminal {
	node: number;
	cost: number;
}

export interface CoreResult {
	cost: number;
	/** Original segments in travel order with direction 0 (segFrom → segTo) or 1. */
	segments: number[];
	directions: number[];
	settled: number;
}

/** Query state reused across queries (one per thread of work). */
export class HierarchyQuery {
	private readonly forwardHeap: IndexedHeap;
	private readonly backwardHeap: IndexedHeap;
	private readonly distF: Float64Array;
	private readonly distB: Float64Array;
	private readonly stampF: Uint32Array;
	private readonly stampB: Uint32Array;
	private readonly parentF: Int32Array;
	private readonly parentB: Int32Array;
	private stamp = 0;

	private readonly ch: ContractionHierarchy;
	private readonly graph: RoadGraph;

	constructor(ch: ContractionHierarchy, graph: RoadGraph) {
		this.ch = ch;
		this.graph = graph;
		const n = ch.nodeCount;
		this.forwardHeap = new IndexedHeap(n);
		this.backwardHeap = new IndexedHeap(n);
		this.distF = new Float64Array(n);
		this.distB = new Float64Array(n);
		this.stampF = new Uint32Array(n);
		this.stampB = new Uint32Array(n);
		this.parentF = new Int32Array(n);
		this.parentB = new Int32Array(n);
	}

	/** Cheapest path from any source to any target; null when none. */
	findPath(sources: Terminal[], targets: Terminal[], unpack = true): CoreResult | null {
		const { upStart, downStart, head, weight } = this.ch;
		const { distF, distB, stampF, stampB, parentF, parentB, forwardHeap, backwardHeap } = this;
		const stamp = ++this.stamp;
		forwardHeap.clear();
		backwardHeap.clear();
		for (const s of sources) {
			if (stampF[s.node] === stamp && distF[s.node] <= s.cost) continue;
			stampF[s.node] = stamp;
			distF[s.node] = s.cost;
			parentF[s.node] = -1;
			forwardHeap.push(s.node, s.cost);
		}
		for (const t of targets) {
			if (stampB[t.node] === stamp && distB[t.node] <= t.cost) continue;
			stampB[t.node] = stamp;
			distB[t.node] = t.cost;
			parentB[t.node] = -1;
			backwardHeap.push(t.node, t.cost);
		}
		let best = Number.POSITIVE_INFINITY;
		let meet = -1;
		let settled = 0;
		while (forwardHeap.size > 0 || backwardHeap.size > 0) {
			const topF = forwardHeap.peekKey();
			const topB = backwardHeap.peekKey();
			if (Math.min(topF, topB) >= best) break;
			const forward = topF <= topB;
			const heap = forward ? forwardHeap : backwardHeap;
			const dist = forward ? distF : distB;
			const stampOwn = forward ? stampF : stampB;
			const parent = forward ? parentF : parentB;
			const otherDist = forward ? distB : distF;
			const otherStamp = forward ? stampB : stampF;
			const u = heap.pop();
			settled++;
			const du = dist[u];
			if (otherStamp[u] === stamp && du + otherDist[u] < best) {
				best = du + otherDist[u];
				meet = u;
			}
			// Stall on demand: a higher node already reaches u more cheaply, so u's edges cannot help.
			const stallFrom = forward ? downStart[u] : upStart[u];
			const stallTo = forward ? downStart[u + 1] : upStart[u + 1];
			let stalled = false;
			for (let i = stallFrom; i < stallTo; i++) {
				const x = head[i];
				if (stampOwn[x] === stamp && dist[x] + weight[i] < du) {
					stalled = true;
					break;
				}
			}
			if (stalled) continue;
			const from = forward ? upStart[u] : downStart[u];
			const to = forward ? upStart[u + 1] : downStart[u + 1];
			for (let i = from; i < to; i++) {
				const x = head[i];
				const d = du + weight[i];
				if (stampOwn[x] !== stamp || d < dist[x]) {
					stampOwn[x] = stamp;
					dist[x] = d;
					parent[x] = i;
					heap.push(x, d);
				}
			}
		}
		if (meet < 0) return null;
		const segments: number[] = [];
		const directions: number[] = [];
		if (unpack) {
			const forwardEdges: [number, number, number][] = [];
			for (let v = meet; parentF[v] >= 0; ) {
				const e = parentF[v];
				const u = this.findOwner(e, false);
				forwardEdges.push([e, u, v]);
				v = u;
			}
			for (let i = forwardEdges.length - 1; i >= 0; i--) {
				const [e, a, b] = forwardEdges[i];
				this.unpackEdge(e, a, b, segments, directions);
			}
			for (let v = meet; parentB[v] >= 0; ) {
				const e = parentB[v];
				const w = this.findOwner(e, true);
				this.unpackEdge(e, v, w, segments, directions);
				v = w;
			}
		}
		return { cost: best, segments, directions, settled };
	}

	// The node whose up (or down) list holds the edge at this position.
	private findOwner(position: number, down: boolean): number {
		const starts = down ? this.ch.downStart : this.ch.upStart;
		let lo = 0;
		let hi = this.ch.nodeCount - 1;
		while (lo < hi) {
			const mid = (lo + hi + 1) >>> 1;
			if (starts[mid] <= position) lo = mid;
			else hi = mid - 1;
		}
		return lo;
	}

	private unpackEdge(
		position: number,
		from: number,
		to: number,
		segments: number[],
		directions: number[],
	): void {
		const m = this.ch.mid[position];
		if (m < 0) {
			const segment = -1 - m;
			segments.push(segment);
			directions.push(this.graph.segFrom[segment] === from && this.graph.segTo[segment] === to ? 0 : 1);
			return;
		}
		const first = this.ch.first[position];
		const second = this.ch.second[position];
		this.unpackEdge(first, from, m, segments, directions);
		this.unpackEdge(second, m, to, segments, directions);
	}
}
