import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { FeatureCollection, Geometry, Position } from 'geojson';
import GeoJSONVT, { type LegacyFeature } from 'geojson-vt';
import { LRUCache } from 'lru-cache';
import vtpbf from 'vt-pbf';
import { getRegionName, hashFile, listExtracts } from '../../routing/server/regions.ts';
import {
	type Bounds,
	MAP_LAYERS,
	MAX_ZOOM,
	type MapFeatureProperties,
	type TileRequest,
} from '../contract.ts';
import { boundsIntersect, lonLatToTile, tileBounds } from '../tile-math.ts';
import { readMapFeatures } from './features.ts';
import { MAP_PALETTE } from './palette.ts';
import { drawNoDataSvg, drawTileSvg, EXTENT, rasterise, STYLE_VERSION } from './render.ts';
import { readWorldFeatures, WORLD_VERSION } from './world.ts';

/** Bump when the features read from an extract change, so cached feature sets are read again. */
export const FEATURE_VERSION = 1;

export interface TileRegion {
	name: string;
	bounds: Bounds;
	index: GeoJSONVT;
}

export interface Tile {
	body: Buffer;
	etag: string;
	contentType: string;
	/** Whether a loaded region's street detail reaches this tile (false: the world layer alone, or nothing). */
	covered: boolean;
}

interface FeatureSet {
	version: number;
	bounds: Bounds;
	collection: FeatureCollection<Geometry, MapFeatureProperties>;
}

const CONTENT_TYPES = { png: 'image/png', pbf: 'application/vnd.mapbox-vector-tile' } as const;

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

/** Builds the tile index of a feature set (≈ a second for a small country, on the first tile request after boot). */
export function indexFeatures(name: string, set: Pick<FeatureSet, 'bounds' | 'collection'>): TileRegion {
	return {
		name,
		bounds: set.bounds,
		index: new GeoJSONVT(set.collection, {
			maxZoom: MAX_ZOOM,
			indexMaxZoom: 5,
			tolerance: 3,
			extent: EXTENT,
			buffer: 96,
		}),
	};
}

/** Reads an extract's feature set from the cache, or reads the extract and caches the set. */
export async function loadFeatureSet(
	extractPath: string,
	cacheDir: string,
	log: (message: string) => void = () => {},
): Promise<{ name: string; hash: string; set: FeatureSet; fromCache: boolean }> {
	const hash = (await hashFile(extractPath)).slice(0, 16);
	const name = getRegionName(extractPath);
	const path = join(cacheDir, `${name}-${hash}-f${FEATURE_VERSION}.json`);
	try {
		const set = JSON.parse(readFileSync(path, 'utf8')) as FeatureSet;
		if (set.version === FEATURE_VERSION) return { name, hash, set, fromCache: true };
	} catch {
		// Missing or unreadable: read the extract again.
	}
	log(`tiles: reading map features of ${name} from ${extractPath} (first start; cached afterwards)`);
	const collection = await readMapFeatures(extractPath);
	const set: FeatureSet = { version: FEATURE_VERSION, bounds: measureBounds(collection), collection };
	mkdirSync(cacheDir, { recursive: true });
	const temporary = `${path}.${process.pid}.tmp`;
	writeFileSync(temporary, JSON.stringify(set));
	renameSync(temporary, path);
	for (const file of readdirSync(cacheDir)) {
		if (file.startsWith(`${name}-`) && file.endsWith('.json') && join(cacheDir, file) !== path) {
			rmSync(join(cacheDir, file), { force: true });
		}
	}
	return { name, hash, set, fromCache: false };
}

/**
 * Serves the base map of the bundled regions: vector tiles cut on demand, raster tiles drawn from
 * them, both kept on disk (under a key naming the style and the data) and the hottest in memory.
 */
export class TileService {
	private readonly memory = new LRUCache<string, Tile>({
		maxSize: 48 * 1024 * 1024,
		sizeCalculation: (tile) => tile.body.length + 200,
	});
	private readonly pending = new Map<string, Promise<Tile>>();
	private readonly noData = new Map<string, Promise<Tile>>();
	private readonly tileDir: string | null;

	private readonly world: TileRegion | null;

	constructor(
		readonly regions: TileRegion[],
		options: { cacheDir?: string | null; dataKey?: string; world?: TileRegion | null } = {},
	) {
		this.world = options.world ?? null;
		const style = createHash('sha256')
			.update(`${STYLE_VERSION}:${JSON.stringify(MAP_PALETTE)}:${options.dataKey ?? ''}`)
			.digest('hex')
			.slice(0, 12);
		this.tileDir = options.cacheDir ? join(options.cacheDir, `tiles-${style}`) : null;
		if (options.cacheDir) this.removeOtherStyles(options.cacheDir, `tiles-${style}`);
	}

	/** The covered regions' outlines, for maps that show where there is data. */
	listRegions(): { name: string; bounds: Bounds }[] {
		return this.regions.map(({ name, bounds }) => ({ name, bounds }));
	}

	async getTile(request: TileRequest): Promise<Tile> {
		const { z, x, y, scale, format } = request;
		const bounds = tileBounds(z, x, y);
		const regions = this.regions.filter((region) => boundsIntersect(region.bounds, bounds));
		if (regions.length === 0 && !this.world) return this.getNoDataTile(format, scale);
		const key = `${z}/${x}/${y}${scale === 2 ? '@2x' : ''}.${format}`;
		const remembered = this.memory.get(key);
		if (remembered) return remembered;
		let work = this.pending.get(key);
		if (!work) {
			work = this.produce(key, request, regions).finally(() => this.pending.delete(key));
			this.pending.set(key, work);
		}
		return work;
	}

	private async produce(key: string, request: TileRequest, regions: TileRegion[]): Promise<Tile> {
		const contentType = CONTENT_TYPES[request.format];
		const covered = regions.length > 0;
		const path = this.tileDir ? join(this.tileDir, key) : null;
		if (path) {
			const body = await readFile(path).catch(() => null);
			if (body) return this.remember(key, { body, etag: makeEtag(body), contentType, covered });
		}
		const { z, x, y } = request;
		const features: LegacyFeature[] = [];
		// The world first: the regions' streets and names are drawn over it.
		const world = this.world?.index.getTile(z, x, y);
		if (world) features.push(...world.features);
		for (const region of regions) {
			const tile = region.index.getTile(z, x, y);
			if (tile) features.push(...tile.features);
		}
		const body =
			request.format === 'pbf'
				? encodeVectorTile(features)
				: await rasterise(
						drawTileSvg(features, z, this.world ? 'world' : coveredRects(regions, z, x, y), request.scale),
					);
		if (path) await writeAtomically(path, body);
		return this.remember(key, { body, etag: makeEtag(body), contentType, covered });
	}

	private remember(key: string, tile: Tile): Tile {
		this.memory.set(key, tile);
		return tile;
	}

	private getNoDataTile(format: 'png' | 'pbf', scale: 1 | 2): Promise<Tile> {
		const key = `${format}@${scale}`;
		let tile = this.noData.get(key);
		if (!tile) {
			tile = (async () => {
				const body = format === 'pbf' ? encodeVectorTile([]) : await rasterise(drawNoDataSvg(scale));
				return { body, etag: makeEtag(body), contentType: CONTENT_TYPES[format], covered: false };
			})();
			this.noData.set(key, tile);
		}
		return tile;
	}

	private removeOtherStyles(cacheDir: string, current: string): void {
		let entries: string[] = [];
		try {
			entries = readdirSync(cacheDir);
		} catch {
			return;
		}
		for (const entry of entries) {
			if (entry.startsWith('tiles-') && entry !== current)
				rmSync(join(cacheDir, entry), { recursive: true, force: true });
		}
	}
}

/** A Mapbox Vector Tile (version 2) with one layer per map layer that has features here. */
export function encodeVectorTile(features: LegacyFeature[]): Buffer {
	const layers: Record<string, { features: LegacyFeature[] }> = {};
	for (const name of MAP_LAYERS) layers[name] = { features: [] };
	for (const feature of features)
		layers[(feature.tags as MapFeatureProperties).layer]?.features.push(feature);
	for (const name of MAP_LAYERS) if (layers[name].features.length === 0) delete layers[name];
	return Buffer.from(vtpbf.fromGeojsonVt(layers, { version: 2, extent: EXTENT }));
}

/** The parts of a tile, in tile units, that lie inside the regions' bounds. */
function coveredRects(regions: TileRegion[], z: number, x: number, y: number) {
	return regions.map(({ bounds }) => {
		const northWest = lonLatToTile(bounds[0], bounds[3], z);
		const southEast = lonLatToTile(bounds[2], bounds[1], z);
		const clamp = (value: number) => Math.round(Math.max(0, Math.min(EXTENT, value * EXTENT)));
		const left = clamp(northWest.x - x);
		const top = clamp(northWest.y - y);
		return { x: left, y: top, width: clamp(southEast.x - x) - left, height: clamp(southEast.y - y) - top };
	});
}

function makeEtag(body: Buffer): string {
	return `"${createHash('sha1').update(body).digest('base64url').slice(0, 20)}"`;
}

async function writeAtomically(path: string, body: Buffer): Promise<void> {
	const temporary = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
	try {
		await mkdir(dirname(path), { recursive: true });
		await writeFile(temporary, body);
		await rename(temporary, path);
	} catch {
		// A full or read-only disk only costs drawing the tile again next time; a copy cut short
		// must not stay behind to fill the disk further.
		await rm(temporary, { force: true }).catch(() => {});
	}
}

export interface LoadTilesOptions {
	regionsDir?: string;
	/** Feature sets and drawn tiles; default DATA_DIR/tile-cache. */
	cacheDir?: string;
	only?: string[];
	log?: (message: string) => void;
	/** The Natural Earth world under the regions (default on). */
	world?: boolean;
}

/** Indexes the world layer: the land, borders and names every map shows outside the regions. */
export function loadWorld(log: (message: string) => void = () => {}): TileRegion {
	const started = performance.now();
	const collection = readWorldFeatures();
	const world = {
		name: 'world',
		bounds: [-180, -85.06, 180, 85.06] as Bounds,
		index: new GeoJSONVT(collection, {
			maxZoom: MAX_ZOOM,
			// Whole-world tiles down to zoom 3 at start; deeper ones are cut when first asked for.
			indexMaxZoom: 3,
			tolerance: 3,
			extent: EXTENT,
			buffer: 96,
		}),
	};
	log(
		`tiles: world layer (${collection.features.length} features) indexed in ${(performance.now() - started).toFixed(0)} ms`,
	);
	return world;
}

/** Loads every bundled extract's features (from the cache when it can) and indexes them for tiles. */
export async function loadTileService(options: LoadTilesOptions = {}): Promise<TileService> {
	const regionsDir = options.regionsDir ?? join(process.cwd(), 'data-regions');
	const cacheDir =
		options.cacheDir ?? join(process.env.DATA_DIR ?? join(process.cwd(), 'data'), 'tile-cache');
	const log = options.log ?? (() => {});
	const files = listExtracts(regionsDir).filter((file) => !options.only || options.only.includes(file));
	const regions: TileRegion[] = [];
	const hashes: string[] = [];
	for (const file of files) {
		const started = performance.now();
		const { name, hash, set, fromCache } = await loadFeatureSet(join(regionsDir, file), cacheDir, log);
		regions.push(indexFeatures(name, set));
		hashes.push(hash);
		log(
			`tiles: ${name} ${fromCache ? 'loaded from cache' : 'read'} and indexed in ${(performance.now() - started).toFixed(0)} ms`,
		);
	}
	const world = options.world === false ? null : loadWorld(log);
	return new TileService(regions, {
		cacheDir,
		dataKey: `${FEATURE_VERSION}:${hashes.join(',')}:${world ? `world${WORLD_VERSION}` : 'no-world'}`,
		world,
	});
}
