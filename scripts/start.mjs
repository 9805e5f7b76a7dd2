import './check-node.mjs';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { getRequestListener } from '@hono/node-server';

const root = path.resolve(import.meta.dirname, '..');
process.chdir(root);

/** Builds when there is no build yet or a source file is newer than it. */
function needsBuild() {
	const stamp = path.join(root, 'dist/.build-stamp');
	const built = ['dist/server/entry.mjs', 'dist/server/parse-worker.mjs'];
	if (!existsSync(stamp) || built.some((file) => !existsSync(path.join(root, file)))) return true;
	const builtAt = statSync(stamp).mtimeMs;
	const newest = (target) => {
		const info = statSync(target);
		if (!info.isDirectory()) return info.mtimeMs;
		return Math.max(info.mtimeMs, ...readdirSync(target).map((name) => newest(path.join(target, name))));
	};
	return ['src', 'public', 'astro.config.mjs', 'package-lock.json'].some(
		(item) => existsSync(item) && newest(path.join(root, item)) > builtAt,
	);
}

if (process.env.MAPSTRIDE_SKIP_BUILD !== '1' && needsBuild()) {
	console.log('Building Mapstride…');
	const result = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { stdio: 'inherit' });
	if (result.status !== 0) process.exit(result.status ?? 1);
}

process.env.ASTRO_NODE_AUTOSTART = 'disabled';
process.env.MAPSTRIDE_CLIENT_DIR = path.join(root, 'dist/client');
process.env.MAPSTRIDE_PARSE_WORKER = path.join(root, 'dist/server/parse-worker.mjs');
const { handler } = await import(path.join(root, 'dist/server/entry.mjs'));
const lifecycle = globalThis[Symbol.for('mapstride.lifecycle')];

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
const server = http.createServer((req, res) =>
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

server.listen(port, host, () => {
	const url = runtime.deps.config.publicUrl;
	console.log(`Mapstride is running at ${url} (listening on ${host}:${port})`);
	for (const line of runtime.startupNotes ?? []) console.log(line);
});

let stopping = false;
async function stop(signal) {
	if (stopping) return;
	stopping = true;
	console.log(`${signal} received: finishing requests in flight, then closing the database.`);
	const forced = setTimeout(() => server.closeAllConnections(), 10_000);
	server.closeIdleConnections();
	await new Promise((resolve) => server.close(resolve));
	clearTimeout(forced);
	await lifecycle.shutdown();
	process.exit(0);
}
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
