import {
	createWriteStream,
	existsSync,
	mkdirSync,
	openSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { copyFile, open, rename, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { getTileName } from '../../routing/elevation.ts';
import { createOsmCollector, type OsmSink } from '../../routing/osm/model.ts';
import { readOsmInto } from '../../routing/osm/read.ts';
import { fetchElevationTile } from '../../routing/server/elevation-fetch.ts';
import {
	buildAndCacheRegion,
	dropOtherRegionCaches,
	getRegionCachePath,
	hashFile,
	listRegionCaches,
} from '../../routing/server/regions.ts';
import {
	dropOtherFeatureSets,
	getFeatureSetPath,
	listFeatureSets,
	writeFeatureSet,
} from '../../tiles/server/feature-sets.ts';
import { createMapFeatureCollector } from '../../tiles/server/features.ts';
import {
	BUNDLED_REGIONS_DIR,
	findAddedExtracts,
	getAddedRegionsDir,
	getManifestPath,
	listRegions,
	REGION_NAME,
	type RegionManifest,
	suggestRegionName,
} from './catalogue.ts';

// `npm run regions -- add | remove`: an extract is downloaded or copied into a staging folder, checked
// by its bytes, read once for the routing graphs and the base map, cached, given heights, and only then
// renamed into DATA_DIR/regions — the one step a running server watches for. Anything that fails before
// that rename is removed again, so a region is either all there or not there at all.

/** A problem the operator can fix, told in words; nothing has changed when it is thrown. */
export class RegionError extends Error {}

export type AddStage = 'download' | 'copy' | 'read' | 'build' | 'map' | 'heights' | 'install';

export interface AddProgress {
	stage: AddStage;
	/** Bytes (download, copy, read) or tiles (heights) done in this stage, and of how many when known. */
	done: number;
	total: number | null;
	nodes: number;
	ways: number;
}

export interface AddRegionOptions {
	/** An extract file, or an http(s) URL of one (a Geofabrik or BBBike download). */
	source: string;
	/** The region's name; by default from the source's file name. */
	name?: string;
	dataDir: string;
	/** ELEVATION_URL: when set, the SRTM tiles under the region's roads are fetched as part of adding it. */
	elevationUrl?: string | null;
	onProgress?: (progress: AddProgress) => void;
	/** A download that sends nothing for this long is abandoned (default 60 s). */
	stallTimeoutMs?: number;
}

const STAGING = '.incoming';
const LOCK = '.lock';

/** Runs `work` holding the regions folder's lock, so two commands never change it at once. */
async function withLock<T>(dataDir: string, work: () => Promise<T>): Promise<T> {
	const dir = getAddedRegionsDir(dataDir);
	mkdirSync(dir, { recursive: true });
	const lock = join(dir, LOCK);
	for (let attempt = 0; ; attempt++) {
		try {
			writeFileSync(openSync(lock, 'wx'), String(process.pid));
			break;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
			const holder = Number(readFileSync(lock, 'utf8'));
			if (isRunning(holder)) {
				throw new RegionError(
					`Another regions command (process ${holder}) is changing ${dir}; wait for it to finish.`,
				);
			}
			// Its holder died: whatever it staged is abandoned.
			rmSync(lock, { force: true });
		}
	}
	try {
		rmSync(join(dir, STAGING), { recursive: true, force: true });
		return await work();
	} finally {
		rmSync(join(dir, STAGING), { recursive: true, force: true });
		rmSync(lock, { force: true });
	}
}

function isRunning(pid: number): boolean {
	if (!Number.isInteger(pid) || pid <= 0) return false;
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/** The extract format its first bytes show, or a RegionError saying what the file is instead. */
export function detectExtractFormat(head: Uint8Array): RegionManifest['format'] {
	if (head.length === 0) throw new RegionError('The file is empty.');
	if (head[0] === 0x1f && head[1] === 0x8b) return 'osm.gz';
	const text = new TextDecoder()
		.decode(head.subarray(0, 256))
		.replace(/^\uFEFF/, '')
		.trimStart();
	if (/^<(!doctype\s+html|html|head|body)\b/i.test(text)) {
		throw new RegionError(
			'This is an HTML page, not an OpenStreetMap extract (a download page saved instead of the file?).',
		);
	}
	if (text.startsWith('<?xml') || text.startsWith('<osm')) return 'osm';
	// A PBF file starts with the 4-byte length of a BlobHeader whose type is "OSMHeader".
	const headerLength = (head[0] << 24) | (head[1] << 16) | (head[2] << 8) | head[3];
	if (headerLength > 0 && headerLength < 64 * 1024 && Buffer.from(head).includes('OSMHeader'))
		return 'osm.pbf';
	throw new RegionError('This is not an OpenStreetMap extract (.osm.pbf, .osm or .osm.gz).');
}

async function readHead(path: string): Promise<Uint8Array> {
	const file = await open(path, 'r');
	try {
		const head = Buffer.alloc(512);
		const { bytesRead } = await file.read(head, 0, head.length, 0);
		return head.subarray(0, bytesRead);
	} finally {
		await file.close();
	}
}

async function download(
	url: string,
	target: string,
	stallTimeoutMs: number,
	report: (done: number, total: number | null) => void,
): Promise<void> {
	const controller = new AbortController();
	let stall = setTimeout(() => controller.abort(), stallTimeoutMs);
	const touch = () => {
		clearTimeout(stall);
		stall = setTimeout(() => controller.abort(), stallTimeoutMs);
	};
	try {
		let response: Response;
		try {
			response = await fetch(url, { signal: controller.signal, redirect: 'follow' });
		} catch (error) {
			throw new RegionError(`The download of ${url} failed: ${describeFetchError(error, stallTimeoutMs)}.`);
		}
		if (!response.ok || !response.body) {
			throw new RegionError(
				`The download of ${url} failed: the server answered ${response.status} ${response.statusText}.`,
			);
		}
		const declared = Number(response.headers.get('content-length')) || null;
		let done = 0;
		const counted = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream).on(
			'data',
			(chunk: Buffer) => {
				done += chunk.length;
				touch();
				report(done, declared);
			},
		);
		try {
			await pipeline(counted, createWriteStream(target));
		} catch (error) {
			throw new RegionError(
				`The download of ${url} broke off after ${done.toLocaleString('en')} bytes: ${describeFetchError(error, stallTimeoutMs)}.`,
			);
		}
		if (declared !== null && done < declared) {
			throw new RegionError(
				`The download of ${url} ended after ${done.toLocaleString('en')} of ${declared.toLocaleString('en')} bytes.`,
			);
		}
	} finally {
		clearTimeout(stall);
	}
}

function describeFetchError(error: unknown, stallTimeoutMs: number): string {
	if ((error as Error).name === 'AbortError')
		return `nothing arrived for ${Math.round(stallTimeoutMs / 1000)} s`;
	const cause = (error as { cause?: { code?: string; message?: string } }).cause;
	return cause?.code ?? cause?.message ?? (error as Error).message;
}

/** The SRTM tiles under a region's roads. */
function listRoadTiles(shapeLat: Int32Array, shapeLon: Int32Array): string[] {
	const tiles = new Set<string>();
	for (let i = 0; i < shapeLat.length; i++) tiles.add(getTileName(shapeLat[i] / 1e6, shapeLon[i] / 1e6));
	return [...tiles].sort();
}

/** Adds an OpenStreetMap extract as a region (or replaces the region of that name); returns its manifest. */
export async function addRegion(options: AddRegionOptions): Promise<RegionManifest> {
	const { dataDir } = options;
	const isUrl = /^https?:\/\//i.test(options.source);
	const name = options.name ?? suggestRegionName(options.source);
	if (!REGION_NAME.test(name)) {
		throw new RegionError(
			`"${name}" cannot name a region: use lower-case letters, digits and dashes (--name my-city).`,
		);
	}
	if (listRegions(dataDir).some((region) => region.bundled && region.name === name)) {
		throw new RegionError(`${name} is a bundled demo region; give yours another name with --name.`);
	}
	if (!isUrl && !existsSync(options.source)) throw new RegionError(`No file at ${options.source}.`);

	return withLock(dataDir, async () => {
		const started = performance.now();
		const regionsDir = getAddedRegionsDir(dataDir);
		const staging = join(regionsDir, STAGING);
		mkdirSync(staging, { recursive: true });
		let nodes = 0;
		let ways = 0;
		const report = (stage: AddStage, done = 0, total: number | null = null) =>
			options.onProgress?.({ stage, done, total, nodes, ways });
		// Caches this command writes that no installed region uses yet: removed again if it fails.
		const written: string[] = [];
		try {
			const incoming = join(staging, `${name}.download`);
			if (isUrl) {
				await download(options.source, incoming, options.stallTimeoutMs ?? 60_000, (done, total) =>
					report('download', done, total),
				);
			} else {
				report('copy', 0, (await stat(options.source)).size);
				await copyFile(options.source, incoming);
			}
			const format = detectExtractFormat(await readHead(incoming));
			const extract = join(staging, `${name}.${format}`);
			await rename(incoming, extract);
			const bytes = (await stat(extract)).size;
			const sha256 = await hashFile(extract);

			// One pass over the file feeds both the routing graph and the base map.
			const routing = createOsmCollector();
			const map = createMapFeatureCollector();
			const tee: OsmSink = {
				addNode(id, lat, lon, tags) {
					nodes++;
					routing.addNode(id, lat, lon, tags);
					map.addNode(id, lat, lon, tags);
				},
				addWay(id, refs, tags) {
					ways++;
					routing.addWay(id, refs, tags);
					map.addWay(id, refs, tags);
				},
				addRelation(id, members, tags) {
					routing.addRelation?.(id, members, tags);
					map.addRelation?.(id, members, tags);
				},
			};
			report('read', 0, bytes);
			try {
				await readOsmInto(extract, tee, (done, total) => report('read', done, total));
			} catch (error) {
				throw new RegionError(
					`${options.source} is not a readable OpenStreetMap extract: ${(error as Error).message}.`,
				);
			}
			if (nodes === 0 || ways === 0) {
				throw new RegionError(`${options.source} holds no map data (${nodes} nodes, ${ways} ways).`);
			}

			report('build');
			const routingCacheDir = join(dataDir, 'routing-cache');
			const graphPath = getRegionCachePath(routingCacheDir, name, sha256);
			if (!existsSync(graphPath)) written.push(graphPath);
			mkdirSync(routingCacheDir, { recursive: true });
			const region = buildAndCacheRegion(name, routing.finish(), graphPath);
			if (region.roadNodeCount === 0) {
				throw new RegionError(`${options.source} holds no roads or paths to route on.`);
			}

			report('map');
			const tileCacheDir = join(dataDir, 'tile-cache');
			const setPath = getFeatureSetPath(tileCacheDir, name, sha256);
			if (!existsSync(setPath)) written.push(setPath);
			const features = writeFeatureSet(setPath, map.finish());

			let heights: RegionManifest['heights'] = null;
			if (options.elevationUrl) {
				const demDir = join(dataDir, 'dem');
				const tiles = listRoadTiles(region.graph.shapeLat, region.graph.shapeLon);
				const have = (tile: string) =>
					[
						join(demDir, `${tile}.hgt`),
						join(BUNDLED_REGIONS_DIR, `${tile}.hgt`),
						join(BUNDLED_REGIONS_DIR, `${tile}.hgt.zip`),
					].some(existsSync);
				const missing = tiles.filter((tile) => !have(tile));
				heights = { tiles: tiles.length, fetched: 0, present: tiles.length - missing.length, failed: [] };
				report('heights', 0, missing.length);
				// Two at a time, as the server fetches: a country's tiles must not open dozens of downloads.
				const queue = [...missing];
				const worker = async () => {
					for (let tile = queue.shift(); tile; tile = queue.shift()) {
						try {
							await fetchElevationTile(options.elevationUrl as string, tile, demDir);
							(heights as NonNullable<typeof heights>).fetched++;
						} catch (error) {
							heights?.failed.push({ tile, reason: (error as Error).message });
						}
						report('heights', missing.length - queue.length, missing.length);
					}
				};
				await Promise.all([worker(), worker()]);
			}

			report('install');
			const manifest: RegionManifest = {
				name,
				source: isUrl ? options.source : resolve(options.source),
				addedAt: new Date().toISOString(),
				bytes,
				sha256,
				format,
				nodes,
				ways,
				roadNodes: region.roadNodeCount,
				places: region.features.length,
				mapFeatures: features.collection.features.length,
				bounds: features.bounds,
				importSeconds: Math.round((performance.now() - started) / 100) / 10,
				heights,
			};
			const manifestPath = getManifestPath(dataDir, name);
			writeFileSync(`${manifestPath}.tmp`, JSON.stringify(manifest, null, '\t'));
			const previous = findAddedExtracts(dataDir, name);
			// The one step a running server sees: the extract appears (or is replaced) in a single rename.
			await rename(extract, join(regionsDir, `${name}.${format}`));
			written.length = 0;
			await rename(`${manifestPath}.tmp`, manifestPath);
			for (const old of previous)
				if (old !== join(regionsDir, `${name}.${format}`)) rmSync(old, { force: true });
			dropOtherRegionCaches(routingCacheDir, name, graphPath);
			dropOtherFeatureSets(tileCacheDir, name, setPath);
			return manifest;
		} catch (error) {
			for (const path of written) rmSync(path, { force: true });
			rmSync(`${getManifestPath(dataDir, name)}.tmp`, { force: true });
			throw error;
		}
	});
}

/** Removes an added region: its extract, what was built from it and its record. Returns the files removed. */
export async function removeRegion(dataDir: string, name: string): Promise<string[]> {
	const regions = listRegions(dataDir);
	if (regions.some((region) => region.bundled && region.name === name)) {
		throw new RegionError(`${name} is a bundled demo region (data-regions/); it cannot be removed.`);
	}
	if (!regions.some((region) => region.name === name)) {
		const added = regions.filter((region) => !region.bundled).map((region) => region.name);
		throw new RegionError(
			`No region named ${name}. Added regions: ${added.length ? added.join(', ') : 'none'}.`,
		);
	}
	return withLock(dataDir, async () => {
		const files = [
			// The extract first: once it is gone a running server drops the region.
			...findAddedExtracts(dataDir, name),
			getManifestPath(dataDir, name),
			...listRegionCaches(join(dataDir, 'routing-cache'), name),
			...listFeatureSets(join(dataDir, 'tile-cache'), name),
		].filter((path) => existsSync(path));
		for (const path of files) rmSync(path, { force: true });
		return files;
	});
}
