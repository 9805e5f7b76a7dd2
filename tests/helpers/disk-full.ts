import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { vi } from 'vitest';

export type FullDisk = {
	/** Writes that ran out of room so far. */
	readonly refused: number;
	/** Gives the disk its room back. */
	restore: () => void;
};

/**
 * Makes `folder` behave like a disk with `roomLeft` bytes free: a write there creates its file,
 * keeps what still fits and then fails as the kernel fails it (ENOSPC, or EDQUOT for a quota).
 * Writes anywhere else (the database, other folders) go on as usual. The product's modules import
 * `writeFile` and `createWriteStream` by name, so the patched functions are published to those
 * bindings too.
 */
export function fillDisk(
	folder: string,
	options: { roomLeft?: number; code?: 'ENOSPC' | 'EDQUOT' } = {},
): FullDisk {
	const code = options.code ?? 'ENOSPC';
	let room = options.roomLeft ?? 0;
	let refused = 0;
	const inside = (file: unknown) =>
		typeof file === 'string' && path.resolve(file).startsWith(`${path.resolve(folder)}${path.sep}`);
	const noRoom = () => {
		refused++;
		const error = new Error(`${code}: no space left on device, write`) as NodeJS.ErrnoException;
		error.code = code;
		error.errno = code === 'ENOSPC' ? -28 : -122;
		error.syscall = 'write';
		return error;
	};
	/** The bytes of a write that still fit; what is left of the room shrinks by as many. */
	const fitting = (bytes: Uint8Array) => {
		const kept = bytes.subarray(0, Math.max(0, Math.min(room, bytes.byteLength)));
		room -= kept.byteLength;
		return kept;
	};

	const realWriteFile = fsp.writeFile;
	const writeFile = vi.spyOn(fsp, 'writeFile').mockImplementation(async (file, data, writeOptions) => {
		// Text (a JSON record) takes room as its bytes do.
		const bytes = typeof data === 'string' ? Buffer.from(data) : data instanceof Uint8Array ? data : null;
		if (!inside(file) || !bytes) return realWriteFile(file, data, writeOptions);
		const kept = fitting(bytes);
		await realWriteFile(file, kept, writeOptions);
		if (kept.byteLength < bytes.byteLength) throw noRoom();
	});

	const realCreateWriteStream = fs.createWriteStream;
	const createWriteStream = vi.spyOn(fs, 'createWriteStream').mockImplementation((file, streamOptions) => {
		const stream = realCreateWriteStream(file, streamOptions);
		if (!inside(file)) return stream;
		const write = stream._write.bind(stream);
		// Every chunk through the one path that counts the room.
		stream._writev = undefined;
		stream._write = (chunk: Buffer, encoding, callback) => {
			const kept = fitting(chunk);
			if (kept.byteLength === chunk.byteLength) return write(chunk, encoding, callback);
			write(kept, encoding, () => callback(noRoom()));
		};
		return stream;
	});
	syncBuiltinESMExports();

	return {
		get refused() {
			return refused;
		},
		restore: () => {
			writeFile.mockRestore();
			createWriteStream.mockRestore();
			syncBuiltinESMExports();
		},
	};
}
