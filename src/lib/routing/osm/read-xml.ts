import { createReadStream, statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { SaxesParser } from 'saxes';
import type { Tags } from '../tags.ts';
import type { OsmMember, OsmSink } from './model.ts';

// OSM XML (plain or gzipped), streamed through a SAX parser; DOCTYPE is refused.

/** Streams OSM XML text from a readable into the sink. */
export async function readOsmXmlStream(input: Readable, sink: OsmSink): Promise<void> {
	const parser = new SaxesParser();
	let current: {
		kind: 'node' | 'way' | 'relation';
		id: number;
		lat: number;
		lon: number;
		refs: number[];
		members: OsmMember[];
		tags: Tags | null;
	} | null = null;
	let failure: Error | null = null;
	let sawRoot = false;
	parser.on('doctype', () => {
		failure ??= new Error('OSM XML with a DOCTYPE is refused');
	});
	parser.on('error', (error) => {
		failure ??= error;
	});
	parser.on('opentag', (tag) => {
		const attributes = tag.attributes as Record<string, string>;
		if (!sawRoot) {
			sawRoot = true;
			// An HTML page or any other XML saved under an extract's name is refused, not read as empty.
			if (tag.name !== 'osm')
				failure ??= new Error(`not OSM XML (its root element is <${tag.name}>, not <osm>)`);
		}
		if (tag.name === 'node') {
			current = {
				kind: 'node',
				id: Number(attributes.id),
				lat: Number(attributes.lat),
				lon: Number(attributes.lon),
				refs: [],
				members: [],
				tags: null,
			};
		} else if (tag.name === 'way') {
			current = { kind: 'way', id: Number(attributes.id), lat: 0, lon: 0, refs: [], members: [], tags: null };
		} else if (tag.name === 'nd' && current?.kind === 'way') {
			current.refs.push(Number(attributes.ref));
		} else if (tag.name === 'tag' && current) {
			current.tags ??= {};
			current.tags[attributes.k] = attributes.v;
		} else if (tag.name === 'relation') {
			current = sink.addRelation
				? { kind: 'relation', id: Number(attributes.id), lat: 0, lon: 0, refs: [], members: [], tags: null }
				: null;
		} else if (tag.name === 'member' && current?.kind === 'relation') {
			const type = attributes.type;
			if (type === 'node' || type === 'way' || type === 'relation') {
				current.members.push({ type, ref: Number(attributes.ref), role: attributes.role ?? '' });
			}
		}
	});
	parser.on('closetag', (tag) => {
		if (!current) return;
		if (tag.name === 'node' && current.kind === 'node') {
			if (Number.isFinite(current.lat) && Number.isFinite(current.lon)) {
				sink.addNode(current.id, current.lat, current.lon, current.tags);
			}
			current = null;
		} else if (tag.name === 'way' && current.kind === 'way') {
			sink.addWay(current.id, current.refs, current.tags ?? {});
			current = null;
		} else if (tag.name === 'relation' && current.kind === 'relation') {
			sink.addRelation?.(current.id, current.members, current.tags ?? {});
			current = null;
		}
	});
	input.setEncoding('utf8');
	for await (const chunk of input) {
		parser.write(chunk as string);
		if (failure) {
			input.destroy();
			throw failure;
		}
	}
	parser.close();
	if (failure) throw failure;
	if (!sawRoot) throw new Error('not OSM XML (no <osm> element)');
}

/** Streams an .osm or .osm.gz file into the sink. */
export async function readOsmXmlFile(
	path: string,
	sink: OsmSink,
	onBytes?: (bytesRead: number, totalBytes: number) => void,
): Promise<void> {
	const file = createReadStream(path);
	if (onBytes) {
		const totalBytes = statSync(path).size;
		let bytesRead = 0;
		file.on('data', (chunk) => {
			bytesRead += chunk.length;
			onBytes(bytesRead, totalBytes);
		});
	}
	const input = path.endsWith('.gz') ? file.pipe(createGunzip()) : file;
	file.on('error', (error) => input.destroy(error));
	await readOsmXmlStream(input, sink);
}
