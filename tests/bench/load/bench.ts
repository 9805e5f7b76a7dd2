/**
 * Load benchmark: prints figures, never passes or fails.
 *   npm run bench:load
 * The built product on loopback, driven by autocannon with fixed connections for a fixed time per
 * case: pre-rendered pages, on-demand pages, the route search and routing APIs and an authenticated
 * GPX upload, on PGlite (one process: its data folder may be opened by one process only) and on
 * PostgreSQL (BENCH_DATABASE_URL, emptied first) with one and two processes behind `npm run cluster`.
 * Last, GET /api/health against a bare node:http server answering the same JSON, with and without
 * the headers every API answer carries, in turn: the API's own overhead. Then the mixed scenario
 * (mixed.ts): BENCH_MIXED_MEMBERS members (50) at once over pages, APIs, tiles and uploads for
 * BENCH_MIXED_SECONDS (30), with /api/health asked meanwhile. API_RATE_LIMIT=0 (the operator's switch) keeps the per-caller budget out of the figures.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { buildReason } from '../../../scripts/build-hash.mjs';
import { PASSWORD, signupBody } from '../../api/auth/helpers';
import { linePayload } from '../../api/routes/helpers';
import { callApi } from '../../helpers/app';
import { emptyPostgres } from '../databases.ts';
import { waitUntilUp } from '../server.ts';
import { describeMixed, type Member, type MixedFigures, runMixed } from './mixed.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const PORT = Number(process.env.BENCH_PORT ?? 4811);
const BARE_PORT = PORT + 1;
const MIXED_MEMBERS = Number(process.env.BENCH_MIXED_MEMBERS ?? 50);
const MIXED_SECONDS = Number(process.env.BENCH_MIXED_SECONDS ?? 30);
const base = `http://127.0.0.1:${PORT}`;
// Kept between runs (git-ignored): the routing graphs and map features are imported once.
const dataDir = path.join(root, 'data/bench-load');
const gpx = readFileSync(
	path.join(root, 'tests/fixtures/workouts/gpx/cerknicko-jezero-with-elevations-zero.gpx'),
);
const ANDORRA = { lat: 42.5063, lon: 1.5218 };

/** `thread`: where the embedded database runs (EMBEDDED_DB_THREAD); PostgreSQL is its own server. */
type Setup = { label: string; kind: 'pglite' | 'postgres'; processes: number; thread?: 'worker' | 'main' };
type Session = Member;
type Request = autocannon.Request & { path: string };
type Case = { name: string; request: (session: Session) => Request };

/**
 * The same recording would be refused as a duplicate (409) after the first upload: each request
 * starts its track some seconds earlier, which makes it another workout.
 */
let uploads = 0;
const gpxText = gpx.toString('utf8');
const FIRST_TIME = '<time>2010-08-05T14:23:59Z</time>';
if (!gpxText.includes(FIRST_TIME)) throw new Error('the upload fixture changed; pick another first time');
const uniqueGpx = () =>
	gpxText.replace(
		FIRST_TIME,
		`<time>${new Date(Date.parse('2010-08-05T14:23:59Z') - ++uploads * 1000).toISOString()}</time>`,
	);

const CASES: Case[] = [
	{ name: 'static page /', request: () => ({ method: 'GET', path: '/' }) },
	{ name: 'city page (pre-rendered)', request: () => ({ method: 'GET', path: '/us/pa/harrisburg/' }) },
	{
		name: 'route search API',
		request: () => ({
			method: 'GET',
			path: `/api/v7.1/route/?close_to_location=${ANDORRA.lat},${ANDORRA.lon}&search_radius=20000&limit=20`,
		}),
	},
	{ name: 'route view page', request: (s) => ({ method: 'GET', path: `/routes/view/${s.routeId}/` }) },
	{
		name: 'routing request',
		request: () => ({
			method: 'POST',
			path: '/api/routing/route',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				locations: [ANDORRA, { lat: 42.5106, lon: 1.5366 }],
				costing: 'pedestrian',
			}),
		}),
	},
	{
		name: 'workout upload (GPX, 33 KB)',
		request: (s) => ({
			method: 'POST',
			path: '/api/v7.1/device/file_import/',
			headers: { 'content-type': 'application/octet-stream', authorization: `Bearer ${s.token}` },
			setupRequest: (request) => ({ ...request, body: uniqueGpx() }),
		}),
	},
	{
		name: 'feed page (signed in)',
		request: (s) => ({ method: 'GET', path: '/activity_feed/', headers: { cookie: s.cookie } }),
	},
	{ name: 'GET /api/health', request: () => ({ method: 'GET', path: '/api/health' }) },
];

function ensureBuild() {
	const reason = buildReason(root);
	if (!reason) return;
	console.log(`Building first (${reason}).`);
	const built = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs')], {
		cwd: root,
		stdio: 'inherit',
	});
	if (built.status !== 0) throw new Error('the build failed');
}

function startProduct(setup: Setup, databaseUrl: string | undefined): ChildProcess {
	const { NODE_ENV: _runner, ...inherited } = process.env;
	const env = {
		...inherited,
		// As deployed: React renders with its production build, and no demo world is seeded.
		NODE_ENV: 'production',
		// The checkout is not what this benchmark measures; it runs on the test processor.
		BILLING_TEST_MODE: '1',
		PUBLIC_URL: base,
		SESSION_SECRET: randomBytes(32).toString('hex'),
		PORT: String(PORT),
		HOST: '127.0.0.1',
		DATA_DIR: dataDir,
		LOG_LEVEL: 'warn',
		API_RATE_LIMIT: '0',
		// The members of the mixed scenario sign up from addresses of their own (X-Forwarded-For).
		TRUSTED_PROXY: 'true',
		MAPSTRIDE_SKIP_BUILD: '1',
		CLUSTER_WORKERS: String(setup.processes),
		DATABASE_URL: setup.kind === 'postgres' ? databaseUrl : undefined,
		EMBEDDED_DB_THREAD: setup.thread,
	};
	const script = setup.kind === 'postgres' ? 'scripts/cluster.mjs' : 'scripts/start.mjs';
	return spawn(process.execPath, [path.join(root, script)], {
		cwd: root,
		env,
		stdio: ['ignore', 'ignore', 'inherit'],
	});
}

/**
 * Two bare node:http answers of the same JSON: `/` with nothing but its type and length, and
 * `/same-headers` with every header the API's own answer carries (its security policy, Vary and a
 * fresh request id), so the API's cost can be told from the cost of what it must send.
 */
function startBare(apiHeaders: [string, string][]): ChildProcess {
	const code = `const h=JSON.parse(process.env.API_HEADERS);require('node:http').createServer((q,s)=>{const b='{"status":"ok"}';const same=q.url==='/same-headers';s.writeHead(200,{...(same?Object.fromEntries(h):{}),...(same?{'x-request-id':crypto.randomUUID()}:{}),'content-type':'application/json','content-length':Buffer.byteLength(b)});s.end(b)}).listen(${BARE_PORT},'127.0.0.1')`;
	return spawn(process.execPath, ['-e', code], {
		stdio: 'ignore',
		env: { ...process.env, API_HEADERS: JSON.stringify(apiHeaders) },
	});
}

/** The headers of the API's health answer that every API answer carries. */
async function standingApiHeaders(): Promise<[string, string][]> {
	const response = await fetch(`${base}/api/health`);
	await response.arrayBuffer();
	const perAnswer = new Set([
		'date',
		'connection',
		'keep-alive',
		'content-length',
		'content-type',
		'x-request-id',
	]);
	return [...response.headers].filter(([name]) => !perAnswer.has(name));
}

type Overhead = { api: number; bare: number; bareSameHeaders: number };
const OVERHEAD_ROUNDS = 3;

/**
 * GET /api/health and the two bare answers, in turn, three rounds: the machine's speed drifts by a
 * third over a minute, so one run of each would compare different machines. Medians of req/s.
 */
async function measureOverhead(server: ChildProcess): Promise<Overhead> {
	const bare = startBare(await standingApiHeaders());
	try {
		await waitUntilUp(`http://127.0.0.1:${BARE_PORT}/`, bare);
		const bareUrl = `http://127.0.0.1:${BARE_PORT}`;
		const get = (path: string) => ({ method: 'GET' as const, path });
		await autocannon({ url: `${bareUrl}/same-headers`, connections: 2, duration: 1 });
		const rounds: Overhead[] = [];
		for (let round = 0; round < OVERHEAD_ROUNDS; round++) {
			rounds.push({
				api: (await measure(get('/api/health'), server)).rps,
				bare: (await measure(get('/'), bare, bareUrl)).rps,
				bareSameHeaders: (await measure(get('/same-headers'), bare, bareUrl)).rps,
			});
		}
		const median = (key: keyof Overhead) => rounds.map((r) => r[key]).sort((a, b) => a - b)[1];
		return { api: median('api'), bare: median('bare'), bareSameHeaders: median('bareSameHeaders') };
	} finally {
		await stop(bare);
	}
}

/** The server process and, behind the cluster primary, its workers. */
function processTree(pid: number): number[] {
	const children = readdirSync('/proc')
		.filter((name) => /^\d+$/.test(name))
		.filter((name) => {
			try {
				return readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]?.split(' ')[1] === String(pid);
			} catch {
				return false;
			}
		})
		.map(Number);
	return [pid, ...children.flatMap(processTree)];
}

function rssMb(pids: number[]): number {
	let kb = 0;
	for (const pid of pids) {
		try {
			kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
		} catch {
			// gone
		}
	}
	return kb / 1024;
}

type Figures = { rps: number; p50: number; p99: number; failed: number; statuses: string; rss: number };

async function measure(request: Request, server: ChildProcess | null, url = base): Promise<Figures> {
	let peak = 0;
	const sample = () => {
		if (server?.pid) peak = Math.max(peak, rssMb(processTree(server.pid)));
	};
	const timer = setInterval(sample, 500);
	const { path: requestPath, ...rest } = request;
	const result = await autocannon({
		url: `${url}${requestPath}`,
		connections: CONNECTIONS,
		duration: SECONDS,
		requests: [{ ...rest, path: requestPath }],
	});
	clearInterval(timer);
	sample();
	// Which answers other than 2xx came back, so a failure can be told from a refusal.
	const statuses = Object.entries(result.statusCodeStats ?? {})
		.filter(([code]) => !code.startsWith('2'))
		.map(([code, { count }]) => `${code}×${count}`)
		.concat(result.errors ? [`errors×${result.errors}`] : [])
		.join(' ');
	return {
		rps: result.requests.average,
		p50: result.latency.p50,
		p99: result.latency.p99,
		failed: result.errors + result.timeouts + result.non2xx,
		statuses,
		rss: peak,
	};
}

/** A new member with a public route in Andorra, signed in both ways: bearer token and session cookie. */
async function signUpMember(): Promise<Member> {
	const target = { request: (input: string, init?: RequestInit) => fetch(`${base}${input}`, init) };
	const email = `load.${Date.now()}.${++members}@example.test`;
	// Each member signs up from an address of their own, as members do: one address has a budget of signups.
	const signup = await callApi(target, 'POST', '/api/auth/signup', {
		headers: { 'x-forwarded-for': `10.0.${members >> 8}.${members & 255}` },
		body: signupBody({ email, consents: { terms_of_use: true, privacy_policy: true } }),
	});
	if (signup.status !== 201) throw new Error(`signup answered ${signup.status}: ${signup.text}`);
	const login = await callApi(target, 'POST', '/api/auth/login', { body: { email, password: PASSWORD } });
	if (login.status !== 200) throw new Error(`login answered ${login.status}`);
	const cookie = login.headers
		.getSetCookie()
		.map((line) => line.split(';')[0])
		.join('; ');
	const token = login.json.access_token as string;
	const route = await callApi(target, 'POST', '/api/v7.1/route/', {
		token,
		body: linePayload('Load loop', { lat: ANDORRA.lat, lng: ANDORRA.lon, privacy: 3 }),
	});
	if (route.status !== 201) throw new Error(`route answered ${route.status}`);
	return { token, cookie, userId: login.json.user.id as number, routeId: route.json.id };
}
let members = 0;

/** One member for the single cases, once the routing graphs, loaded after the start, answer. */
async function prepare(): Promise<Session> {
	const member = await signUpMember();
	const deadline = Date.now() + 240_000;
	while (Date.now() < deadline) {
		const routed = await fetch(`${base}/api/routing/locate`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ locations: [ANDORRA], costing: 'pedestrian' }),
		});
		await routed.arrayBuffer();
		if (routed.ok) break;
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}
	return member;
}

async function stop(child: ChildProcess) {
	if (child.exitCode !== null) return;
	const exited = new Promise((resolve) => child.once('exit', resolve));
	child.kill('SIGTERM');
	await exited;
}

function describeOverhead({ api, bare, bareSameHeaders }: Overhead): string {
	const share = (of: number) => `${fmt((api / of) * 100, 1)} %`;
	return `API ${fmt(api)} req/s; bare ${fmt(bare)} req/s (the API answers ${share(bare)} of it); bare with the API's headers ${fmt(bareSameHeaders)} req/s (${share(bareSameHeaders)})`;
}

const fmt = (n: number, digits = 0) =>
	n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function main() {
	ensureBuild();
	const databaseUrl = process.env.BENCH_DATABASE_URL;
	const setups: Setup[] = [
		{ label: 'PGlite, own thread', kind: 'pglite', processes: 1, thread: 'worker' },
		{ label: 'PGlite, server thread', kind: 'pglite', processes: 1, thread: 'main' },
	];
	if (databaseUrl)
		setups.push(
			{ label: 'PostgreSQL, 1 process', kind: 'postgres', processes: 1 },
			{ label: 'PostgreSQL, 2 processes', kind: 'postgres', processes: 2 },
		);
	const results = new Map<string, Map<string, Figures>>();
	const overheadBySetup = new Map<string, Overhead>();
	const mixedBySetup = new Map<string, MixedFigures>();
	for (const setup of setups) {
		if (setup.kind === 'postgres' && setup.processes === 1) await emptyPostgres(String(databaseUrl));
		console.log(`\n${setup.label}: starting…`);
		const server = startProduct(setup, databaseUrl);
		const byCase = new Map<string, Figures>();
		results.set(setup.label, byCase);
		try {
			await waitUntilUp(`${base}/api/health/ready`, server);
			const session = await prepare();
			for (const item of CASES) {
				const request = item.request(session);
				// One second of warm-up so JIT and first-request work do not count.
				await autocannon({
					url: `${base}${request.path}`,
					connections: 2,
					duration: 1,
					requests: [request],
				});
				const figures = await measure(request, server);
				byCase.set(item.name, figures);
				console.log(
					`  ${item.name.padEnd(30)} ${fmt(figures.rps).padStart(6)} req/s  p50 ${figures.p50} ms  p99 ${figures.p99} ms  failed ${figures.failed}${figures.statuses ? ` (${figures.statuses})` : ''}  RSS ${fmt(figures.rss)} MB`,
				);
			}
			const overhead = await measureOverhead(server);
			overheadBySetup.set(setup.label, overhead);
			console.log(`  ${describeOverhead(overhead)}`);
			if (MIXED_MEMBERS > 0) {
				const crowd = [session];
				while (crowd.length < MIXED_MEMBERS) crowd.push(await signUpMember());
				const mixed = await runMixed(base, crowd, MIXED_SECONDS, uniqueGpx);
				mixedBySetup.set(setup.label, mixed);
				for (const line of describeMixed('  mixed', mixed)) console.log(line);
			}
		} finally {
			await stop(server);
		}
	}

	console.log(
		`\nLoad on loopback: ${CONNECTIONS} connections, ${SECONDS} s per case after 1 s of warm-up; RSS is the peak of all server processes.`,
	);
	console.log(
		'PGlite with 2 processes: not possible; its data folder is locked to one process (npm run cluster refuses it).',
	);
	const labels = [...results.keys()];
	console.log(`\n${'case'.padEnd(30)} ${labels.map((label) => label.padStart(44)).join('')}`);
	console.log(
		`${''.padEnd(30)} ${labels.map(() => 'req/s  p50/p99 ms  failed  RSS MB'.padStart(44)).join('')}`,
	);
	for (const item of CASES) {
		const cells = labels.map((label) => {
			const f = results.get(label)?.get(item.name);
			if (!f) return '—'.padStart(44);
			return `${fmt(f.rps).padStart(5)}  ${`${f.p50}/${f.p99}`.padStart(10)}  ${String(f.failed).padStart(6)}  ${fmt(f.rss).padStart(6)}`.padStart(
				44,
			);
		});
		console.log(`${item.name.padEnd(30)} ${cells.join('')}`);
	}
	console.log(
		`\nThe API's own overhead: GET /api/health against bare node:http answering the same JSON, in turn, medians of ${OVERHEAD_ROUNDS} rounds:`,
	);
	for (const label of labels) {
		const overhead = overheadBySetup.get(label);
		if (overhead) console.log(`  ${label}: ${describeOverhead(overhead)}`);
	}
	for (const [label, mixed] of mixedBySetup) {
		console.log('');
		for (const line of describeMixed(`Mixed, ${label}`, mixed)) console.log(line);
	}
	console.log(
		`Machine load average (1, 5, 15 min) at the end: ${loadavg()
			.map((n) => n.toFixed(1))
			.join(', ')}`,
	);
}

await main();
