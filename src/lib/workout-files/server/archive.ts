import yauzl from 'yauzl';
import { isUnsafeEntryName } from '../containers';

/**
 * Reading a zip of workout files (a Strava or Garmin export) without trusting it. The central
 * directory is checked before anything is inflated: entry count, names, encryption, links, nested
 * archives and the sizes it declares. Inflated bytes are then counted as they stream, so an entry
 * whose header lies stops at the cap. Nothing is ever written out, so no name reaches the disk.
 */

export type ArchiveLimits = {
	/** Entries of any kind the archive may list. */
	maxEntries: number;
	/** Unpacked bytes of all workout files together. */
	maxTotalBytes: number;
	/** Unpacked bytes of one entry (a .gz entry is then unpacked again under the parser's own cap). */
	maxEntryBytes: number;
};

export type ArchiveRefusalCode =
	| 'too_many_entries'
	| 'too_large'
	| 'unsafe_name'
	| 'encrypted'
	| 'symlink'
	| 'nested_archive'
	| 'damaged'
	| 'no_workout_files';

/** Why a whole archive is refused; `tooLarge` ones answer 413, the rest 400. */
export class ArchiveRefusal extends Error {
	readonly code: ArchiveRefusalCode;
	constructor(code: ArchiveRefusalCode, message: string) {
		super(message);
		this.name = 'ArchiveRefusal';
		this.code = code;
	}
	get tooLarge(): boolean {
		return this.code === 'too_many_entries' || this.code === 'too_large';
	}
}

/** Why one entry could not be read; the rest of the archive goes on. */
export class EntryRefusal extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'EntryRefusal';
	}
}

const WORKOUT_FILE_NAME = /\.(gpx|tcx|fit)(\.gz)?$/i;
/** Archives inside the archive are refused by name here and by content when read. */
const ARCHIVE_NAME = /\.(zip|7z|rar|tar|tgz|tar\.gz|jar|kmz)$/i;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

export function isWorkoutFileName(name: string): boolean {
	return WORKOUT_FILE_NAME.test(name);
}

/** Folders and the metadata macOS adds to every zip it makes. */
function isPassedOver(name: string): boolean {
	return name.endsWith('/') || name.startsWith('__MACOSX/') || /(^|\/)\._/.test(name);
}

function isSymlink(entry: yauzl.Entry): boolean {
	// Unix attributes sit in the high 16 bits when the zip was made on a Unix-like system (version made by 3).
	const madeOnUnix = entry.versionMadeBy >> 8 === 3;
	return madeOnUnix && ((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK;
}

function refusalFromYauzl(error: Error): ArchiveRefusal {
	if (/invalid relative path|absolute path|invalid characters in fileName/.test(error.message))
		return new ArchiveRefusal('unsafe_name', 'A file in this zip has a name that points outside it.');
	return new ArchiveRefusal('damaged', 'This zip file is damaged or incomplete.');
}

async function openZip(path: string): Promise<yauzl.ZipFile> {
	try {
		return await yauzl.openPromise(path, {
			lazyEntries: true,
			autoClose: false,
			validateEntrySizes: true,
			strictFileNames: false,
		});
	} catch (error) {
		throw refusalFromYauzl(error as Error);
	}
}

/** Each entry of the central directory in turn; the zip's own errors become refusals. */
async function* entriesOf(zip: yauzl.ZipFile): AsyncGenerator<yauzl.Entry> {
	while (true) {
		const next = await new Promise<yauzl.Entry | null>((resolve, reject) => {
			const onEntry = (entry: yauzl.Entry) => {
				cleanup();
				resolve(entry);
			};
			const onEnd = () => {
				cleanup();
				resolve(null);
			};
			const onError = (error: Error) => {
				cleanup();
				reject(refusalFromYauzl(error));
			};
			const cleanup = () => {
				zip.off('entry', onEntry);
				zip.off('end', onEnd);
				zip.off('error', onError);
			};
			zip.on('entry', onEntry);
			zip.on('end', onEnd);
			zip.on('error', onError);
			zip.readEntry();
		});
		if (!next) return;
		yield next;
	}
}

/**
 * Checks an archive's directory and lists its workout files, in order. Refuses the whole archive
 * when anything in it is hostile; photos, CSV files and folders are passed over.
 */
export async function scanArchive(path: string, limits: ArchiveLimits): Promise<string[]> {
	const zip = await openZip(path);
	try {
		if (zip.entryCount > limits.maxEntries)
			throw new ArchiveRefusal(
				'too_many_entries',
				`This zip holds ${zip.entryCount} files; we take at most ${limits.maxEntries} at a time.`,
			);
		const files: string[] = [];
		let declared = 0;
		for await (const entry of entriesOf(zip)) {
			const name = entry.fileName;
			if (isUnsafeEntryName(name))
				throw new ArchiveRefusal('unsafe_name', 'A file in this zip has a name that points outside it.');
			if (isSymlink(entry))
				throw new ArchiveRefusal(
					'symlink',
					'This zip holds a link to another file; we take only plain files.',
				);
			if (entry.isEncrypted())
				throw new ArchiveRefusal('encrypted', 'This zip is protected by a password; send it without one.');
			if (isPassedOver(name)) continue;
			if (ARCHIVE_NAME.test(name))
				throw new ArchiveRefusal('nested_archive', 'This zip holds another archive; unpack that one first.');
			if (!isWorkoutFileName(name)) continue;
			if (entry.uncompressedSize > limits.maxEntryBytes)
				throw new ArchiveRefusal(
					'too_large',
					`${baseName(name)} unpacks to more than ${megabytes(limits.maxEntryBytes)} MB, more than we accept.`,
				);
			declared += entry.uncompressedSize;
			if (declared > limits.maxTotalBytes)
				throw new ArchiveRefusal(
					'too_large',
					`The workout files in this zip unpack to more than ${megabytes(limits.maxTotalBytes)} MB, more than we accept at a time.`,
				);
			files.push(name);
		}
		if (files.length === 0)
			throw new ArchiveRefusal('no_workout_files', 'This zip holds no GPX, TCX or FIT files.');
		return files;
	} finally {
		zip.close();
	}
}

export type ArchiveEntryRead =
	| { name: string; bytes: Uint8Array; error?: undefined }
	| { name: string; bytes?: undefined; error: EntryRefusal };

/**
 * The workout files of an archive `scanArchive` accepted, read one at a time, from the `skip`-th
 * on. Each entry's bytes are counted as they inflate: past the per-entry cap (or a size its header
 * understated) that entry fails; past the total cap the whole read stops with a refusal.
 */
export async function* readWorkoutEntries(
	path: string,
	limits: ArchiveLimits,
	skip = 0,
): AsyncGenerator<ArchiveEntryRead> {
	const zip = await openZip(path);
	let total = 0;
	let seen = 0;
	try {
		for await (const entry of entriesOf(zip)) {
			const name = entry.fileName;
			if (isUnsafeEntryName(name) || isSymlink(entry) || entry.isEncrypted()) continue;
			if (isPassedOver(name) || !isWorkoutFileName(name)) continue;
			seen++;
			if (seen <= skip) continue;
			const read = await readEntryCapped(zip, entry, limits.maxEntryBytes);
			if ('bytes' in read) {
				total += read.bytes.length;
				if (total > limits.maxTotalBytes)
					throw new ArchiveRefusal(
						'too_large',
						`The workout files in this zip unpack to more than ${megabytes(limits.maxTotalBytes)} MB; the import stopped there.`,
					);
			}
			yield { name, ...read } as ArchiveEntryRead;
		}
	} finally {
		zip.close();
	}
}

async function readEntryCapped(
	zip: yauzl.ZipFile,
	entry: yauzl.Entry,
	cap: number,
): Promise<{ bytes: Uint8Array } | { error: EntryRefusal }> {
	let stream: NodeJS.ReadableStream & { destroy: () => void };
	try {
		stream = (await zip.openReadStreamPromise(entry)) as typeof stream;
	} catch {
		return { error: new EntryRefusal('This file in the zip is damaged or packed in a way we cannot read.') };
	}
	const chunks: Buffer[] = [];
	let length = 0;
	try {
		for await (const chunk of stream as AsyncIterable<Buffer>) {
			length += chunk.length;
			if (length > cap) {
				stream.destroy();
				return {
					error: new EntryRefusal(
						`This file unpacks to more than ${megabytes(cap)} MB, more than we accept.`,
					),
				};
			}
			chunks.push(chunk);
		}
	} catch {
		// yauzl checks the inflated length against the header: a lying header ends here.
		stream.destroy();
		return {
			error: new EntryRefusal('This file in the zip is damaged: its size does not match its header.'),
		};
	}
	return { bytes: new Uint8Array(Buffer.concat(chunks, length)) };
}

function baseName(name: string): string {
	return name.split('/').at(-1) ?? name;
}

function megabytes(bytes: number): number {
	return Math.round(bytes / 1024 / 1024);
}
