import { Gunzip, Unzip, UnzipInflate } from 'fflate';
import { defaultLimits, type ReadLimits } from './contract';
import { WorkoutFileError } from './errors';

/**
 * Compressed input goes to the inflater this many bytes at a time, and the output is counted after
 * every step. Deflate expands at most about 1:1032, so one step adds at most ~4 MB past the cap
 * before the read stops: a bomb costs the cap, never its full size. Smaller steps cost more than
 * they save (fflate copies its window on every push: 1 KB steps read a real 28 MB GPX 3× slower).
 */
export const INFLATE_STEP_BYTES = 4096;
/** Deflate's largest expansion: 258-byte matches coded in under 2 bits each. */
export const DEFLATE_MAX_RATIO = 1032;

function tooLarge(cap: number, inflatedBytes: number): WorkoutFileError {
	return new WorkoutFileError(
		'too_large',
		`This file unpacks to more than ${Math.round(cap / 1024 / 1024)} MB, more than we accept.`,
		{ maxDecompressedBytes: cap, inflatedBytes },
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
		if (total > cap) throw tooLarge(cap, total);
		chunks.push(chunk);
		if (final) done = true;
	});
	try {
		for (let at = 0; at < bytes.length; at += INFLATE_STEP_BYTES) {
			const end = Math.min(at + INFLATE_STEP_BYTES, bytes.length);
			gunzip.push(bytes.subarray(at, end), end === bytes.length);
			if (done) break;
		}
	} catch (error) {
		if (error instanceof WorkoutFileError) throw error;
		throw new WorkoutFileError('truncated', 'This compressed file is damaged or incomplete.');
	}
	if (!done) throw new WorkoutFileError('truncated', 'This compressed file is incomplete.');
	return joinChunks(chunks, total);
}

/** A name that could land outside a folder if anything ever extracted it, or that hides bytes. */
export function isUnsafeEntryName(name: string): boolean {
	if (name.length === 0 || name.length > 1024) return true;
	if (name.includes('\0') || name.includes('\\')) return true;
	if (name.startsWith('/') || /^[a-zA-Z]:/.test(name)) return true;
	return name.split('/').includes('..');
}

/**
 * Takes the first regular file out of a .zip upload. A size the zip declares past the cap is refused
 * before anything is inflated; a smaller declared size is never trusted: inflated bytes are counted as
 * they stream and the read stops at the cap. Nothing is ever written to disk,
 * but a zip naming a file outside itself is refused as the zip import refuses it: such a zip was
 * made to attack something.
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
		if (isUnsafeEntryName(name))
			fail(new WorkoutFileError('unsafe_name', 'A file in this zip has a name that points outside it.'));
		if (chosen || name.endsWith('/') || name.startsWith('__MACOSX/') || /(^|\/)\._/.test(name)) return;
		if (file.compression !== 0 && file.compression !== 8) return;
		chosen = true;
		// Zero means "unknown" (sizes follow the data); a declared size past the cap needs no inflating.
		if ((file.originalSize ?? 0) > cap) fail(tooLarge(cap, 0));
		file.ondata = (error, chunk, final) => {
			if (failure) throw failure;
			if (error) fail(new WorkoutFileError('truncated', 'This zip file is damaged or incomplete.'));
			total += chunk.length;
			if (total > cap) fail(tooLarge(cap, total));
			chunks.push(chunk);
			if (final) finished = true;
		};
		file.start();
	});
	unzip.register(UnzipInflate);
	try {
		for (let at = 0; at < bytes.length && failure === undefined; at += INFLATE_STEP_BYTES) {
			const end = Math.min(at + INFLATE_STEP_BYTES, bytes.length);
			unzip.push(bytes.subarray(at, end), end === bytes.length);
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
