import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FeatureCollection, Geometry, Position } from 'geojson';
import { getRegionName, hashFile } from '../../routing/server/regions.ts';
import type { Bounds, MapFeatureProperties } from '../contract.ts';
import { readMapFeatures } from './features.ts';

// An extract's map features, read once and cached as JSON in DATA_DIR/tile-cache under the
// extract's name and hash, so later starts (and every process of a cluster) index them without
// reading the extract again.

/** Bump when the features read from an extract change, so cached feature sets are read again. */
export const FEATURE_VERSION = 1;

export interface FeatureSet {
	version: number;
	bounds: Bounds;
	collection: FeatureCollection<Geometry, MapFeatureProperties>;
}

/**
 * Where a feature set has data: the box holding all but the outermost 0.5 % of its points on each
 * side, since a few long rivers, railways or boundaries run far beyond the extract's own area.
 */
export function measureBounds(collection: FeatureCollection<Geometry, MapFeatureProperties>): Bounds {
	const lons: number[] = [];
	const lats: number[] = [];
	const visit = (value: unknown): void => {
		const position = value as Position;
		if (typeof position[0] === 'number') {
			lons.push(position[0]);
			lats.push(position[1] as number);
		} else for (const item of value as unknown[]) visit(item);
	};
	for (const feature of collection.features) {
		if (feature.geometry.type !== 'GeometryCollection') visit(feature.geometry.coordinates);
	}
	if (lons.length === 0) return [0, 0, 0, 0];
	const sortedLons = Float64Array.from(lons).sort();
	const sortedLats = Float64Array.from(lats).sort();
	const low = Math.floor((lons.length - 1) * 0.005);
	const high = Math.ceil((lons.length - 1) * 0.995);
	return [sortedLons[low], sortedLats[low], sortedLons[high], sortedLats[high]];
}

/** Where the feature set of an extract with this name and SHA-256 is cached. */
export function getFeatureSetPath(cacheDir: string, name: string, hash: string): string {
	return join(cacheDir, `${name}-${hash.slice(0, 16)}-f${FEATURE_VERSION}.json`);
}

/** The cached feature sets of a region, whatever their input hash or version. */
export function listFeatureSets(cacheDir: string, name: string): string[] {
	if (!existsSync(cacheDir)) return [];
	return readdirSync(cacheDir)
		.filter(
			(file) => file.startsWith(`${name}-`) && /^-[0-9a-f]{16}-f\d+\.json$/.test(file.slice(name.length)),
		)
		.map((file) => join(cacheDir, file));
}

/** Caches a region's features, written whole and then renamed so a reader never sees half a set. */
export function writeFeatureSet(
	path: string,
	collection: FeatureCollection<Geometry, MapFeatureProperties>,
): FeatureSet {
	const set: FeatureSet = { version: FEATURE_VERSION, bounds: measureBounds(collection), collection };
	mkdirSync(dirname(path), { recursive: true });
	const temporary = `${path}.${process.pid}.tmp`;
	writeFileSync(temporary, JSON.stringify(set));
	renameSync(temporary, path);
	return set;
}

/** A region's older feature sets are dead weight once `keep` serves. */
export function dropOtherFeatureSets(cacheDir: string, name: string, keep: string): void {
	for (const stale of listFeatureSets(cacheDir, name)) if (stale !== keep) rmSync(stale, { force: true });
}

/** Reads an extract's feature set from the cache, or reads the extract and caches the set. */
export async function loadFeatureSet(
	extractPath: string,
	cacheDir: string,
	log: (message: string) => void = () => {},
	knownHash?: string,
): Promise<{ name: string; hash: string; set: FeatureSet; fromCache: boolean }> {
	const hash = (knownHash ?? (await hashFile(extractPath))).slice(0, 16);
	const name = getRegionName(extractPath);
	const path = getFeatureSetPath(cacheDir, name, hash);
	try {
		const set = JSON.parse(readFileSync(path, 'utf8')) as FeatureSet;
		if (set.version === FEATURE_VERSION) return { name, hash, set, fromCache: true };
	} catch {
		// Missing or unreadable: read the extract again.
	}
	log(`tiles: reading map features of ${name} from ${extractPath} (first start; cached afterwards)`);
	const set = writeFeatureSet(path, await readMapFeatures(extractPath));
	dropOtherFeatureSets(cacheDir, name, path);
	return { name, hash, set, fromCache: false };
}
