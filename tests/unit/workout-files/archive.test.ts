import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUnsafeEntryName } from '../../../src/lib/workout-files/containers';
import {
	type ArchiveLimits,
	ArchiveRefusal,
	readWorkoutEntries,
	scanArchive,
} from '../../../src/lib/workout-files/server/archive';
import { makeBombs } from '../../helpers/bombs';
import { makeZip, markEncrypted, renameEntry, type ZipEntry } from '../../helpers/zips';
import { loadFixture } from './fixtures';

const LIMITS: ArchiveLimits = { maxEntries: 50, maxTotalBytes: 2 * 1024 * 1024, maxEntryBytes: 1024 * 1024 };

let folder: string;
let count = 0;
beforeAll(() => {
	folder = mkdtempSync(path.join(tmpdir(), 'archive-test-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function save(bytes: Uint8Array): string {
	const file = path.join(folder, `${count++}.zip`);
	writeFileSync(file, bytes);
	return file;
}

async function saveZip(entries: ZipEntry[]): Promise<string> {
	return save(await makeZip(entries));
}

async function refusalOf(promise: Promise<unknown>): Promise<ArchiveRefusal> {
	try {
		await promise;
	} catch (error) {
		if (error instanceof ArchiveRefusal) return error;
		throw error;
	}
	throw new Error('the archive was accepted');
}

async function readAll(file: string, limits = LIMITS, skip = 0) {
	const out = [];
	for await (const entry of readWorkoutEntries(file, limits, skip)) out.push(entry);
	return out;
}

const gpx = loadFixture('gpx/Mojstrovka.gpx');
const fit = loadFixture('fit/garmin-fenix-5-walk.fit');

describe('scanning an export zip', () => {
	it('lists the workout files in order and passes over photos, CSV, folders and macOS metadata', async () => {
		const file = await saveZip([
			{ name: 'activities.csv', data: 'id,name\n1,Run\n' },
			{ name: 'activities/', data: '' },
			{ name: 'activities/1.gpx', data: gpx },
			{ name: 'activities/2.fit.gz', data: fit },
			{ name: '__MACOSX/activities/._1.gpx', data: 'x' },
			{ name: 'media/photo.jpg', data: 'jpeg' },
			{ name: 'activities/3.TCX', data: '<tcx/>' },
		]);
		expect(await scanArchive(file, LIMITS)).toEqual([
			'activities/1.gpx',
			'activities/2.fit.gz',
			'activities/3.TCX',
		]);
		const read = await readAll(file);
		expect(read.map((entry) => entry.name)).toEqual([
			'activities/1.gpx',
			'activities/2.fit.gz',
			'activities/3.TCX',
		]);
		expect(Buffer.from(read[0].bytes as Uint8Array).equals(Buffer.from(gpx))).toBe(true);
		expect(Buffer.from(read[1].bytes as Uint8Array).equals(Buffer.from(fit))).toBe(true);
		// A retry carries on after the files already done.
		expect((await readAll(file, LIMITS, 2)).map((entry) => entry.name)).toEqual(['activities/3.TCX']);
	});

	it('refuses a zip listing more entries than the cap before reading any of them', async () => {
		const entries = Array.from({ length: 10_000 }, (_, index) => ({
			name: `a/${index}.gpx`,
			data: 'x',
			store: true,
		}));
		const refusal = await refusalOf(scanArchive(await saveZip(entries), { ...LIMITS, maxEntries: 2000 }));
		expect(refusal.code).toBe('too_many_entries');
		expect(refusal.tooLarge).toBe(true);
	});

	it('refuses names that climb out of the folder or start at the root', async () => {
		for (const [placeholder, hostile] of [
			['aa/aa/x.gpx', '../../x.gpx'],
			['a/aa/aa/x.gpx', 'a/../../x.gpx'],
			['xetc/x.gpx', '/etc/x.gpx'],
			['aa.gpx', 'C:.gpx'],
		]) {
			const zip = renameEntry(await makeZip([{ name: placeholder, data: gpx }]), placeholder, hostile);
			const refusal = await refusalOf(scanArchive(save(zip), LIMITS));
			expect(refusal.code, hostile).toBe('unsafe_name');
		}
		expect(isUnsafeEntryName('..\\..\\x.gpx')).toBe(true);
		expect(isUnsafeEntryName('a\u0000.gpx')).toBe(true);
		expect(isUnsafeEntryName('runs/..hidden.gpx')).toBe(false);
	});

	it('refuses symlinks, encrypted entries and archives inside the archive', async () => {
		const link = await saveZip([{ name: 'activities/1.gpx', data: '/etc/passwd', mode: 0o120777 }]);
		expect((await refusalOf(scanArchive(link, LIMITS))).code).toBe('symlink');
		const locked = save(markEncrypted(await makeZip([{ name: 'activities/1.gpx', data: gpx }])));
		expect((await refusalOf(scanArchive(locked, LIMITS))).code).toBe('encrypted');
		const inner = await makeZip([{ name: '1.gpx', data: gpx }]);
		const nested = await saveZip([
			{ name: 'activities/1.gpx', data: gpx },
			{ name: 'more/inner.zip', data: inner },
		]);
		expect((await refusalOf(scanArchive(nested, LIMITS))).code).toBe('nested_archive');
	});

	it('refuses an entry whose declared size is past the cap, and a total past the cap', async () => {
		const { zip } = makeBombs(8 * 1024 * 1024);
		const refusal = await refusalOf(scanArchive(save(zip), LIMITS));
		expect(refusal.code).toBe('too_large');
		const big = new Uint8Array(900 * 1024).fill(0x20);
		const many = await saveZip([
			{ name: '1.gpx', data: big },
			{ name: '2.gpx', data: big },
			{ name: '3.gpx', data: big },
		]);
		expect((await refusalOf(scanArchive(many, LIMITS))).code).toBe('too_large');
	});

	it('stops an entry whose header understates its size at the bytes it declared', async () => {
		const { lyingZip } = makeBombs(64 * 1024 * 1024);
		const file = save(lyingZip);
		// The directory looks harmless: 100 bytes.
		expect(await scanArchive(file, LIMITS)).toEqual(['ride.gpx']);
		const [entry] = await readAll(file);
		expect(entry.bytes).toBeUndefined();
		expect(entry.error?.message).toMatch(/size does not match/);
	});

	it('counts the bytes actually inflated against the total cap while reading', async () => {
		const big = new Uint8Array(900 * 1024).fill(0x20);
		const file = await saveZip([
			{ name: '1.gpx', data: big },
			{ name: '2.gpx', data: big },
		]);
		// The scan saw a total under 2 MB; a tighter cap on reading stops after the first file.
		const names: string[] = [];
		const refusal = await refusalOf(
			(async () => {
				for await (const entry of readWorkoutEntries(file, { ...LIMITS, maxTotalBytes: 1024 * 1024 }))
					names.push(entry.name);
			})(),
		);
		expect(refusal.code).toBe('too_large');
		expect(names).toEqual(['1.gpx']);
	});

	it('refuses a damaged or empty zip, and one without workout files', async () => {
		const zip = await makeZip([{ name: '1.gpx', data: gpx }]);
		expect((await refusalOf(scanArchive(save(zip.subarray(0, zip.length - 30)), LIMITS))).code).toBe(
			'damaged',
		);
		const photos = await saveZip([{ name: 'media/1.jpg', data: 'jpeg' }]);
		expect((await refusalOf(scanArchive(photos, LIMITS))).code).toBe('no_workout_files');
	});

	it('writes nothing beside the archive it reads', async () => {
		const before = readdirSync(folder).length;
		const zip = await saveZip([{ name: 'x/../../../evil.gpx'.replace(/\.\.\//g, 'ab/'), data: gpx }]);
		await readAll(zip);
		expect(readdirSync(folder).length).toBe(before + 1);
	});
});
