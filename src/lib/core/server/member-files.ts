import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../errors';

/**
 * Seconds a member is asked to wait when the disk is full: room comes back when an operator adds
 * it or the hourly clean-up removes expired exports, not within seconds.
 */
export const DISK_FULL_RETRY_AFTER_S = 300;

/** The file system's "no room" (the disk, or the owner's quota) and PostgreSQL's `disk_full`. */
const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT', '53100']);

/**
 * Whether a failure means there is no room to write: the request may be retried once there is, so
 * it deserves a 507, not a 500. Drizzle and stream pipelines wrap the cause, so the chain is read.
 */
export function isDiskFull(error: unknown): boolean {
	for (let current = error, depth = 0; current && depth < 5; depth++) {
		const candidate = current as { code?: unknown; cause?: unknown };
		if (typeof candidate.code === 'string' && DISK_FULL_CODES.has(candidate.code)) return true;
		current = candidate.cause;
	}
	return false;
}

/** The answer to a write that found no room: 507 Insufficient Storage with Retry-After. */
export function diskFullError(): AppError {
	return new AppError(
		'insufficient_storage',
		'We have no room to store this right now, so nothing was saved. Try again in a few minutes.',
		{ detail: 'storage_full', headers: { 'Retry-After': String(DISK_FULL_RETRY_AFTER_S) } },
	);
}

/**
 * Writes a member's files into `folder` and then records them with `record` (their database row),
 * all or nothing: when a write fails part way (a full disk) or the row cannot be stored, every file
 * begun is taken away again, so no partial file and no row without its file is left. A full disk
 * is thrown as `diskFullError()`.
 */
export async function writeMemberFiles<T>(
	folder: string,
	files: Record<string, Uint8Array>,
	record: (paths: string[]) => Promise<T>,
	modes: { folder?: number; file?: number } = {},
): Promise<T> {
	const begun: string[] = [];
	try {
		await mkdir(folder, { recursive: true, mode: modes.folder });
		for (const [name, bytes] of Object.entries(files)) {
			const file = path.join(folder, name);
			begun.push(file);
			await writeFile(file, bytes, { mode: modes.file });
		}
		return await record(begun);
	} catch (error) {
		await Promise.all(begun.map((file) => rm(file, { force: true })));
		throw isDiskFull(error) ? diskFullError() : error;
	}
}
