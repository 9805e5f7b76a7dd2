import { Gunzip, Unzip, UnzipInflate } from 'fflate';
import { defaultLimits, type ReadLimits } from './contract';
import { WorkoutFileError } from './errors';

/** Input is pushed in small chunks so that one push can never inflate far past the cap (deflate tops out near 1:1032). */
const CHUNK = 4096;

function tooLarge(cap: number): never {
	throw new WorkoutFileError(
		'too_large',
		`This file unpacks to more than ${Math.round(cap / 1024 / 1024)} MB, more than we accept.`,
		{ maxDecompressedBytes: cap },
	);
}

function joinChunks(chunks: Uint8Array[], total: number): Uint8Array {
	if (chunks.length === 1) return chunks[0];
	const out = new Uint8Array(total);
	let at = 0;
	for (const c of chunks) {
		out.set(c, at);
		at += c.length;
	}
	return out;
}

export function isGzip(bytes: Uint8Array): boolean {
	return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

export function isZip(bytes: Uint8Array): boolean {
	return (
		bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04
	);
}

/** Inflates a .gz upload, counting output bytes as they come and stopping at the cap. */
export function gunzipCapped(bytes: Uint8Array, limits: ReadLimits = {}): Uint8Array {
	const cap = limits.maxDecompressedBytes ?? defaultLimits.maxDecompressedBytes;
	const chunks: Uint8Array[] = [];
	let total = 0;
	let done = false;
	const gunzip = new Gunzip((chunk, final) => {
		total += chunk.length;
		if (total > cap) tooLarge(cap);
		chunks.push(chunk);
		if (final) done = true;
	});
	try {
		for (let at = 0; at < bytes.length; at += CHUNK) {
			gunzip.push(bytes.subarray(at, Math.min(at + CHUNK, bytes.length)), at + CHUNK >= bytes.length);
			if (done) break;
		}
	} catch (error) {
		if (error instanceof WorkoutFileError) throw error;
		throw new WorkoutFileError('truncated', 'This compressed file is damaged or incomplete.');
	}
	if (!done) throw new WorkoutFileError('truncated', 'This compressed file is incomplete.');
	return joinChunks(chunks, total);
}

/**
 * Takes the first regular file out of a .zip upload. Sizes in the zip headers are never trusted:
 * inflated bytes are counted as they stream and the read stops at the cap. Entry names are only used
 * to skip folders and macOS metadata; nothing is ever written to disk, so "../" names are harmless.
 */
export function unzipFirstCapped(bytes: Uint8Array, limits: ReadLimits = {}): Uint8Array {
	const cap = limits.maxDecompressedBytes ?? defaultLimits.maxDecompressedBytes;
	const maxEntries = limits.maxZipEntries ?? defaultLimits.maxZipEntries;
	let entries = 0;
	let total = 0;
	let chosen = false;
	let finished = false;
	const chunks: Uint8Array[] = [];
	// fflate hands an exception thrown in a callback back to ondata as a plain error, so keep the reason.
	let failure: WorkoutFileError | undefined;
	const fail = (error: WorkoutFileError): never => {
		failure ??= error;
		throw failure;
	};
	const unzip = new Unzip((file) => {
		entries++;
		if (entries > maxEntries) {
			fail(
				new WorkoutFileError(
					'too_many_entries',
					`This zip holds more than ${maxEntries} files. Upload one workout at a time.`,
					{
						maxZipEntries: maxEntries,
					},
				),
			);
		}
		const name = file.name;
		if (chosen || name.endsWith('/') || name.startsWith('__MACOSX/') || /(^|\/)\._/.test(name)) return;
		if (file.compression !== 0 && file.compression !== 8) return;
		chosen = true;
		file.ondata = (error, chunk, final) => {
			if (failure) throw failure;
			if (error) fail(new WorkoutFileError('truncated', 'This zip file is damaged or incomplete.'));
			total += chunk.length;
			if (total > cap) {
				fail(
					new WorkoutFileError(
						'too_large',
						`This file unpacks to more than ${Math.round(cap / 1024 / 1024)} MB, more than we accept.`,
						{
							maxDecompressedBytes: cap,
						},
					),
				);
			}
			chunks.push(chunk);
			if (final) finished = true;
		};
		file.start();
	});
	unzip.register(UnzipInflate);
	try {
		for (let at = 0; at < bytes.length && failure === undefined; at += CHUNK) {
			unzip.push(bytes.subarray(at, Math.min(at + CHUNK, bytes.length)), at + CHUNK >= bytes.length);
		}
	} catch (error) {
		if (failure) throw failure;
		if (error instanceof WorkoutFileError) throw error;
		throw new WorkoutFileError('truncated', 'This zip file is damaged or incomplete.');
	}
	if (failure) throw failure;
	if (!chosen) throw new WorkoutFileError('no_track_points', 'This zip file holds no workout file.');
	if (!finished) throw new WorkoutFileError('truncated', 'This zip file is damaged or incomplete.');
	return joinChunks(chunks, total);
}
