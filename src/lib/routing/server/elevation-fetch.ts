import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parseHgt } from '../elevation.ts';

// Heights anywhere: 1° × 1° SRTM tiles fetched from an elevation source in the layout of the public
// Terrain Tiles "skadi" set ({N|S}{lat}/{N|S}{lat}{E|W}{lon}.hgt.gz) when a point first needs one,
// checked, and kept under DATA_DIR/dem, where the elevation reader finds them from then on.

/** The placeholders of ELEVATION_URL: `{tile_dir}` is e.g. N42, `{tile}` N42E001. */
export const ELEVATION_URL_PLACEHOLDERS = ['{tile_dir}', '{tile}'] as const;

const VOID = -32768;
/** A tile fetch that has not finished by then is dropped and tried again later. */
const FETCH_TIMEOUT_MS = 30_000;
/** Fetches at once: a long route crossing many degrees must not open dozens of downloads. */
const PARALLEL_FETCHES = 2;
/** A failed tile is asked again after this, doubling each time up to a day. */
const FIRST_RETRY_MS = 60_000;
const LAST_RETRY_MS = 24 * 60 * 60_000;
/** A gzipped 1″ tile is about 25 MB, a 3″ one about 3 MB; anything larger is not a tile. */
const MAX_TILE_BYTES = 64 * 1024 * 1024;

export interface ElevationFetchOptions {
	/** The URL template, e.g. `https://host/skadi/{tile_dir}/{tile}.hgt.gz`. */
	template: string;
	/** Where fetched tiles are kept (DATA_DIR/dem). */
	folder: string;
	log?: (message: string) => void;
	/** Told when a tile has been stored, so readers can drop what they remembered of its absence. */
	onStored?: (tile: string) => void;
}

/** The address of one tile in the source's layout. */
export function tileUrl(template: string, tile: string): string {
	return template.replaceAll('{tile_dir}', tile.slice(0, 3)).replaceAll('{tile}', tile);
}

/**
 * Checks fetched bytes are an SRTM tile: gzip or plain .hgt of 1201² or 3601² samples, not all voids.
 * Returns the .hgt bytes to keep, or throws saying what is wrong.
 */
export function checkTileBytes(bytes: Uint8Array): Uint8Array {
	let hgt = bytes;
	if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
		try {
			hgt = gunzipSync(bytes, { maxOutputLength: MAX_TILE_BYTES });
		} catch {
			throw new Error('not a readable gzip file');
		}
	}
	const tile = parseHgt(hgt);
	if (tile.data.every((value) => value === VOID)) throw new Error('every sample is a void');
	return hgt;
}

/** Fetches tiles on demand, a few at a time, with retries that back off; never blocks a reader. */
export class ElevationFetcher {
	private readonly queue: string[] = [];
	private readonly busy = new Set<string>();
	private readonly retryAt = new Map<string, { at: number; wait: number }>();
	private running = 0;

	constructor(private readonly options: ElevationFetchOptions) {
		mkdirSync(options.folder, { recursive: true });
	}

	/** Asks for a tile in the background; a tile already asked for, or failing and not yet due, is skipped. */
	request(tile: string): void {
		if (this.busy.has(tile)) return;
		const failed = this.retryAt.get(tile);
		if (failed && Date.now() < failed.at) return;
		this.busy.add(tile);
		this.queue.push(tile);
		this.pump();
	}

	private pump(): void {
		while (this.running < PARALLEL_FETCHES && this.queue.length > 0) {
			const tile = this.queue.shift() as string;
			this.running++;
			void this.fetchTile(tile).finally(() => {
				this.running--;
				this.busy.delete(tile);
				this.pump();
			});
		}
	}

	private async fetchTile(tile: string): Promise<void> {
		const log = this.options.log ?? (() => {});
		try {
			await fetchElevationTile(this.options.template, tile, this.options.folder);
			this.retryAt.delete(tile);
			log(`elevation: ${tile} fetched and kept`);
			this.options.onStored?.(tile);
		} catch (error) {
			const wait = Math.min(LAST_RETRY_MS, (this.retryAt.get(tile)?.wait ?? FIRST_RETRY_MS / 2) * 2);
			this.retryAt.set(tile, { at: Date.now() + wait, wait });
			const reason = error instanceof Error ? error.message : String(error);
			log(
				`elevation: ${tile} could not be fetched (${reason}); asked again in ${Math.round(wait / 60_000)} min`,
			);
		}
	}
}

/** Fetches one tile from the source, checks it and keeps it in `folder`; throws saying what went wrong. */
export async function fetchElevationTile(template: string, tile: string, folder: string): Promise<void> {
	const response = await fetch(tileUrl(template, tile), { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
	if (!response.ok) throw new Error(`the source answered ${response.status}`);
	const declared = Number(response.headers.get('content-length') ?? 0);
	if (declared > MAX_TILE_BYTES) throw new Error(`${declared} bytes is too large for a tile`);
	const hgt = checkTileBytes(new Uint8Array(await response.arrayBuffer()));
	mkdirSync(folder, { recursive: true });
	const path = join(folder, `${tile}.hgt`);
	const temporary = `${path}.${process.pid}.tmp`;
	try {
		writeFileSync(temporary, hgt);
		renameSync(temporary, path);
	} finally {
		rmSync(temporary, { force: true });
	}
}
