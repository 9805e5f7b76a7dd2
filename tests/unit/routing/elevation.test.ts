import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ElevationSource, getTileName, resampleLine } from '../../../src/lib/routing/elevation.ts';
import { REGIONS_DIR } from './region-cache.ts';

// Reads a sample straight from the zipped file, independently of the code under test.
function readSample(zipPath: string, row: number, col: number): number {
	const files = unzipSync(readFileSync(zipPath));
	const bytes = Object.values(files)[0];
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	return view.getInt16((row * 1201 + col) * 2, false);
}

describe('SRTM heights', () => {
	const source = new ElevationSource([REGIONS_DIR]);
	const andorraZip = join(REGIONS_DIR, 'N42E001.hgt.zip');

	it('names tiles by their south-west corner', () => {
		expect(getTileName(42.5, 1.5)).toBe('N42E001');
		expect(getTileName(-0.5, -76.9)).toBe('S01W077');
	});

	it('answers the tile value exactly at grid points of a zipped 3″ tile', () => {
		for (const [row, col] of [
			[600, 600],
			[300, 700],
			[1000, 450],
			[0, 0],
			[1200, 1200],
		]) {
			const expected = readSample(andorraZip, row, col);
			const lat = 43 - row / 1200;
			const lon = 1 + col / 1200;
			expect(source.getHeight(lat, lon)).toBe(expected);
		}
	});

	it('interpolates bilinearly between samples', () => {
		const a = readSample(andorraZip, 600, 600);
		const b = readSample(andorraZip, 600, 601);
		const c = readSample(andorraZip, 601, 600);
		const d = readSample(andorraZip, 601, 601);
		const lat = 43 - 600.5 / 1200;
		const lon = 1 + 600.5 / 1200;
		expect(source.getHeight(lat, lon)).toBeCloseTo((a + b + c + d) / 4, 1);
		const quarter = source.getHeight(43 - 600 / 1200, 1 + 600.25 / 1200);
		expect(quarter).toBeCloseTo(a * 0.75 + b * 0.25, 1);
	});

	it('answers null where no tile is loaded', () => {
		expect(source.getHeight(10.5, 10.5)).toBeNull();
		expect(source.getHeight(95, 0)).toBeNull();
	});

	it('reads plain 1″ tiles and answers null next to voids', () => {
		const folder = mkdtempSync(join(tmpdir(), 'hgt-'));
		const size = 3601;
		const bytes = Buffer.alloc(size * size * 2);
		for (let i = 0; i < size * size; i++) bytes.writeInt16BE(i % 1000, i * 2);
		bytes.writeInt16BE(-32768, (10 * size + 10) * 2);
		writeFileSync(join(folder, 'N10E010.hgt'), bytes);
		const fine = new ElevationSource([folder]);
		expect(fine.getHeight(11 - 5 / 3600, 10 + 7 / 3600)).toBe((5 * size + 7) % 1000);
		expect(fine.getHeight(11 - 10 / 3600, 10 + 10 / 3600)).toBeNull();
		expect(fine.getHeight(11 - 9.5 / 3600, 10 + 9.5 / 3600)).toBeNull();
		expect(fine.getHeight(11 - 8 / 3600, 10 + 8 / 3600)).not.toBeNull();
	});

	it('resamples a line at the requested spacing', () => {
		const points = resampleLine(
			[
				[42.5, 1.5],
				[42.5, 1.51],
			],
			100,
		);
		// 0.01° of longitude at 42.5° N is about 820 m: 0, 100, …, 800 and the end.
		expect(points.length).toBe(10);
		expect(points.at(-1)).toEqual([42.5, 1.51]);
	});
});
