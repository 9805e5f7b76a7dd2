/**
 * Memory as an operator's machine sees it: the built server on the embedded default (PGlite, demo
 * world), measured through the inspector so nothing in the product is there for the benchmark.
 *
 *   npm run bench -- memory            (BENCH_SECONDS of mixed traffic, default 600)
 *
 * Prints, for a first start on an empty data folder and a restart on the same folder: the peak
 * resident memory while starting (the kernel's high-water mark), the idle figure after a garbage
 * collection, and the figure after the mixed traffic, each split into V8's heap, buffers and what
 * lies outside both (PGlite's WebAssembly memory, native code); then the modules holding the most
 * live heap, from a sampling heap profile kept since the first line ran. With BENCH_DATABASE_URL,
 * last, the idle figure of the same server on PostgreSQL (that database is emptied first). Figures only.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { wasmFlags } from '../../../scripts/wasm-baseline.mjs';
import { lonLatToTile } from '../../../src/lib/tiles/tile-math.ts';
import { emptyPostgres } from '../databases.ts';
import { loadAverage as load } from '../figures.ts';
import { waitUntilUp } from '../server.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 600);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const PORT = Number(process.env.BENCH_PORT ?? 4851);
const base = `http://127.0.0.1:${PORT}`;
const ANDORRA = { lat: 42.5063, lon: 1.5218 };
const PLACE_QUERIES = ['har', 'andorra', 'new y', 'san', 'münchen', 'lon', 'ber', 'ljubl', 'pa', 'st'];

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

/** A Chrome DevTools Protocol session with the server's inspector. */
class Inspector {
	private next = 1;
	private waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
	private constructor(private socket: WebSocket) {
		socket.addEventListener('message', (event) => {
			const message = JSON.parse(String(event.data)) as {
				id?: number;
				result?: unknown;
				error?: { message: string };
			};
			const pending = message.id === undefined ? undefined : this.waiting.get(message.id);
			if (!pending || message.id === undefined) return;
			this.waiting.delete(message.id);
			if (message.error) pending.reject(new Error(message.error.message));
			else pending.resolve(message.result);
		});
	}

	static async connect(url: string): Promise<Inspector> {
		const socket = new WebSocket(url);
		await new Promise((resolve, reject) => {
			socket.addEventListener('open', resolve, { once: true });
			socket.addEventListener('error', reject, { once: true });
		});
		return new Inspector(socket);
	}

	send<T = unknown>(method: string, params: Record<string, unknown> = {}): Promise<T> {
		const id = this.next++;
		this.socket.send(JSON.stringify({ id, method, params }));
		return new Promise((resolve, reject) =>
			this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject }),
		);
	}

	async evaluate<T>(expression: string): Promise<T> {
		const { result } = await this.send<{ result: { value: string } }>('Runtime.evaluate', {
			expression: `JSON.stringify(${expression})`,
			returnByValue: true,
		});
		return JSON.parse(result.value) as T;
	}

	close() {
		this.socket.close();
	}
}

interface Started {
	server: ChildProcess;
	inspector: Inspector;
	readyMs: number;
}

/** Starts the server paused on its first line, so the heap profile sees every allocation. */
async function start(dataDir: string, extraEnv: Record<string, string> = {}): Promise<Started> {
	const { NODE_ENV: _runner, ...inherited } = process.env;
	// With the flags the server would relaunch itself with, so the inspector stays attached.
	const server = spawn(
		process.execPath,
		[
			...wasmFlags({ ...inherited, ...extraEnv }),
			'--inspect-brk=127.0.0.1:0',
			path.join(root, 'scripts/start.mjs'),
		],
		{
			cwd: root,
			env: {
				...inherited,
				PORT: String(PORT),
				HOST: '127.0.0.1',
				DATA_DIR: dataDir,
				LOG_LEVEL: 'warn',
				API_RATE_LIMIT: '0',
				...extraEnv,
			},
			stdio: ['ignore', 'ignore', 'pipe'],
		},
	);
	const url = await new Promise<string>((resolve, reject) => {
		let seen = '';
		server.stderr?.on('data', (chunk: Buffer) => {
			seen += chunk.toString();
			const found = /ws:\/\/\S+/.exec(seen);
			if (found) resolve(found[0]);
		});
		server.once('exit', (code) => reject(new Error(`server exited with ${code}: ${seen}`)));
	});
	server.stderr?.on('data', (chunk: Buffer) => {
		const text = chunk.toString();
		if (!/Debugger|inspector|For help/.test(text)) process.stderr.write(text);
	});
	const inspector = await Inspector.connect(url);
	await inspector.send('HeapProfiler.enable');
	await inspector.send('HeapProfiler.startSampling', { samplingInterval: 64 * 1024 });
	await inspector.send('Runtime.runIfWaitingForDebugger');
	const started = performance.now();
	await waitUntilUp(`${base}/api/health/ready`, server);
	return { server, inspector, readyMs: performance.now() - started };
}

function status(pid: number, field: 'VmRSS' | 'VmHWM'): number {
	const kb = new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
	return Number(kb ?? 0) * 1024;
}

interface Usage {
	rss: number;
	heapTotal: number;
	heapUsed: number;
	external: number;
	arrayBuffers: number;
}

/** Resident memory after a full garbage collection, split the way Node accounts for it. */
async function settle({ inspector }: Started): Promise<Usage> {
	await new Promise((resolve) => setTimeout(resolve, 5_000));
	await inspector.send('HeapProfiler.collectGarbage');
	return inspector.evaluate<Usage>('process.memoryUsage()');
}

function describeUsage(usage: Usage): string {
	const outside = usage.rss - usage.heapTotal - usage.external;
	return `RSS ${mb(usage.rss)} = V8 heap ${mb(usage.heapTotal)} (${mb(usage.heapUsed)} live) + buffers ${mb(usage.external)} + outside both ${mb(outside)}`;
}

interface ProfileNode {
	callFrame: { url: string; functionName: string };
	selfSize: number;
	children: ProfileNode[];
}

/** Who holds the live heap: each sampled allocation is charged to the nearest module on its stack. */
function moduleOf(url: string): string | null {
	if (!url || url.startsWith('node:')) return null;
	const local = url.replace(/^file:\/\//, '');
	const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(local);
	if (inPackage) return inPackage[1];
	return path.relative(root, local);
}

async function topConsumers({ inspector }: Started, count = 12): Promise<string[]> {
	const { profile } = await inspector.send<{ profile: { head: ProfileNode } }>(
		'HeapProfiler.getSamplingProfile',
	);
	const byModule = new Map<string, number>();
	const visit = (node: ProfileNode, inherited: string) => {
		const owner = moduleOf(node.callFrame.url) ?? inherited;
		byModule.set(owner, (byModule.get(owner) ?? 0) + node.selfSize);
		for (const child of node.children) visit(child, owner);
	};
	visit(profile.head, 'node itself');
	return [...byModule]
		.filter(([, bytes]) => bytes > 0)
		.sort((a, b) => b[1] - a[1])
		.slice(0, count)
		.map(([owner, bytes]) => `${mb(bytes).padStart(7)}  ${owner}`);
}

async function stop({ server, inspector }: Started) {
	inspector.close();
	if (server.exitCode !== null) return;
	const exited = new Promise((resolve) => server.once('exit', resolve));
	server.kill('SIGTERM');
	await exited;
}

/** The demo member, signed in both ways, and one of their workouts. */
async function signIn() {
	const login = await fetch(`${base}/api/auth/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', origin: base },
		body: JSON.stringify({ email: 'demo@mapstride.example', password: 'stride-demo-2026' }),
	});
	if (!login.ok) throw new Error(`the demo member could not sign in: ${login.status}`);
	const { access_token: token } = (await login.json()) as { access_token: string };
	const cookie = login.headers
		.getSetCookie()
		.map((line) => line.split(';')[0])
		.join('; ');
	const auth = { authorization: `Bearer ${token}` };
	const self = (await (await fetch(`${base}/api/v7.1/user/self/`, { headers: auth })).json()) as {
		id: number;
	};
	const list = (await (
		await fetch(`${base}/api/v7.1/workout/?user=${self.id}&limit=1`, { headers: auth })
	).json()) as {
		_embedded: { workouts: { _links: { self: { id: string }[] } }[] };
	};
	const workoutId = list._embedded.workouts[0]._links.self[0].id;
	return { token, cookie, userId: self.id, workoutId };
}

let uploads = 0;
const gpx = readFileSync(
	path.join(root, 'tests/fixtures/workouts/gpx/cerknicko-jezero-with-elevations-zero.gpx'),
	'utf8',
);
const FIRST_TIME = '<time>2010-08-05T14:23:59Z</time>';

/** What members do at once: their pages, the feed, searches, maps and uploads, in turn on every connection. */
function mixedRequests(session: Awaited<ReturnType<typeof signIn>>): autocannon.Request[] {
	const page = (pathname: string) => ({
		method: 'GET' as const,
		path: pathname,
		headers: { cookie: session.cookie },
	});
	const api = (pathname: string) => ({
		method: 'GET' as const,
		path: pathname,
		headers: { authorization: `Bearer ${session.token}` },
	});
	const tile = lonLatToTile(ANDORRA.lon, ANDORRA.lat, 14);
	let tiles = 0;
	let places = 0;
	return [
		page('/dashboard/'),
		page('/activity_feed/'),
		page('/workout/stats/'),
		page(`/workout/${session.workoutId}/`),
		api(`/api/v7.1/workout/?user=${session.userId}&limit=20`),
		api('/api/v7.1/activity_story/?limit=20'),
		api(`/api/v7.1/route/?close_to_location=${ANDORRA.lat},${ANDORRA.lon}&search_radius=20000&limit=20`),
		{
			method: 'GET',
			path: '/api/geocode/search?q=har',
			setupRequest: (request) => ({
				...request,
				path: `/api/geocode/search?q=${encodeURIComponent(PLACE_QUERIES[places++ % PLACE_QUERIES.length])}`,
			}),
		},
		{
			method: 'GET',
			path: '/tiles/14/0/0.png',
			setupRequest: (request) => {
				const step = tiles++ % 64;
				return {
					...request,
					path: `/tiles/14/${Math.floor(tile.x) - 4 + (step % 8)}/${Math.floor(tile.y) - 4 + Math.floor(step / 8)}.png`,
				};
			},
		},
		{
			method: 'POST',
			path: '/api/v7.1/device/file_import/',
			headers: { 'content-type': 'application/octet-stream', authorization: `Bearer ${session.token}` },
			setupRequest: (request) => ({
				...request,
				body: gpx.replace(
					FIRST_TIME,
					`<time>${new Date(Date.parse('2010-08-05T14:23:59Z') - ++uploads * 1000).toISOString()}</time>`,
				),
			}),
		},
	];
}

/**
 * The same server on PostgreSQL (BENCH_DATABASE_URL, emptied first): the first start migrates the
 * empty database, the restart is what an operator's server holds from then on. No demo world.
 */
async function postgresIdle(databaseUrl: string) {
	await emptyPostgres(databaseUrl);
	const dataDir = mkdtempSync(path.join(tmpdir(), 'mapstride-bench-memory-pg-'));
	try {
		const env = { DATABASE_URL: databaseUrl };
		await stop(await start(dataDir, env));
		const server = await start(dataDir, env);
		const peak = status(server.server.pid ?? 0, 'VmHWM');
		const idle = await settle(server);
		console.log(
			`PostgreSQL, restart on a migrated database: ready in ${(server.readyMs / 1000).toFixed(1)} s, peak ${mb(peak)}; idle ${describeUsage(idle)}`,
		);
		await stop(server);
	} finally {
		rmSync(dataDir, { recursive: true, force: true });
	}
}

async function main() {
	if (!gpx.includes(FIRST_TIME)) throw new Error('the upload fixture changed; pick another first time');
	const dataDir = mkdtempSync(path.join(tmpdir(), 'mapstride-bench-memory-'));
	try {
		console.log(`load average before: ${load()}`);
		const first = await start(dataDir);
		const firstPeak = status(first.server.pid ?? 0, 'VmHWM');
		const firstIdle = await settle(first);
		console.log(
			`first start (empty folder: demo world seeded, regions imported): ready in ${(first.readyMs / 1000).toFixed(1)} s, peak ${mb(firstPeak)}; idle ${describeUsage(firstIdle)}`,
		);
		await stop(first);

		const again = await start(dataDir);
		const peak = status(again.server.pid ?? 0, 'VmHWM');
		const idle = await settle(again);
		console.log(
			`restart on that folder: ready in ${(again.readyMs / 1000).toFixed(1)} s, peak ${mb(peak)}; idle ${describeUsage(idle)}`,
		);
		console.log('live heap by module at idle:');
		for (const line of await topConsumers(again)) console.log(`  ${line}`);

		const session = await signIn();
		const result = await autocannon({
			url: base,
			connections: CONNECTIONS,
			duration: SECONDS,
			// Uploads by one member queue behind each other; give them time rather than count them as lost.
			timeout: 60,
			requests: mixedRequests(session),
		});
		const answers = Object.entries(result.statusCodeStats ?? {})
			.map(([code, { count }]) => `${code}×${count}`)
			.concat(result.errors ? [`${result.errors} errors (${result.timeouts} timed out)`] : [])
			.join(', ');
		const loadedPeak = status(again.server.pid ?? 0, 'VmHWM');
		const rssRightAfter = status(again.server.pid ?? 0, 'VmRSS');
		const after = await settle(again);
		console.log(
			`after ${SECONDS} s of mixed traffic (${CONNECTIONS} connections, ${result.requests.average.toFixed(1)} req/s, answers ${answers}): RSS right after ${mb(rssRightAfter)}, peak ${mb(loadedPeak)}; settled ${describeUsage(after)}`,
		);
		console.log('live heap by module after the traffic:');
		for (const line of await topConsumers(again)) console.log(`  ${line}`);
		await stop(again);
		const databaseUrl = process.env.BENCH_DATABASE_URL;
		if (databaseUrl) await postgresIdle(databaseUrl);
		console.log(`load average after: ${load()}`);
	} finally {
		rmSync(dataDir, { recursive: true, force: true });
	}
}

await main();
