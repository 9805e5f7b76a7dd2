import { open } from 'node:fs/promises';
import { inflateSync } from 'node:zlib';
import { PbfReader } from 'pbf';
import type { Tags } from '../tags.ts';
import type { OsmMember, OsmSink } from './model.ts';

// OSM PBF, read one blob at a time so memory stays bounded by the largest blob (≤ 32 MiB by the format).

interface BlobHeader {
	type: string;
	datasize: number;
}

function readBlobHeader(tag: number, header: BlobHeader, pbf: PbfReader): void {
	if (tag === 1) header.type = pbf.readString();
	else if (tag === 3) header.datasize = pbf.readVarint();
}

interface Blob {
	raw: Uint8Array | null;
	zlib: Uint8Array | null;
	other: boolean;
}

function readBlob(tag: number, blob: Blob, pbf: PbfReader): void {
	if (tag === 1) blob.raw = pbf.readBytes();
	else if (tag === 3) blob.zlib = pbf.readBytes();
	else if (tag >= 4) blob.other = true;
}

interface Block {
	strings: string[];
	granularity: number;
	latOffset: number;
	lonOffset: number;
	groups: [number, number][];
}

const decoder = new TextDecoder();

function readStringTable(tag: number, strings: string[], pbf: PbfReader): void {
	if (tag === 1) {
		const bytes = pbf.readBytes();
		strings.push(decoder.decode(bytes));
	}
}

function readBlock(tag: number, block: Block, pbf: PbfReader): void {
	if (tag === 1) pbf.readMessage(readStringTable, block.strings);
	else if (tag === 2) {
		// Groups are decoded after granularity and offsets, which may follow them.
		const length = pbf.readVarint();
		block.groups.push([pbf.pos, pbf.pos + length]);
		pbf.pos += length;
	} else if (tag === 17) block.granularity = pbf.readVarint();
	else if (tag === 19) block.latOffset = pbf.readVarint(true);
	else if (tag === 20) block.lonOffset = pbf.readVarint(true);
}

function decodeDense(pbf: PbfReader, end: number, block: Block, sink: OsmSink): void {
	let ids: number[] = [];
	let lats: number[] = [];
	let lons: number[] = [];
	let keysVals: number[] = [];
	while (pbf.pos < end) {
		const value = pbf.readVarint();
		const tag = value >> 3;
		pbf.type = value & 7;
		if (tag === 1) ids = pbf.readPackedSVarint();
		else if (tag === 8) lats = pbf.readPackedSVarint();
		else if (tag === 9) lons = pbf.readPackedSVarint();
		else if (tag === 10) keysVals = pbf.readPackedVarint();
		else pbf.skip(value & 7);
	}
	const scale = block.granularity * 1e-9;
	let id = 0;
	let lat = 0;
	let lon = 0;
	let kv = 0;
	for (let i = 0; i < ids.length; i++) {
		id += ids[i];
		lat += lats[i];
		lon += lons[i];
		let tags: Tags | null = null;
		if (kv < keysVals.length) {
			while (keysVals[kv] !== 0 && kv < keysVals.length) {
				tags ??= {};
				tags[block.strings[keysVals[kv]]] = block.strings[keysVals[kv + 1]];
				kv += 2;
			}
			kv++;
		}
		sink.addNode(id, block.latOffset * 1e-9 + lat * scale, block.lonOffset * 1e-9 + lon * scale, tags);
	}
}

function readTags(keys: number[], vals: number[], strings: string[]): Tags {
	const tags: Tags = {};
	for (let i = 0; i < keys.length; i++) tags[strings[keys[i]]] = strings[vals[i]];
	return tags;
}

function decodeWay(pbf: PbfReader, end: number, block: Block, sink: OsmSink): void {
	let id = 0;
	let keys: number[] = [];
	let vals: number[] = [];
	let refs: number[] = [];
	while (pbf.pos < end) {
		const value = pbf.readVarint();
		const tag = value >> 3;
		pbf.type = value & 7;
		if (tag === 1) id = pbf.readVarint();
		else if (tag === 2) keys = pbf.readPackedVarint();
		else if (tag === 3) vals = pbf.readPackedVarint();
		else if (tag === 8) refs = pbf.readPackedSVarint();
		else pbf.skip(value & 7);
	}
	const tags = readTags(keys, vals, block.strings);
	for (let i = 1; i < refs.length; i++) refs[i] += refs[i - 1];
	sink.addWay(id, refs, tags);
}

function decodeNode(pbf: PbfReader, end: number, block: Block, sink: OsmSink): void {
	let id = 0;
	let lat = 0;
	let lon = 0;
	let keys: number[] = [];
	let vals: number[] = [];
	while (pbf.pos < end) {
		const value = pbf.readVarint();
		const tag = value >> 3;
		pbf.type = value & 7;
		if (tag === 1) id = pbf.readSVarint();
		else if (tag === 2) keys = pbf.readPackedVarint();
		else if (tag === 3) vals = pbf.readPackedVarint();
		else if (tag === 8) lat = pbf.readSVarint();
		else if (tag === 9) lon = pbf.readSVarint();
		else pbf.skip(value & 7);
	}
	let tags: Tags | null = null;
	for (let i = 0; i < keys.length; i++) {
		tags ??= {};
		tags[block.strings[keys[i]]] = block.strings[vals[i]];
	}
	const scale = block.granularity * 1e-9;
	sink.addNode(id, block.latOffset * 1e-9 + lat * scale, block.lonOffset * 1e-9 + lon * scale, tags);
}

const MEMBER_TYPES: OsmMember['type'][] = ['node', 'way', 'relation'];

function decodeRelation(pbf: PbfReader, end: number, block: Block, sink: OsmSink): void {
	let id = 0;
	let keys: number[] = [];
	let vals: number[] = [];
	let roles: number[] = [];
	let memberIds: number[] = [];
	let types: number[] = [];
	while (pbf.pos < end) {
		const value = pbf.readVarint();
		const tag = value >> 3;
		pbf.type = value & 7;
		if (tag === 1) id = pbf.readVarint();
		else if (tag === 2) keys = pbf.readPackedVarint();
		else if (tag === 3) vals = pbf.readPackedVarint();
		else if (tag === 8) roles = pbf.readPackedVarint();
		else if (tag === 9) memberIds = pbf.readPackedSVarint();
		else if (tag === 10) types = pbf.readPackedVarint();
		else pbf.skip(value & 7);
	}
	const tags = readTags(keys, vals, block.strings);
	const members: OsmMember[] = [];
	let ref = 0;
	for (let i = 0; i < memberIds.length; i++) {
		ref += memberIds[i];
		members.push({ type: MEMBER_TYPES[types[i]] ?? 'node', ref, role: block.strings[roles[i]] ?? '' });
	}
	sink.addRelation?.(id, members, tags);
}

function decodeBlock(data: Uint8Array, sink: OsmSink): void {
	const pbf = new PbfReader(data);
	const block: Block = { strings: [], granularity: 100, latOffset: 0, lonOffset: 0, groups: [] };
	pbf.readFields(readBlock, block);
	for (const [start, end] of block.groups) {
		pbf.pos = start;
		while (pbf.pos < end) {
			const value = pbf.readVarint();
			const tag = value >> 3;
			if ((value & 7) !== 2) {
				pbf.skip(value & 7);
				continue;
			}
			const length = pbf.readVarint();
			const itemEnd = pbf.pos + length;
			if (tag === 1) decodeNode(pbf, itemEnd, block, sink);
			else if (tag === 2) decodeDense(pbf, itemEnd, block, sink);
			else if (tag === 3) decodeWay(pbf, itemEnd, block, sink);
			else if (tag === 4 && sink.addRelation) decodeRelation(pbf, itemEnd, block, sink);
			pbf.pos = itemEnd;
		}
	}
}

/** How far a reader has got through its file, for progress on a terminal. */
export type OnBytesRead = (bytesRead: number, totalBytes: number) => void;

/** Reads exactly `length` bytes at `position`, or says the file ends too soon. */
async function readExactly(
	file: Awaited<ReturnType<typeof open>>,
	length: number,
	position: number,
	size: number,
): Promise<Buffer> {
	const bytes = Buffer.alloc(length);
	const { bytesRead } = await file.read(bytes, 0, length, position);
	if (bytesRead < length) {
		throw new Error(
			`it ends at byte ${size.toLocaleString('en')} in the middle of a block that runs to byte ${(position + length).toLocaleString('en')}: the file is truncated (an interrupted download?)`,
		);
	}
	return bytes;
}

/** Streams an .osm.pbf file into the sink; a file that is not one, or is cut short, is refused with the reason. */
export async function readPbfFile(path: string, sink: OsmSink, onBytes?: OnBytesRead): Promise<void> {
	const file = await open(path, 'r');
	try {
		const size = (await file.stat()).size;
		let position = 0;
		let blobs = 0;
		while (position < size) {
			const headerLength = (await readExactly(file, 4, position, size)).readUInt32BE(0);
			if (headerLength === 0 || headerLength > 64 * 1024)
				throw new Error(`not an OSM PBF file (bad blob header length ${headerLength} at byte ${position})`);
			position += 4;
			const headerBytes = await readExactly(file, headerLength, position, size);
			position += headerLength;
			const header = new PbfReader(headerBytes).readFields(readBlobHeader, { type: '', datasize: 0 });
			// Every PBF extract opens with its OSMHeader block; anything else is some other file.
			if (blobs === 0 && header.type !== 'OSMHeader')
				throw new Error('not an OSM PBF file (it does not start with an OSMHeader block)');
			if (header.datasize > 32 * 1024 * 1024)
				throw new Error(`PBF blob too large (${header.datasize} bytes)`);
			const blobBytes = await readExactly(file, header.datasize, position, size);
			position += header.datasize;
			blobs++;
			onBytes?.(position, size);
			if (header.type !== 'OSMData') continue;
			const blob = new PbfReader(blobBytes).readFields(readBlob, { raw: null, zlib: null, other: false });
			const data = blob.raw ?? (blob.zlib ? inflateSync(blob.zlib) : null);
			if (!data) throw new Error('PBF blob uses an unsupported compression (only raw and zlib are read)');
			decodeBlock(data, sink);
		}
		if (blobs === 0) throw new Error('the file is empty');
	} finally {
		await file.close();
	}
}
