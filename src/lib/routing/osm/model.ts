import type { Tags } from '../tags.ts';

// What the importer keeps from an extract: every node's position, routable ways and named features.
export interface OsmWay {
	id: number;
	refs: number[];
	tags: Tags;
}

export interface OsmPoi {
	name: string;
	kind: string;
	lat: number;
	lon: number;
}

export interface OsmData {
	nodeCount: number;
	/** Node ids; sorted ascending after finishOsmData. */
	nodeIds: Float64Array;
	/** Degrees × 1e7. */
	nodeLat: Int32Array;
	nodeLon: Int32Array;
	ways: OsmWay[];
	pois: OsmPoi[];
	restrictions: OsmRestriction[];
}

/** A turn restriction from one way over a node onto another: banned, or the only turn allowed there. */
export interface OsmRestriction {
	from: number;
	via: number;
	to: number;
	only: boolean;
	/** Bit m set: binds mode m (MODES order: pedestrian, bicycle, auto). */
	modes: number;
}

export interface OsmSink {
	addNode(id: number, lat: number, lon: number, tags: Tags | null): void;
	addWay(id: number, refs: number[], tags: Tags): void;
	/** Readers skip relations entirely when a sink has no use for them. */
	addRelation?(id: number, members: OsmMember[], tags: Tags): void;
}

const POI_KEYS: [string, (v: string) => boolean][] = [
	['place', (v) => v !== 'locality' && v !== 'plot'],
	['natural', (v) => v === 'peak' || v === 'saddle' || v === 'volcano' || v === 'water' || v === 'glacier'],
	['leisure', (v) => v === 'park' || v === 'nature_reserve' || v === 'garden' || v === 'stadium'],
	['tourism', (v) => v === 'viewpoint' || v === 'attraction' || v === 'museum' || v === 'alpine_hut'],
	['boundary', (v) => v === 'national_park'],
];

/** The feature kind worth finding by name, or null. */
export function getPoiKind(tags: Tags): string | null {
	if (!tags.name) return null;
	for (const [key, accept] of POI_KEYS) {
		const value = tags[key];
		if (value !== undefined && accept(value)) return `${key}=${value}`;
	}
	return null;
}

/** A relation member: `type` is 'node', 'way' or 'relation'. */
export interface OsmMember {
	type: 'node' | 'way' | 'relation';
	ref: number;
	role: string;
}

const BICYCLE = 1 << 1;
const AUTO = 1 << 2;
// Which modes a restriction tag binds: plain `restriction` binds vehicles, never walkers.
const RESTRICTION_KEYS: [string, number][] = [
	['restriction', BICYCLE | AUTO],
	['restriction:motorcar', AUTO],
	['restriction:motor_vehicle', AUTO],
	['restriction:vehicle', BICYCLE | AUTO],
	['restriction:bicycle', BICYCLE],
];

/** Reads a `type=restriction` relation over one via node; null for anything else (via ways are not read). */
export function readRestriction(members: OsmMember[], tags: Tags): OsmRestriction | null {
	if (tags.type !== 'restriction') return null;
	let value: string | undefined;
	let modes = 0;
	for (const [key, bits] of RESTRICTION_KEYS) {
		if (tags[key] !== undefined) {
			value = tags[key];
			modes = bits;
			break;
		}
	}
	if (!value || !(value.startsWith('no_') || value.startsWith('only_'))) return null;
	const except = (tags.except ?? '').split(';').map((item) => item.trim());
	if (except.includes('bicycle')) modes &= ~BICYCLE;
	if (except.includes('motorcar') || except.includes('motor_vehicle')) modes &= ~AUTO;
	const from = members.filter((m) => m.role === 'from' && m.type === 'way');
	const via = members.filter((m) => m.role === 'via');
	const to = members.filter((m) => m.role === 'to' && m.type === 'way');
	if (modes === 0 || from.length !== 1 || to.length !== 1 || via.length !== 1 || via[0].type !== 'node') {
		return null;
	}
	return { from: from[0].ref, via: via[0].ref, to: to[0].ref, only: value.startsWith('only_'), modes };
}

/** Every node's position in growable typed arrays, sorted by id on finish so ways can look them up. */
export function createNodeTable(): {
	add(id: number, lat: number, lon: number): void;
	finish(): Pick<OsmData, 'nodeCount' | 'nodeIds' | 'nodeLat' | 'nodeLon'>;
} {
	let capacity = 1 << 16;
	let ids = new Float64Array(capacity);
	let lats = new Int32Array(capacity);
	let lons = new Int32Array(capacity);
	let count = 0;
	let sorted = true;
	return {
		add(id, lat, lon) {
			if (count === capacity) {
				capacity *= 2;
				const nextIds = new Float64Array(capacity);
				nextIds.set(ids);
				ids = nextIds;
				const nextLats = new Int32Array(capacity);
				nextLats.set(lats);
				lats = nextLats;
				const nextLons = new Int32Array(capacity);
				nextLons.set(lons);
				lons = nextLons;
			}
			if (count > 0 && ids[count - 1] >= id) sorted = false;
			ids[count] = id;
			lats[count] = Math.round(lat * 1e7);
			lons[count] = Math.round(lon * 1e7);
			count++;
		},
		finish() {
			if (!sorted) {
				const order = Array.from({ length: count }, (_, i) => i).sort((a, b) => ids[a] - ids[b]);
				const nextIds = new Float64Array(count);
				const nextLats = new Int32Array(count);
				const nextLons = new Int32Array(count);
				order.forEach((from, to) => {
					nextIds[to] = ids[from];
					nextLats[to] = lats[from];
					nextLons[to] = lons[from];
				});
				ids = nextIds;
				lats = nextLats;
				lons = nextLons;
			}
			return {
				nodeCount: count,
				nodeIds: ids.subarray(0, count),
				nodeLat: lats.subarray(0, count),
				nodeLon: lons.subarray(0, count),
			};
		},
	};
}

/** Collects elements into growable typed arrays; ways without a highway tag only count as named features. */
export function createOsmCollector(): OsmSink & { finish(): OsmData } {
	const nodes = createNodeTable();
	const ways: OsmWay[] = [];
	const areaPois: OsmWay[] = [];
	const pois: OsmPoi[] = [];
	const restrictions: OsmRestriction[] = [];
	return {
		addNode(id, lat, lon, tags) {
			nodes.add(id, lat, lon);
			if (tags) {
				const kind = getPoiKind(tags);
				if (kind) pois.push({ name: tags.name, kind, lat, lon });
			}
		},
		addWay(id, refs, tags) {
			if (tags.highway !== undefined && refs.length >= 2) ways.push({ id, refs, tags });
			else if (getPoiKind(tags) && refs.length > 0) areaPois.push({ id, refs: [refs[0]], tags });
		},
		addRelation(_id, members, tags) {
			const restriction = readRestriction(members, tags);
			if (restriction) restrictions.push(restriction);
		},
		finish() {
			const data: OsmData = { ...nodes.finish(), ways, pois, restrictions };
			// Parks and lakes drawn as areas are found at their first node.
			for (const way of areaPois) {
				const index = findNodeIndex(data, way.refs[0]);
				if (index < 0) continue;
				const kind = getPoiKind(way.tags);
				if (kind)
					pois.push({
						name: way.tags.name,
						kind,
						lat: data.nodeLat[index] / 1e7,
						lon: data.nodeLon[index] / 1e7,
					});
			}
			return data;
		},
	};
}

/** Binary search of a node id; -1 when the extract lacks it. */
export function findNodeIndex(data: Pick<OsmData, 'nodeCount' | 'nodeIds'>, id: number): number {
	const ids = data.nodeIds;
	let lo = 0;
	let hi = data.nodeCount - 1;
	while (lo <= hi) {
		const mid = (lo + hi) >>> 1;
		const value = ids[mid];
		if (value === id) return mid;
		if (value < id) lo = mid + 1;
		else hi = mid - 1;
	}
	return -1;
}
