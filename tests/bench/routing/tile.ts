import { measureDistance } from '../../../src/lib/routing/geo.ts';
import { findNodeIndex, type OsmData, type OsmWay } from '../../../src/lib/routing/osm/model.ts';
import type { Tags } from '../../../src/lib/routing/tags.ts';

// Port of ../shared/tools/tile_osm.py: copies the routable part of an extract N×N times with fresh ids and
// stitches neighbouring copies with car and foot connectors, giving one large connected network.

const CONNECT_HW = new Set([
	'primary',
	'primary_link',
	'secondary',
	'secondary_link',
	'tertiary',
	'tertiary_link',
	'unclassified',
	'residential',
	'living_street',
	'road',
	'service',
]);
const FOOT_EXCLUDED = new Set(['motorway', 'motorway_link', 'trunk', 'trunk_link']);

function isTwoWay(tags: Tags): boolean {
	return (
		['no', 'false', '0'].includes(tags.oneway ?? 'no') &&
		!['roundabout', 'circular'].includes(tags.junction ?? '')
	);
}

interface Base {
	/** Kept node k: lon, lat in degrees. */
	lon: Float64Array;
	lat: Float64Array;
	ways: { refs: number[]; tags: Tags }[];
}

function findCandidates(base: Base, mode: 'car' | 'foot'): number[] {
	const n = base.lon.length;
	const parent = new Int32Array(n).map((_, i) => i);
	const inNetwork = new Uint8Array(n);
	const ends = new Uint8Array(n);
	const find = (x: number): number => {
		let v = x;
		while (parent[v] !== v) {
			parent[v] = parent[parent[v]];
			v = parent[v];
		}
		return v;
	};
	for (const way of base.ways) {
		const hw = way.tags.highway ?? '';
		if (mode === 'car') {
			if (!CONNECT_HW.has(hw) && !['motorway', 'trunk'].includes(hw.split('_')[0])) continue;
			if (way.tags.access === 'no' || way.tags.access === 'private') continue;
			if (CONNECT_HW.has(hw) && isTwoWay(way.tags)) for (const r of way.refs) ends[r] = 1;
		} else {
			if (!hw || FOOT_EXCLUDED.has(hw)) continue;
			for (const r of way.refs) ends[r] = 1;
		}
		for (let i = 0; i < way.refs.length; i++) {
			inNetwork[way.refs[i]] = 1;
			if (i > 0) {
				const a = find(way.refs[i - 1]);
				const b = find(way.refs[i]);
				if (a !== b) parent[a] = b;
			}
		}
	}
	const sizes = new Map<number, number>();
	for (let x = 0; x < n; x++) if (inNetwork[x]) sizes.set(find(x), (sizes.get(find(x)) ?? 0) + 1);
	let root = -1;
	let best = 0;
	for (const [r, size] of sizes) {
		if (size > best) {
			best = size;
			root = r;
		}
	}
	const result: number[] = [];
	for (let x = 0; x < n; x++) if (ends[x] && find(x) === root) result.push(x);
	return result;
}

function pairEdges(
	base: Base,
	candidates: number[],
	axis: 0 | 1,
	size: number,
	perEdge: number,
): [number, number][] {
	const coord = (k: number, a: 0 | 1) => (a === 0 ? base.lon[k] : base.lat[k]);
	const bounds = (a: 0 | 1) => {
		let lo = Infinity;
		let hi = -Infinity;
		for (let k = 0; k < base.lon.length; k++) {
			lo = Math.min(lo, coord(k, a));
			hi = Math.max(hi, coord(k, a));
		}
		return [lo, hi];
	};
	const [lo, hi] = bounds(axis);
	const other: 0 | 1 = axis === 0 ? 1 : 0;
	const [oLo, oHi] = bounds(other);
	const band = 0.25;
	const nearEdge = (nodes: number[], key: (k: number) => number) => {
		const bins = new Map<number, number[]>();
		for (const c of nodes) {
			const b = Math.min(19, Math.floor((20 * (coord(c, other) - oLo)) / (oHi - oLo || 1)));
			const list = bins.get(b) ?? [];
			list.push(c);
			bins.set(b, list);
		}
		return [...bins.values()].flatMap((list) => list.sort((x, y) => key(x) - key(y)).slice(0, 20));
	};
	const high = nearEdge(
		candidates.filter((c) => coord(c, axis) >= hi - band * size),
		(c) => -coord(c, axis),
	);
	const low = nearEdge(
		candidates.filter((c) => coord(c, axis) <= lo + band * size),
		(c) => coord(c, axis),
	);
	const pairs: [number, number, number, number][] = [];
	for (const a of high) {
		for (const b of low) {
			const bx = base.lon[b] + (axis === 0 ? size : 0);
			const by = base.lat[b] + (axis === 1 ? size : 0);
			const mid = axis === 0 ? (base.lat[a] + by) / 2 : (base.lon[a] + bx) / 2;
			pairs.push([measureDistance(base.lat[a], base.lon[a], by, bx), a, b, mid]);
		}
	}
	pairs.sort((x, y) => x[0] - y[0]);
	const minSeparation = (oHi - oLo) / (2 * perEdge);
	const chosen: [number, number, number, number][] = [];
	const used = new Set<number>();
	for (const pair of pairs) {
		const [, a, b, mid] = pair;
		if (used.has(a) || used.has(b)) continue;
		if (chosen.some((c) => Math.abs(mid - c[3]) < minSeparation)) continue;
		chosen.push(pair);
		used.add(a);
		used.add(b);
		if (chosen.length === perEdge) break;
	}
	return chosen.map(([, a, b]) => [a, b]);
}

export interface TiledExtract {
	osm: OsmData;
	nodeCount: number;
	connectorCount: number;
}

/** Tiles the routable part of an extract n×n times (defaults match tile_osm.py: 3 car and 6 foot connectors). */
export function tileExtract(input: OsmData, n: number, perEdge = 3, footPerEdge = 6): TiledExtract {
	const keptIds = new Set<number>();
	const routable = input.ways.filter((way) => way.tags.highway !== undefined);
	for (const way of routable)
		for (const ref of way.refs) if (findNodeIndex(input, ref) >= 0) keptIds.add(ref);
	const sortedIds = [...keptIds].sort((a, b) => a - b);
	const kOf = new Map<number, number>(sortedIds.map((id, k) => [id, k]));
	const nn = sortedIds.length;
	const base: Base = { lon: new Float64Array(nn), lat: new Float64Array(nn), ways: [] };
	sortedIds.forEach((id, k) => {
		const index = findNodeIndex(input, id);
		base.lat[k] = input.nodeLat[index] / 1e7;
		base.lon[k] = input.nodeLon[index] / 1e7;
	});
	for (const way of routable) {
		const refs = way.refs.filter((ref) => kOf.has(ref)).map((ref) => kOf.get(ref) as number);
		if (refs.length >= 2) base.ways.push({ refs, tags: way.tags });
	}
	let minLon = Infinity;
	let maxLon = -Infinity;
	let minLat = Infinity;
	let maxLat = -Infinity;
	for (let k = 0; k < nn; k++) {
		minLon = Math.min(minLon, base.lon[k]);
		maxLon = Math.max(maxLon, base.lon[k]);
		minLat = Math.min(minLat, base.lat[k]);
		maxLat = Math.max(maxLat, base.lat[k]);
	}
	const width = maxLon - minLon;
	const height = maxLat - minLat;
	const kinds: { tags: Tags; eastWest: [number, number][]; southNorth: [number, number][] }[] = [];
	for (const [mode, count, highway] of [
		['car', perEdge, 'unclassified'],
		['foot', footPerEdge, 'footway'],
	] as const) {
		const candidates = findCandidates(base, mode);
		kinds.push({
			tags: { highway, tile_connector: mode },
			eastWest: pairEdges(base, candidates, 0, width, count),
			southNorth: pairEdges(base, candidates, 1, height, count),
		});
	}
	const total = n * n * nn;
	const nodeIds = new Float64Array(total);
	const nodeLat = new Int32Array(total);
	const nodeLon = new Int32Array(total);
	const ways: OsmWay[] = [];
	let wayId = 1;
	let connectorCount = 0;
	for (let t = 0; t < n * n; t++) {
		const i = t % n;
		const j = Math.floor(t / n);
		const offset = t * nn;
		for (let k = 0; k < nn; k++) {
			nodeIds[offset + k] = offset + k + 1;
			nodeLat[offset + k] = Math.round((base.lat[k] + j * height) * 1e7);
			nodeLon[offset + k] = Math.round((base.lon[k] + i * width) * 1e7);
		}
		for (const way of base.ways) {
			ways.push({ id: wayId++, refs: way.refs.map((k) => offset + k + 1), tags: way.tags });
		}
	}
	for (let t = 0; t < n * n; t++) {
		const i = t % n;
		const j = Math.floor(t / n);
		for (const kind of kinds) {
			if (i + 1 < n) {
				for (const [a, b] of kind.eastWest) {
					ways.push({ id: wayId++, refs: [t * nn + a + 1, (t + 1) * nn + b + 1], tags: kind.tags });
					connectorCount++;
				}
			}
			if (j + 1 < n) {
				for (const [a, b] of kind.southNorth) {
					ways.push({ id: wayId++, refs: [t * nn + a + 1, (t + n) * nn + b + 1], tags: kind.tags });
					connectorCount++;
				}
			}
		}
	}
	return {
		osm: { nodeCount: total, nodeIds, nodeLat, nodeLon, ways, pois: [], restrictions: [] },
		nodeCount: total,
		connectorCount,
	};
}
