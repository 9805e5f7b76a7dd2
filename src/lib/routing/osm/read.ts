import { Readable } from 'node:stream';
import { createOsmCollector, type OsmData, type OsmSink } from './model.ts';
import { type OnBytesRead, readPbfFile } from './read-pbf.ts';
import { readOsmXmlFile, readOsmXmlStream } from './read-xml.ts';

/** Streams an .osm.pbf, .osm or .osm.gz extract into any sink (routing and map tiles keep different things). */
export async function readOsmInto(path: string, sink: OsmSink, onBytes?: OnBytesRead): Promise<void> {
	if (path.endsWith('.pbf')) await readPbfFile(path, sink, onBytes);
	else if (path.endsWith('.osm') || path.endsWith('.osm.gz') || path.endsWith('.xml')) {
		await readOsmXmlFile(path, sink, onBytes);
	} else throw new Error(`Unknown extract format: ${path} (expected .osm.pbf, .osm or .osm.gz)`);
}

/** Reads an .osm.pbf, .osm or .osm.gz extract for routing. */
export async function readOsmFile(path: string): Promise<OsmData> {
	const collector = createOsmCollector();
	await readOsmInto(path, collector);
	return collector.finish();
}

/** Reads OSM XML held in a string into a sink (tests write small extracts by hand). */
export async function readOsmXmlTextInto(xml: string, sink: OsmSink): Promise<void> {
	await readOsmXmlStream(Readable.from([xml]), sink);
}

/** Reads OSM XML held in a string for routing. */
export async function readOsmXmlText(xml: string): Promise<OsmData> {
	const collector = createOsmCollector();
	await readOsmXmlTextInto(xml, collector);
	return collector.finish();
}
