import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { buildReason } from './build-hash.mjs';

/**
 * Runs a step in a process group of its own, so that SIGTERM or SIGINT received meanwhile stops
 * the step and everything it started, not only this process. Resolves to the exit code.
 */
function runStep(command, args, env = process.env) {
	const child = spawn(command, args, { stdio: 'inherit', detached: true, env });
	const forward = (signal) => {
		try {
			process.kill(-child.pid, signal);
		} catch {
			// The step has already finished.
		}
	};
	process.on('SIGTERM', forward);
	process.on('SIGINT', forward);
	return new Promise((resolve) =>
		child.on('exit', (code, signal) => {
			process.off('SIGTERM', forward);
			process.off('SIGINT', forward);
			if (signal === 'SIGTERM' || signal === 'SIGINT') process.exit(1);
			resolve(code ?? 1);
		}),
	);
}

/**
 * The embedded database folder a first start has to create (initdb and migrations take several
 * seconds), or null when there is nothing to create or PostgreSQL is used.
 */
function newEmbeddedDatabase() {
	const url = process.env.DATABASE_URL;
	if (url && !url.startsWith('file://')) return null;
	const folder = url ? url.slice('file://'.length) : path.join(process.env.DATA_DIR || 'data', 'db');
	return existsSync(folder) ? null : folder;
}

/**
 * Builds when the sources changed since the last build (or there is none), unless
 * MAPSTRIDE_SKIP_BUILD=1. Exits the process when the build fails.
 */
export async function ensureBuilt(root) {
	if (process.env.MAPSTRIDE_SKIP_BUILD === '1') return;
	const reason = buildReason(root);
	if (!reason) return;
	console.log(`Building Mapstride (${reason}); a first build takes a minute or two.`);
	const tsx = path.join(root, 'node_modules/.bin/tsx');
	const prepare = Boolean(newEmbeddedDatabase()) && existsSync(tsx);
	// The build bakes routes into city pages from an existing database; a new one has none, and
	// the build must not open it while the other process creates it.
	const [built, prepared] = await Promise.all([
		runStep(process.execPath, [path.join(root, 'scripts/build.mjs')], {
			...process.env,
			...(prepare ? { MAPSTRIDE_BUILD_WITHOUT_DB: '1' } : {}),
		}),
		prepare ? runStep(tsx, [path.join(root, 'scripts/prepare-db.ts')]) : Promise.resolve(0),
	]);
	if (built !== 0) process.exit(built);
	// A failed preparation is not fatal: the server creates the database itself and says why not.
	if (prepared !== 0) console.warn('Preparing the database alongside the build failed; retrying now.');
}
