import { createHash } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import GeoJSONVT, { type LegacyFeature } from 'geojson-vt';
import { LRUCache } from 'lru-cache';
import vtpbf from 'vt-pbf';
import { getRegionName, getRegionsDirs, hashFile, listExtractPaths } from '../../routing/server/regions.ts';
import {
	type Bounds,
	MAP_LAYERS,
	MAX_ZOOM,
	type MapFeatureProperties,
	type TileRequest,
} from '../contract.ts';
import { boundsIntersect, lonLatToTile, tileBounds } from '../tile-math.ts';
import { FEATURE_VERSION, type FeatureSet, getFeatureSetPath, loadFeatureSet } from './feature-sets.ts';
import { MAP_PALETTE } from './palette.ts';
import { drawNoDataSvg, drawTileSvg, EXTENT, rasterise, STYLE_VERSION } from './render.ts';
import { readWorldFeatures, WORLD_VERSION } from './world.ts';

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

const CONTENT_TYPES = { png: 'image/png', pbf: 'application/vnd.mapbox-vector-tile' } as const;

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

	readonly world: TileRegion | null;

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
	/** Folders of extracts (as for the routing engine); default ./data-regions. */
	regionsDir?: string | string[];
	/** Feature sets and drawn tiles; default DATA_DIR/tile-cache. */
	cacheDir?: string;
	only?: string[];
	log?: (message: string) => void;
	/** The Natural Earth world under the regions (default on). */
	world?: boolean;
	/** The service this one replaces: its world and the regions whose extract has not changed are kept. */
	previous?: TileService | null;
}

/** The feature set each indexed region came from, so a reload can tell an unchanged region. */
const featureSetOf = new WeakMap<TileRegion, string>();

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
	const cacheDir =
		options.cacheDir ?? join(process.env.DATA_DIR ?? join(process.cwd(), 'data'), 'tile-cache');
	const log = options.log ?? (() => {});
	const regions: TileRegion[] = [];
	const hashes: string[] = [];
	for (const path of listExtractPaths(getRegionsDirs(options.regionsDir), options.only)) {
		const started = performance.now();
		const name = getRegionName(path);
		const hash = (await hashFile(path)).slice(0, 16);
		const setPath = getFeatureSetPath(cacheDir, name, hash);
		const kept = options.previous?.regions.find((region) => featureSetOf.get(region) === setPath);
		if (kept) {
			regions.push(kept);
			hashes.push(hash);
			continue;
		}
		const { set, fromCache } = await loadFeatureSet(path, cacheDir, log, hash);
		const region = indexFeatures(name, set);
		featureSetOf.set(region, setPath);
		regions.push(region);
		hashes.push(hash);
		log(
			`tiles: ${name} ${fromCache ? 'loaded from cache' : 'read'} and indexed in ${(performance.now() - started).toFixed(0)} ms`,
		);
	}
	const world = options.world === false ? null : (options.previous?.world ?? loadWorld(log));
	return new TileService(regions, {
		cacheDir,
		dataKey: `${FEATURE_VERSION}:${hashes.join(',')}:${world ? `world${WORLD_VERSION}` : 'no-world'}`,
		world,
	});
}
