import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { MiddlewareHandler } from 'hono';

/** Text files worth compressing; smaller ones fit in a packet either way. */
export const COMPRESSIBLE_FILE = /\.(html|css|js|mjs|json|svg|txt|xml|webmanifest)$/;
export const MIN_COMPRESSIBLE_BYTES = 512;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Brotli quality 6 takes a few milliseconds on a 40 KB page and lands within 10 % of quality 11,
 * which costs twenty times as much: right for a copy made while a visitor waits.
 */
export const ON_REQUEST_BROTLI_QUALITY = 6;

/**
 * Writes `file.br` and `file.gz` beside `file`. Each copy is written under a temporary name and
 * renamed, so a concurrent reader sees a whole copy or none.
 */
export async function writeCompressedCopies(file: string, brotliQuality: number): Promise<void> {
	const bytes = await readFile(file);
	const [br, gz] = await Promise.all([
		brotli(bytes, {
			params: {
				[constants.BROTLI_PARAM_QUALITY]: brotliQuality,
				[constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
				[constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
			},
		}),
		gzipAsync(bytes, { level: 9 }),
	]);
	const suffix = `.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
	await Promise.all(
		[
			[`${file}.gz`, gz],
			[`${file}.br`, br],
		].map(async ([target, data]) => {
			const temp = `${target}${suffix}`;
			try {
				await writeFile(temp, data);
				await rename(temp, target as string);
			} catch (error) {
				await rm(temp, { force: true });
				throw error;
			}
		}),
	);
}

/** The file `serveStatic` answers a path with: the file itself or a folder's index.html. */
async function resolveFile(root: string, requestPath: string): Promise<string | null> {
	let decoded: string;
	try {
		decoded = decodeURI(requestPath);
	} catch {
		return null;
	}
	if (/(?:^|[/\\])\.{1,2}(?:$|[/\\])|[/\\]{2,}|\\/.test(decoded)) return null;
	let file = join(root, decoded);
	const info = await stat(file).catch(() => null);
	if (info?.isDirectory()) file = join(file, 'index.html');
	return file;
}

/**
 * Only the hashed assets and the busiest pages are compressed at build time; every other static
 * text file (mostly the location pages) is compressed the first time someone asks for it, and the
 * copies are kept beside the file for `serveStatic({ precompressed: true })` to send from then on.
 * When the copies cannot be written (a read-only build folder) the response is compressed on the
 * fly by the compression middleware instead.
 */
export function compressOnFirstRequest(root: string): MiddlewareHandler {
	const done = new Set<string>();
	const pending = new Map<string, Promise<void>>();
	let warned = false;
	return async (c, next) => {
		if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
		const accepts = c.req.header('accept-encoding') ?? '';
		if (!/\b(br|gzip)\b/.test(accepts)) return next();
		const file = await resolveFile(root, c.req.path);
		if (!file || done.has(file) || !COMPRESSIBLE_FILE.test(file)) return next();
		const [original, copy] = await Promise.all([
			stat(file).catch(() => null),
			stat(`${file}.br`).catch(() => null),
		]);
		if (!original?.isFile() || original.size < MIN_COMPRESSIBLE_BYTES || copy) {
			if (original) done.add(file);
			return next();
		}
		let job = pending.get(file);
		if (!job) {
			job = writeCompressedCopies(file, ON_REQUEST_BROTLI_QUALITY).finally(() => pending.delete(file));
			pending.set(file, job);
		}
		try {
			await job;
			done.add(file);
		} catch (error) {
			done.add(file);
			if (!warned) {
				warned = true;
				console.warn(
					`Static files are compressed per request: cannot keep compressed copies in ${root} (${error instanceof Error ? error.message : error}).`,
				);
			}
		}
		return next();
	};
}
