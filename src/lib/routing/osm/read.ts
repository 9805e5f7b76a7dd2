import { Readable } from 'node:stream';
import { createOsmCollector, type OsmData } from './model.ts';
import { readPbfFile } from './read-pbf.ts';
import { readOsmXmlFile, readOsmXmlStream } from './read-xml.ts';

/** Reads an .osm.pbf, .osm or .osm.gz extract. */
export async function readOsmFile(path: string): Promise<OsmData> {
	const collector = createOsmCollector();
	if (path.endsWith('.pbf')) await readPbfFile(path, collector);
	else if (path.endsWith('.osm') || path.endsWith('.osm.gz') || path.endsWith('.xml')) {
		await readOsmXmlFile(path, collector);
	} else throw new Error(`Unknown extract format: ${path} (expected .osm.pbf, .osm or .osm.gz)`);
	return collector.finish();
}

/** Reads OSM XML held in a string (tests write small graphs by hand). */
export async function readOsmXmlText(xml: string): Promise<OsmData> {
	const collector = createOsmCollector();
	await readOsmXmlStream(Readable.from([xml]), collector);
	return collector.finish();
}
