import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { CACHE_VERSION, readRegionCache, writeRegionCache } from '../cache.ts';
import { ElevationSource } from '../elevation.ts';
import { RoutingEngine } from '../engine.ts';
import { loadCities } from '../geocode.ts';
import { readOsmFile } from '../osm/read.ts';
import { buildRegion, type Region } from '../region.ts';
import { MODES } from '../tags.ts';
import { ElevationFetcher } from './elevation-fetch.ts';

const EXTRACT = /\.(osm\.pbf|osm\.gz|osm)$/;

export interface LoadEngineOptions {
	/** Folder of .osm.pbf / .osm / .osm.gz extracts and SRTM .hgt(.zip) tiles; default ./data-regions. */
	regionsDir?: string;
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
	/** Load the world cities for place search right after the regions (≈ 1 s once) instead of on first search. */
	warmPlaces?: boolean;
	/** Routes answered per region and mode before the engine is handed out (default 100; 0 skips). */
	warmRoutes?: number;
}

/** The SHA-256 of an extract: cached builds are keyed by it. */
export async function hashFile(path: string): Promise<string> {
	const hash = createHash('sha256');
	for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
	return hash.digest('hex');
}

export function getRegionName(path: string): string {
	return basename(path).replace(EXTRACT, '');
}

/** Loads one extract from the cache, or imports, builds and caches it. */
export async function loadRegion(
	extractPath: string,
	cacheDir: string,
	log: (message: string) => void = () => {},
): Promise<{ region: Region; fromCache: boolean; ms: number }> {
	const started = performance.now();
	const hash = await hashFile(extractPath);
	const name = getRegionName(extractPath);
	const cachePath = join(cacheDir, `${name}-${hash.slice(0, 16)}-v${CACHE_VERSION}.graph`);
	const cached = readRegionCache(cachePath);
	if (cached) return { region: cached, fromCache: true, ms: performance.now() - started };
	log(`routing: building ${name} from ${extractPath} (first start; cached afterwards)`);
	const osm = await readOsmFile(extractPath);
	const region = buildRegion(name, osm);
	region.roadNodeCount = countRoadNodes(region);
	writeRegionCache(cachePath, region);
	// Older builds of the same region (another input hash or engine version) are dead weight.
	for (const file of readdirSync(cacheDir)) {
		const stale = file.startsWith(`${name}-`) && /^-[0-9a-f]{16}-v\d+\.graph$/.test(file.slice(name.length));
		if (stale && join(cacheDir, file) !== cachePath) {
			rmSync(join(cacheDir, file), { force: true });
		}
	}
	return { region, fromCache: false, ms: performance.now() - started };
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

/** The bundled tiles, and with an elevation source every other tile once it has been fetched. */
export function createElevationSource(
	regionsDir: string,
	options: LoadEngineOptions,
	log: (message: string) => void,
): ElevationSource {
	const folders = [regionsDir, ...(options.demDirs ?? [])];
	if (!options.elevationUrl) return new ElevationSource(folders);
	const fetchedDir =
		options.fetchedDemDir ?? join(process.env.DATA_DIR ?? join(process.cwd(), 'data'), 'dem');
	const fetcher = new ElevationFetcher({
		template: options.elevationUrl,
		folder: fetchedDir,
		log,
		onStored: (tile) => source.forget(tile),
	});
	const source = new ElevationSource([...folders, fetchedDir], (tile) => fetcher.request(tile));
	return source;
}

/** Loads the bundled regions (and their elevation tiles) into an engine; call once at server start. */
export async function loadEngine(options: LoadEngineOptions = {}): Promise<RoutingEngine> {
	const regionsDir = options.regionsDir ?? join(process.cwd(), 'data-regions');
	const cacheDir =
		options.cacheDir ?? join(process.env.DATA_DIR ?? join(process.cwd(), 'data'), 'routing-cache');
	const log = options.log ?? (() => {});
	const files = listExtracts(regionsDir);
	const chosen = options.only ? files.filter((file) => options.only?.includes(file)) : files;
	const regions: Region[] = [];
	for (const file of chosen) {
		const { region, fromCache, ms } = await loadRegion(join(regionsDir, file), cacheDir, log);
		log(`routing: ${region.name} ${fromCache ? 'loaded from cache' : 'built'} in ${ms.toFixed(0)} ms`);
		regions.push(region);
	}
	if (options.warmPlaces) loadCities();
	const engine = new RoutingEngine({ regions, elevation: createElevationSource(regionsDir, options, log) });
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
