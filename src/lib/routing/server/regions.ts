import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { CACHE_VERSION, readRegionCache, writeRegionCache } from '../cache.ts';
import { ElevationSource } from '../elevation.ts';
import { RoutingEngine } from '../engine.ts';
import { loadPlaceIndex } from '../geocode.ts';
import type { OsmData } from '../osm/model.ts';
import { readOsmFile } from '../osm/read.ts';
import { buildRegion, type Region } from '../region.ts';
import { MODES } from '../tags.ts';
import { routingDataPath } from './data-folder.ts';
import { ElevationFetcher } from './elevation-fetch.ts';

const EXTRACT = /\.(osm\.pbf|osm\.gz|osm)$/;

export interface LoadEngineOptions {
	/**
	 * Folders of .osm.pbf / .osm / .osm.gz extracts and SRTM .hgt(.zip) tiles; default ./data-regions.
	 * The server passes the bundled folder and DATA_DIR/regions, where `npm run regions -- add` puts extracts.
	 */
	regionsDir?: string | string[];
	/** Where built graphs are cached; default ./data/routing-cache (git-ignored). */
	cacheDir?: string;
	/** Only these extract file names (default: every extract in regionsDir). */
	only?: string[];
	/** Folders of SRTM tiles besides regionsDir. */
	demDirs?: string[];
	/** Fetch missing SRTM tiles from this source (ELEVATION_URL) into `fetchedDemDir`. */
	elevationUrl?: string;
	/** Where fetched tiles are kept; default DATA_DIR/dem. */
	fetchedDemDir?: string;
	log?: (message: string) => void;
	/** Open the world cities for place search right after the regions instead of on first search. */
	warmPlaces?: boolean;
	/** Routes answered per region and mode before the engine is handed out (default 100; 0 skips). */
	warmRoutes?: number;
	/** The engine this one replaces: its regions whose extract has not changed are kept, not read again. */
	previous?: RoutingEngine | null;
}

/** The cache file each loaded region came from, so a reload can tell an unchanged region. */
const cachePathOf = new WeakMap<Region, string>();

/** The SHA-256 of an extract: cached builds are keyed by it. */
export async function hashFile(path: string): Promise<string> {
	const hash = createHash('sha256');
	for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
	return hash.digest('hex');
}

export function getRegionName(path: string): string {
	return basename(path).replace(EXTRACT, '');
}

/** Where the built graph of an extract with this name and SHA-256 is cached. */
export function getRegionCachePath(cacheDir: string, name: string, hash: string): string {
	return join(cacheDir, `${name}-${hash.slice(0, 16)}-v${CACHE_VERSION}.graph`);
}

/** The cached graphs of a region, whatever their input hash or engine version. */
export function listRegionCaches(cacheDir: string, name: string): string[] {
	if (!existsSync(cacheDir)) return [];
	return readdirSync(cacheDir)
		.filter(
			(file) => file.startsWith(`${name}-`) && /^-[0-9a-f]{16}-v\d+\.graph$/.test(file.slice(name.length)),
		)
		.map((file) => join(cacheDir, file));
}

/** Builds a region from read OSM data and caches it. */
export function buildAndCacheRegion(name: string, osm: OsmData, cachePath: string): Region {
	const region = buildRegion(name, osm);
	region.roadNodeCount = countRoadNodes(region);
	writeRegionCache(cachePath, region);
	return region;
}

/** Older builds of a region (another input hash or engine version) are dead weight once `keep` serves. */
export function dropOtherRegionCaches(cacheDir: string, name: string, keep: string): void {
	for (const stale of listRegionCaches(cacheDir, name)) if (stale !== keep) rmSync(stale, { force: true });
}

/** Loads one extract from the cache, or imports, builds and caches it. */
export async function loadRegion(
	extractPath: string,
	cacheDir: string,
	log: (message: string) => void = () => {},
	inMemory: Region[] = [],
): Promise<{ region: Region; fromCache: boolean; ms: number }> {
	const started = performance.now();
	const name = getRegionName(extractPath);
	const cachePath = getRegionCachePath(cacheDir, name, await hashFile(extractPath));
	const kept = inMemory.find((region) => cachePathOf.get(region) === cachePath);
	const cached = kept ?? readRegionCache(cachePath);
	let region: Region;
	if (cached) region = cached;
	else {
		log(`routing: building ${name} from ${extractPath} (first start; cached afterwards)`);
		region = buildAndCacheRegion(name, await readOsmFile(extractPath), cachePath);
		dropOtherRegionCaches(cacheDir, name, cachePath);
	}
	cachePathOf.set(region, cachePath);
	return { region, fromCache: Boolean(cached), ms: performance.now() - started };
}

/** Distinct positions in the road shapes: the OSM nodes the graph serves. */
export function countRoadNodes(region: Region): number {
	const { shapeLat, shapeLon } = region.graph;
	const seen = new Set<string>();
	for (let i = 0; i < shapeLat.length; i++) seen.add(`${shapeLat[i]},${shapeLon[i]}`);
	return seen.size;
}

/** The extract files in a folder, by name. */
export function listExtracts(regionsDir: string): string[] {
	return existsSync(regionsDir)
		? readdirSync(regionsDir)
				.filter((file) => EXTRACT.test(file))
				.sort()
		: [];
}

/** The extracts of several folders as paths, in folder order. */
export function listExtractPaths(regionsDirs: string[], only?: string[]): string[] {
	return regionsDirs.flatMap((dir) =>
		listExtracts(dir)
			.filter((file) => !only || only.includes(file))
			.map((file) => join(dir, file)),
	);
}

/** The regions folders an option names: one, several, or the bundled demo folder. */
export function getRegionsDirs(option: string | string[] | undefined): string[] {
	if (option === undefined) return [join(process.cwd(), 'data-regions')];
	return typeof option === 'string' ? [option] : option;
}

/** The bundled tiles, and with an elevation source every other tile once it has been fetched. */
export function createElevationSource(
	regionsDirs: string[],
	options: LoadEngineOptions,
	log: (message: string) => void,
): ElevationSource {
	const folders = [...regionsDirs, ...(options.demDirs ?? [])];
	const fetchedDir = options.fetchedDemDir ?? (options.elevationUrl ? routingDataPath('dem') : null);
	// Tiles fetched before (by the server or by `npm run regions -- add`) are read even with no source set now.
	if (fetchedDir) folders.push(fetchedDir);
	if (!options.elevationUrl || !fetchedDir) return new ElevationSource(folders);
	const fetcher = new ElevationFetcher({
		template: options.elevationUrl,
		folder: fetchedDir,
		log,
		onStored: (tile) => source.forget(tile),
	});
	const source = new ElevationSource(folders, (tile) => fetcher.request(tile));
	return source;
}

/** Loads the bundled regions (and their elevation tiles) into an engine; call once at server start. */
export async function loadEngine(options: LoadEngineOptions = {}): Promise<RoutingEngine> {
	const regionsDirs = getRegionsDirs(options.regionsDir);
	const cacheDir = options.cacheDir ?? routingDataPath('routing-cache');
	const log = options.log ?? (() => {});
	const regions: Region[] = [];
	for (const path of listExtractPaths(regionsDirs, options.only)) {
		const { region, fromCache, ms } = await loadRegion(path, cacheDir, log, options.previous?.regions);
		log(`routing: ${region.name} ${fromCache ? 'loaded from cache' : 'built'} in ${ms.toFixed(0)} ms`);
		regions.push(region);
	}
	if (options.warmPlaces) loadPlaceIndex();
	const engine = new RoutingEngine({ regions, elevation: createElevationSource(regionsDirs, options, log) });
	const warmed = warmEngine(engine, options.warmRoutes ?? 100);
	log(`routing: warmed up with ${warmed.routes} routes in ${warmed.ms.toFixed(0)} ms`);
	return engine;
}

/**
 * Answers a fixed set of routes between road points of every region in every mode, so the first members'
 * requests do not pay for compiling the search and touching the graph's memory for the first time.
 */
export function warmEngine(engine: RoutingEngine, perRegionAndMode: number): { routes: number; ms: number } {
	const started = performance.now();
	let routes = 0;
	let seed = 1;
	const next = () => {
		seed = (seed * 1103515245 + 12345) % 2147483648;
		return seed / 2147483648;
	};
	for (const region of engine.regions) {
		const { shapeLat, shapeLon } = region.graph;
		if (shapeLat.length === 0) continue;
		const pick = () => {
			const k = Math.floor(next() * shapeLat.length);
			return { lat: shapeLat[k] / 1e6, lon: shapeLon[k] / 1e6 };
		};
		for (const costing of MODES) {
			for (let i = 0; i < perRegionAndMode; i++) {
				try {
					engine.route({ locations: [pick(), pick()], costing });
					routes++;
				} catch {
					// Points on pieces a mode cannot cross between are part of a fair warm-up too.
				}
			}
		}
	}
	return { routes, ms: performance.now() - started };
}
