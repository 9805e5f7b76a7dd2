import './check-node.mjs';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { buildReason } from './build-hash.mjs';

const root = path.resolve(import.meta.dirname, '..');
process.chdir(root);
const startedAt = performance.now();

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

if (process.env.MAPSTRIDE_SKIP_BUILD !== '1') {
	const reason = buildReason(root);
	if (reason) {
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
}

process.env.ASTRO_NODE_AUTOSTART = 'disabled';
process.env.MAPSTRIDE_CLIENT_DIR = path.join(root, 'dist/client');
process.env.MAPSTRIDE_PARSE_WORKER = path.join(root, 'dist/server/parse-worker.mjs');
const { handler } = await import(path.join(root, 'dist/server/entry.mjs'));
const lifecycle = globalThis[Symbol.for('mapstride.lifecycle')];

/** Set once the server exists; a signal before that waits for the database to open, then closes it. */
let server;
let stopping = false;
async function stop(signal) {
	if (stopping) return;
	stopping = true;
	console.log(`${signal} received: finishing requests in flight, then closing the database.`);
	if (server?.listening) {
		const forced = setTimeout(() => server.closeAllConnections(), 10_000);
		server.closeIdleConnections();
		await new Promise((resolve) => server.close(resolve));
		clearTimeout(forced);
	}
	await lifecycle.shutdown();
	process.exit(0);
}
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));

let runtime;
try {
	runtime = await lifecycle.boot();
} catch (error) {
	console.error(`Mapstride could not start: ${error instanceof Error ? error.message : error}`);
	process.exit(1);
}

const port = runtime.deps.config.port;
const host = runtime.deps.config.host;
// Without a `next` callback the adapter hands every request to src/fetch.ts, static files included.
// API calls and map tiles skip the page renderer and go straight to their own apps.
const apiListener = getRequestListener(lifecycle.fetchApi);
const tileListener = getRequestListener(lifecycle.fetchTiles);
server = http.createServer((req, res) =>
	req.url?.startsWith('/api/')
		? apiListener(req, res)
		: req.url?.startsWith('/tiles/')
			? tileListener(req, res)
			: handler(req, res),
);
// Cut clients that dribble headers (slowloris) or never finish a request.
server.headersTimeout = 15_000;
server.requestTimeout = 120_000;
server.keepAliveTimeout = 5_000;

server.on('error', async (error) => {
	console.error(`Mapstride could not listen on ${host}:${port}: ${error.message}`);
	await lifecycle.shutdown();
	process.exit(1);
});

/**
 * One on-demand page is rendered before the address is printed: it loads the page renderer, so the
 * first visitor does not wait for it, and Astro's one-time check of src/fetch.ts (made on the first
 * request it sees) then finds its handlers called instead of warning that they are not.
 */
async function warmUp() {
	const local =
		host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;
	try {
		const response = await fetch(`http://${local}:${port}/error/notfound`);
		await response.arrayBuffer();
	} catch {
		// The server answers real visitors either way.
	}
}

if (!stopping)
	server.listen(port, host, async () => {
		await warmUp();
		if (stopping) return;
		const url = runtime.deps.config.publicUrl;
		const took = ((performance.now() - startedAt) / 1000).toFixed(1);
		console.log(`Mapstride is running at ${url} (listening on ${host}:${port}; ready in ${took} s)`);
		for (const line of runtime.startupNotes ?? []) console.log(line);
	});
