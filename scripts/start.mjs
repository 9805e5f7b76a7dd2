import './check-node.mjs';
import cluster from 'node:cluster';
import http from 'node:http';
import path from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { ensureBuilt } from './ensure-build.mjs';
import { relaunchWithWasmFlags } from './wasm-baseline.mjs';

relaunchWithWasmFlags();

const root = path.resolve(import.meta.dirname, '..');
process.chdir(root);
const startedAt = performance.now();

await ensureBuilt(root);

process.env.ASTRO_NODE_AUTOSTART = 'disabled';
process.env.MAPSTRIDE_CLIENT_DIR = path.join(root, 'dist/client');
process.env.MAPSTRIDE_PARSE_WORKER = path.join(root, 'dist/server/parse-worker.mjs');
// Before the pages load React: they render with its production build, NODE_ENV or not.
await import('./react-production.mjs');
const { handler } = await import(path.join(root, 'dist/server/entry.mjs'));
const lifecycle = globalThis[Symbol.for('mapstride.lifecycle')];

/** Set once the server exists; a signal before that waits for the database to open, then closes it. */
let server;
let stopping = false;
/** Answers in progress, so a stop can tell each one to close its connection once it is sent. */
const inFlight = new Set();

/**
 * A kept-alive connection would outlive the server's stop: Node's close() leaves a connection open
 * once its answer is sent, and a client may send its next request there. So every answer from now
 * on says `Connection: close`, and one whose headers are already out ends its connection when done.
 */
function closeAfterAnswer(res) {
	if (!res.headersSent) res.shouldKeepAlive = false;
	else {
		const socket = res.socket;
		res.once('finish', () => socket?.end());
	}
}
async function stop(signal) {
	if (stopping) return;
	stopping = true;
	console.log(`${signal} received: finishing requests in flight, then closing the database.`);
	for (const res of inFlight) closeAfterAnswer(res);
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
// Behind `npm run cluster` every answer names the process that gave it, so the spread can be seen.
const servedBy = cluster.isWorker ? String(cluster.worker.id) : null;
// Timeouts are checked every 5 s (Node's default is 30 s), so a client that dribbles its headers is cut soon
// after headersTimeout rather than up to half a minute later.
server = http.createServer({ connectionsCheckingInterval: 5_000 }, (req, res) => {
	if (servedBy) res.setHeader('X-Served-By', servedBy);
	if (stopping) closeAfterAnswer(res);
	else {
		inFlight.add(res);
		res.once('close', () => inFlight.delete(res));
	}
	return req.url?.startsWith('/api/')
		? apiListener(req, res)
		: req.url?.startsWith('/tiles/')
			? tileListener(req, res)
			: handler(req, res);
});
// Cut clients that dribble headers (slowloris) or never finish a request.
server.headersTimeout = 15_000;
server.requestTimeout = 120_000;
server.keepAliveTimeout = 5_000;

/**
 * Bodies still arriving, with when a piece last came. A body that stops for BODY_STALL_SECONDS is answered
 * 408 the way Node answers its own timeouts (written on the socket, which then closes), so a client that
 * sends half a body and waits holds no connection for two minutes. The parser hands each piece to the
 * request's `push` straight from the socket (the socket's own byte count and events stay still), so that
 * is where arrival is seen.
 */
const arriving = new Map();
const stallMs = runtime.deps.config.bodyStallSeconds * 1000;
let lastTick = Date.now();
setInterval(() => {
	const now = Date.now();
	// Time this process spent busy (a long render, a start under load) is not the client's: pieces
	// waiting to be read meanwhile would otherwise count as a stall.
	const busyMs = Math.max(0, now - lastTick - 1_000);
	lastTick = now;
	for (const [req, seen] of arriving) {
		seen.at += busyMs;
		if (req.complete || req.socket.destroyed) arriving.delete(req);
		else if (now - seen.at >= stallMs) {
			arriving.delete(req);
			if (!seen.res.headersSent)
				req.socket.end('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
			req.socket.destroySoon();
		}
	}
}, 1_000).unref();
server.on('request', (req, res) => {
	const hasBody =
		Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
	if (!hasBody || req.complete) return;
	const seen = { res, at: Date.now() };
	const push = req.push;
	req.push = function pushAndNote(chunk, encoding) {
		seen.at = Date.now();
		return push.call(this, chunk, encoding);
	};
	arriving.set(req, seen);
	res.once('close', () => arriving.delete(req));
});

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
