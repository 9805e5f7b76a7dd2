import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { measureDistance } from './geo.ts';

// SRTM .hgt tiles: big-endian int16 rows from north to south, 1201 (3″) or 3601 (1″) samples square.
const VOID = -32768;

export interface HgtTile {
	size: number;
	data: Int16Array;
}

export function getTileName(lat: number, lon: number): string {
	const la = Math.floor(lat);
	const lo = Math.floor(lon);
	const ns = la >= 0 ? 'N' : 'S';
	const ew = lo >= 0 ? 'E' : 'W';
	return `${ns}${String(Math.abs(la)).padStart(2, '0')}${ew}${String(Math.abs(lo)).padStart(3, '0')}`;
}

/** Parses .hgt bytes into a tile; the sample count follows from the file size. */
export function parseHgt(bytes: Uint8Array): HgtTile {
	const samples = bytes.length / 2;
	const size = Math.round(Math.sqrt(samples));
	if (size * size !== samples || (size !== 1201 && size !== 3601)) {
		throw new Error(`Not an SRTM tile: ${bytes.length} bytes`);
	}
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const data = new Int16Array(samples);
	for (let i = 0; i < samples; i++) data[i] = view.getInt16(i * 2, false);
	return { size, data };
}

/**
 * Reads heights from the .hgt / .hgt.zip tiles of some folders, loading each tile on first use. With
 * `onMissing`, a tile no folder has is asked for (an elevation source fetches it in the background
 * and calls `forget` once it is stored); until then its points have no height, never a guessed one.
 */
export class ElevationSource {
	private readonly tiles = new Map<string, HgtTile | null>();

	private readonly folders: string[];

	constructor(
		folders: string[],
		private readonly onMissing?: (tile: string) => void,
	) {
		this.folders = folders;
	}

	/** Drops what is remembered of a tile, so the next point in it reads the folders again. */
	forget(tile: string): void {
		this.tiles.delete(tile);
	}

	/** Whether a tile covers the point (loading it if needed). */
	getTile(lat: number, lon: number): HgtTile | null {
		const name = getTileName(lat, lon);
		if (this.tiles.has(name)) {
			const known = this.tiles.get(name) ?? null;
			if (!known) this.onMissing?.(name);
			return known;
		}
		let tile: HgtTile | null = null;
		for (const folder of this.folders) {
			const plain = join(folder, `${name}.hgt`);
			const zipped = join(folder, `${name}.hgt.zip`);
			if (existsSync(plain)) tile = parseHgt(readFileSync(plain));
			else if (existsSync(zipped)) {
				const files = unzipSync(readFileSync(zipped), { filter: (file) => file.name.endsWith('.hgt') });
				const first = Object.values(files)[0];
				if (first) tile = parseHgt(first);
			}
			if (tile) break;
		}
		this.tiles.set(name, tile);
		if (!tile) this.onMissing?.(name);
		return tile;
	}

	/** Bilinear height in metres; null over voids and where no tile is loaded. */
	getHeight(lat: number, lon: number): number | null {
		if (!Number.isFinite(lat) || !Number.isFinite(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180)
			return null;
		// Points on a tile edge are shared by two tiles; use whichever is loaded.
		let baseLat = Math.floor(lat);
		let baseLon = Math.floor(lon);
		let tile = this.getTile(baseLat + 0.5, baseLon + 0.5);
		if (!tile && lat === baseLat) tile = this.getTile(--baseLat + 0.5, baseLon + 0.5);
		if (!tile && lon === baseLon) {
			baseLat = Math.floor(lat);
			tile = this.getTile(baseLat + 0.5, --baseLon + 0.5);
			if (!tile && lat === baseLat) tile = this.getTile(--baseLat + 0.5, baseLon + 0.5);
		}
		if (!tile) return null;
		const last = tile.size - 1;
		const row = (baseLat + 1 - lat) * last;
		const col = (lon - baseLon) * last;
		const r0 = Math.min(Math.floor(row), last);
		const c0 = Math.min(Math.floor(col), last);
		const r1 = Math.min(r0 + 1, last);
		const c1 = Math.min(c0 + 1, last);
		const fr = row - r0;
		const fc = col - c0;
		let sum = 0;
		const corners: [number, number, number][] = [
			[r0, c0, (1 - fr) * (1 - fc)],
			[r0, c1, (1 - fr) * fc],
			[r1, c0, fr * (1 - fc)],
			[r1, c1, fr * fc],
		];
		for (const [r, c, weight] of corners) {
			if (weight === 0) continue;
			const value = tile.data[r * tile.size + c];
			if (value === VOID) return null;
			sum += value * weight;
		}
		return Math.round(sum * 10) / 10;
	}
}

/** Points every `step` metres along a line (first and last points kept). */
export function resampleLine(points: [number, number][], step: number): [number, number][] {
	if (points.length < 2 || step <= 0) return points;
	const out: [number, number][] = [points[0]];
	let carried = 0;
	for (let i = 1; i < points.length; i++) {
		const [lat1, lon1] = points[i - 1];
		const [lat2, lon2] = points[i];
		const length = measureDistance(lat1, lon1, lat2, lon2);
		let position = step - carried;
		while (position <= length) {
			const t = position / length;
			out.push([lat1 + (lat2 - lat1) * t, lon1 + (lon2 - lon1) * t]);
			position += step;
		}
		carried = length - (position - step);
	}
	const end = points[points.length - 1];
	const tail = out[out.length - 1];
	if (tail[0] !== end[0] || tail[1] !== end[1]) out.push(end);
	return out;
}
