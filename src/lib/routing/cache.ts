import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import KDBush from 'kdbush';
import type { ContractionHierarchy } from './ch.ts';
import type { Place } from './geocode.ts';
import type { RoadGraph } from './graph.ts';
import type { Region } from './region.ts';

// A built region on disk: a JSON header, then every typed array 8-byte aligned, so loading is one read plus views.
export const CACHE_VERSION = 9;
const MAGIC = 'MSRG';

type Typed = Int32Array | Uint32Array | Float32Array | Float64Array | Uint8Array;
const TYPES: Record<string, new (buffer: ArrayBuffer, offset: number, length: number) => Typed> = {
	Int32Array,
	Uint32Array,
	Float32Array,
	Float64Array,
	Uint8Array,
};

interface Header {
	version: number;
	name: string;
	roadNodeCount: number;
	names: string[];
	features: Place[];
	/** Hierarchy slot → the earlier slot it shares its arrays with. */
	aliases: Record<string, number>;
	hierarchyCount: number;
	arrays: { key: string; type: string; offset: number; length: number }[];
}

function listArrays(region: Region): [string, Typed][] {
	const arrays: [string, Typed][] = [];
	for (const [key, value] of Object.entries(region.graph)) {
		if (ArrayBuffer.isView(value)) arrays.push([`graph.${key}`, value as Typed]);
	}
	region.hierarchies.forEach((ch, m) => {
		// A hierarchy shared with an earlier slot is stored once (see Header.aliases).
		if (region.hierarchies.indexOf(ch) !== m) return;
		for (const [key, value] of Object.entries(ch)) {
			if (ArrayBuffer.isView(value)) arrays.push([`ch${m}.${key}`, value as Typed]);
		}
	});
	arrays.push(['snap.tree', new Uint8Array(region.snapIndex.tree.data)]);
	arrays.push(['snap.extra', region.snapIndex.extra]);
	return arrays;
}

export function writeRegionCache(path: string, region: Region): void {
	const arrays = listArrays(region);
	let offset = 0;
	const entries = arrays.map(([key, array]) => {
		const entry = { key, type: array.constructor.name, offset, length: array.length };
		offset += Math.ceil(array.byteLength / 8) * 8;
		return entry;
	});
	const header: Header = {
		version: CACHE_VERSION,
		name: region.name,
		roadNodeCount: region.roadNodeCount,
		names: region.graph.names,
		features: region.features,
		aliases: Object.fromEntries(
			region.hierarchies
				.map((ch, m) => [String(m), region.hierarchies.indexOf(ch)] as const)
				.filter(([m, first]) => Number(m) !== first),
		),
		hierarchyCount: region.hierarchies.length,
		arrays: entries,
	};
	const headerBytes = Buffer.from(JSON.stringify(header));
	const headerSize = Math.ceil((headerBytes.length + 8) / 8) * 8;
	const out = Buffer.alloc(headerSize + offset);
	out.write(MAGIC, 0, 'latin1');
	out.writeUInt32LE(headerBytes.length, 4);
	headerBytes.copy(out, 8);
	arrays.forEach(([, array], i) => {
		out.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), headerSize + entries[i].offset);
	});
	mkdirSync(dirname(path), { recursive: true });
	// Write then rename, so a crash never leaves a half-written cache that later loads.
	const temporary = `${path}.${process.pid}.tmp`;
	writeFileSync(temporary, out);
	renameSync(temporary, path);
}

/** Loads a cached region; null when the file is missing, foreign or from another version. */
export function readRegionCache(path: string): Region | null {
	let file: Buffer;
	try {
		file = readFileSync(path);
	} catch {
		return null;
	}
	if (file.length < 8 || file.toString('latin1', 0, 4) !== MAGIC) return null;
	const headerLength = file.readUInt32LE(4);
	let header: Header;
	try {
		header = JSON.parse(file.toString('utf8', 8, 8 + headerLength)) as Header;
	} catch {
		return null;
	}
	if (header.version !== CACHE_VERSION) return null;
	const headerSize = Math.ceil((headerLength + 8) / 8) * 8;
	// A truncated file (disk full, killed writer) is rebuilt rather than trusted.
	let needed = 0;
	for (const entry of header.arrays) {
		const Type = TYPES[entry.type] as unknown as { BYTES_PER_ELEMENT: number } | undefined;
		if (!Type) return null;
		needed = Math.max(needed, entry.offset + entry.length * Type.BYTES_PER_ELEMENT);
	}
	if (file.length - headerSize < needed) return null;
	// Views need an aligned buffer of their own.
	const buffer = new ArrayBuffer(file.length - headerSize);
	new Uint8Array(buffer).set(file.subarray(headerSize));
	const arrays = new Map<string, Typed>();
	for (const entry of header.arrays) {
		const Type = TYPES[entry.type];
		if (!Type) return null;
		arrays.set(entry.key, new Type(buffer, entry.offset, entry.length));
	}
	const pick = (prefix: string): Record<string, unknown> => {
		const result: Record<string, unknown> = {};
		for (const [key, value] of arrays) if (key.startsWith(prefix)) result[key.slice(prefix.length)] = value;
		return result;
	};
	const graphArrays = pick('graph.');
	const graph = {
		...graphArrays,
		junctionCount: (graphArrays.adjStart as Uint32Array).length - 1,
		segmentCount: (graphArrays.segFrom as Uint32Array).length,
		names: header.names,
	} as unknown as RoadGraph;
	const hierarchies: ContractionHierarchy[] = [];
	for (let m = 0; m < header.hierarchyCount; m++) {
		const alias = header.aliases[String(m)];
		if (alias !== undefined) {
			hierarchies.push(hierarchies[alias]);
			continue;
		}
		const ch = pick(`ch${m}.`);
		if (!ch.head) return null;
		hierarchies.push({
			...ch,
			nodeCount: (ch.upStart as Uint32Array).length - 1,
		} as unknown as ContractionHierarchy);
	}
	const treeBytes = arrays.get('snap.tree') as Uint8Array;
	const treeBuffer = treeBytes.buffer.slice(
		treeBytes.byteOffset,
		treeBytes.byteOffset + treeBytes.byteLength,
	);
	return {
		name: header.name,
		graph,
		hierarchies,
		snapIndex: { tree: KDBush.from(treeBuffer), extra: arrays.get('snap.extra') as Uint32Array },
		features: header.features,
		roadNodeCount: header.roadNodeCount,
	};
}
