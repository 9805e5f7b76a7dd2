import yazl from 'yazl';

export type ZipEntry = {
	name: string;
	data: Uint8Array | string;
	/** Unix mode, such as 0o120777 for a symlink. */
	mode?: number;
	/** Stored as-is (no deflate). */
	store?: boolean;
};

/** A zip made with yazl in memory. */
export async function makeZip(entries: ZipEntry[]): Promise<Buffer> {
	const zip = new yazl.ZipFile();
	for (const entry of entries) {
		if (entry.name.endsWith('/')) {
			zip.addEmptyDirectory(entry.name, { mtime: new Date('2026-01-01T00:00:00Z') });
			continue;
		}
		const data = typeof entry.data === 'string' ? Buffer.from(entry.data) : Buffer.from(entry.data);
		zip.addBuffer(data, entry.name, {
			mtime: new Date('2026-01-01T00:00:00Z'),
			...(entry.mode === undefined ? {} : { mode: entry.mode }),
			compress: !entry.store,
		});
	}
	zip.end();
	const chunks: Buffer[] = [];
	for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
	return Buffer.concat(chunks);
}

/**
 * Renames an entry in place, in its local and central headers: how a zip with a name yazl itself
 * refuses (`../../x.gpx`) is made. Both names must be the same length.
 */
export function renameEntry(zip: Buffer, from: string, to: string): Buffer {
	if (from.length !== to.length) throw new Error('names must be the same length');
	const out = Buffer.from(zip);
	const needle = Buffer.from(from);
	let at = out.indexOf(needle);
	while (at !== -1) {
		Buffer.from(to).copy(out, at);
		at = out.indexOf(needle, at + needle.length);
	}
	return out;
}

/** Marks every entry encrypted (general purpose bit 0) in its local and central headers. */
export function markEncrypted(zip: Buffer): Buffer {
	const out = Buffer.from(zip);
	for (let at = 0; at + 4 <= out.length; at++) {
		const signature = out.readUInt32LE(at);
		if (signature === 0x04034b50) out.writeUInt16LE(out.readUInt16LE(at + 6) | 1, at + 6);
		else if (signature === 0x02014b50) out.writeUInt16LE(out.readUInt16LE(at + 8) | 1, at + 8);
	}
	return out;
}
