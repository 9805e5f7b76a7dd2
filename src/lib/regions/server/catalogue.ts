import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { getRegionName, listExtracts } from '../../routing/server/regions.ts';

// Where map regions live: the bundled demo extracts in data-regions/ (part of the product, read-only)
// and the operator's extracts in DATA_DIR/regions, added and removed by `npm run regions`.

/** The bundled demo regions (Andorra, Monaco, central Harrisburg). */
export const BUNDLED_REGIONS_DIR = join(process.cwd(), 'data-regions');

/** The operator's regions under a data folder. */
export function getAddedRegionsDir(dataDir: string): string {
	return join(dataDir, 'regions');
}

/** Every folder the server loads regions from, bundled first. */
export function getRegionFolders(dataDir: string): string[] {
	return [BUNDLED_REGIONS_DIR, getAddedRegionsDir(dataDir)];
}

/** A region's name: lower-case letters, digits and dashes, as it appears in file names and messages. */
export const REGION_NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** The name a source suggests: `liechtenstein-latest.osm.pbf` → `liechtenstein`. */
export function suggestRegionName(source: string): string {
	const path = /^https?:\/\//i.test(source) ? new URL(source).pathname : source;
	const file = path.split(/[\\/]/).pop() ?? '';
	return file
		.replace(/\.(osm\.pbf|osm\.gz|osm|pbf|gz)$/i, '')
		.replace(/-latest$/i, '')
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-+|-+$/g, '')
		.slice(0, 63);
}

/** What `regions add` records beside an extract: where it came from and what it holds. */
export interface RegionManifest {
	name: string;
	source: string;
	addedAt: string;
	bytes: number;
	sha256: string;
	format: 'osm.pbf' | 'osm.gz' | 'osm';
	nodes: number;
	ways: number;
	roadNodes: number;
	places: number;
	mapFeatures: number;
	/** [west, south, east, north] of the map features. */
	bounds: [number, number, number, number];
	importSeconds: number;
	/** Elevation tiles over the region's roads: fetched now, already there, or failed (fetched later on demand). */
	heights: {
		tiles: number;
		fetched: number;
		present: number;
		failed: { tile: string; reason: string }[];
	} | null;
}

export interface RegionEntry {
	name: string;
	path: string;
	bytes: number;
	bundled: boolean;
	manifest: RegionManifest | null;
}

export function getManifestPath(dataDir: string, name: string): string {
	return join(getAddedRegionsDir(dataDir), `${name}.json`);
}

function readManifest(path: string): RegionManifest | null {
	try {
		return JSON.parse(readFileSync(path, 'utf8')) as RegionManifest;
	} catch {
		return null;
	}
}

/** The bundled and added regions, as the server would load them. */
export function listRegions(dataDir: string): RegionEntry[] {
	return getRegionFolders(dataDir).flatMap((dir, index) =>
		listExtracts(dir).map((file) => {
			const name = getRegionName(file);
			const path = join(dir, file);
			const bundled = index === 0;
			return {
				name,
				path,
				bytes: statSync(path).size,
				bundled,
				manifest: bundled ? null : readManifest(getManifestPath(dataDir, name)),
			};
		}),
	);
}

/** The extract files of one added region (normally one; two only if a replacement changed its format). */
export function findAddedExtracts(dataDir: string, name: string): string[] {
	const dir = getAddedRegionsDir(dataDir);
	return listExtracts(dir)
		.filter((file) => getRegionName(file) === name)
		.map((file) => join(dir, file));
}
