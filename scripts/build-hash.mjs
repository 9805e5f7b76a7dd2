import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Whether `npm start` must build first is decided by content, not timestamps: `npm install`
 * rewrites package-lock.json (same bytes, new mtime) and a fresh clone gives every file a new one.
 * The hash covers every file the build reads and the settings pre-rendered pages print.
 */
export const BUILD_INPUTS = [
	'package-lock.json',
	'astro.config.mjs',
	'tsconfig.json',
	'src',
	'public',
	'data-regions',
	'scripts/build.mjs',
	'scripts/build-hash.mjs',
	'scripts/build-locations.mjs',
];

/**
 * Settings that pre-rendered pages print: the product's name and wording, the support address,
 * and in production the canonical address. PUBLIC_URL counts only in production so that tests,
 * which serve the same build on a random port, do not rebuild.
 */
export function buildSettings(env = process.env) {
	const settings = { SITE_VARIANT: env.SITE_VARIANT ?? '', SUPPORT_EMAIL: env.SUPPORT_EMAIL ?? '' };
	if (env.NODE_ENV === 'production') settings.PUBLIC_URL = env.PUBLIC_URL ?? '';
	return settings;
}

export const HASH_FILE = 'dist/.build-hash';

function listFiles(root, item, found) {
	const full = path.join(root, item);
	if (!existsSync(full)) return;
	if (!statSync(full).isDirectory()) {
		found.push(item);
		return;
	}
	for (const entry of readdirSync(full, { withFileTypes: true })) {
		const child = path.posix.join(item, entry.name);
		if (entry.isDirectory()) listFiles(root, child, found);
		else if (entry.isFile()) found.push(child);
	}
}

/** One hash over the build inputs' paths and bytes and the build settings; mtimes play no part. */
export function sourceHash(root, env = process.env, inputs = BUILD_INPUTS) {
	const files = [];
	for (const item of inputs) listFiles(root, item, files);
	files.sort();
	const hash = createHash('sha256');
	hash.update(JSON.stringify(buildSettings(env)));
	for (const file of files) {
		const bytes = readFileSync(path.join(root, file));
		hash.update(`\0${file}\0${bytes.length}\0`);
		hash.update(bytes);
	}
	return hash.digest('hex');
}

/** The reason to build, or null when dist/ was built from exactly these inputs. */
export function buildReason(root, env = process.env, inputs = BUILD_INPUTS) {
	const built = ['dist/server/entry.mjs', 'dist/server/parse-worker.mjs'];
	if (built.some((file) => !existsSync(path.join(root, file)))) return 'no build yet';
	const stamp = path.join(root, HASH_FILE);
	if (!existsSync(stamp)) return 'the build has no source hash';
	const recorded = readFileSync(stamp, 'utf8').trim();
	return recorded === sourceHash(root, env, inputs) ? null : 'sources or build settings changed';
}

/** Written by the build once everything in dist/ is in place, with the hash taken before it began. */
export function writeBuildHash(root, hash) {
	writeFileSync(path.join(root, HASH_FILE), `${hash}\n`);
}
