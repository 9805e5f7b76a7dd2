/**
 * Lighthouse CI on the pre-rendered pages and on the pages members live on: starts the product with
 * `npm start` on a free port and a throw-away data folder, audits the public pages, then the
 * signed-in ones (each after a fresh sign-in as the demo member, tests/e2e/lighthouse-sign-in.cjs),
 * checks every budget in lighthouserc.json, then stops it.
 * LHCI_BASE_URL=http://host:port audits a server that is already running instead.
 *
 * Lighthouse refuses to audit a document answered with a 4xx status (ERRORED_DOCUMENT_REQUEST),
 * so the not-found page is audited at /404.html, the same pre-rendered document every unmatched
 * path answers with 404 (the end-to-end tests check that status).
 *
 * Chromium runs with one raster thread (lighthouserc.json): on a two-core host its raster workers
 * otherwise take the core the page's main thread needs, which a phone's eight cores never do; the
 * static home page measured 100–180 ms of blocking time with the default and about 50 ms with one.
 *
 * Each run starts from an empty .lighthouseci/ and ends with a table of the median run's scores and
 * script bytes per page (LHCI_TABLE=0 leaves the table to the caller, as `npm test` does).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LHCI_DIR, lighthouseTable } from './lighthouse-summary.mjs';

const DEMO_LOGIN = { email: 'demo@mapstride.example', password: 'stride-demo-2026' };

// Location pages get a 30 KB script budget (lighthouserc.json assertMatrix); the rest 14 KB transferred.
const PAGES = [
	'/',
	'/mvp',
	'/training-plans/couch-to-5k/',
	'/train/landing/',
	'/partner/freeletics',
	'/mobile/marriott_routes/location_error',
	'/404.html',
	'/us/',
	'/us/pa/',
	'/us/pa/harrisburg/',
];
const root = path.resolve(import.meta.dirname, '../..');

function findFreePort() {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
}

async function waitForServer(url, child, timeoutMs) {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (child.exitCode !== null) throw new Error(`npm start exited with code ${child.exitCode}`);
		try {
			const response = await fetch(url);
			if (response.ok) return;
		} catch {
			// Not listening yet.
		}
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

function run(command, args, options) {
	return new Promise((resolve) => {
		const child = spawn(command, args, { stdio: 'inherit', ...options });
		child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
	});
}

/** The demo member's session and access token, from the API sign-in. */
async function signInDemo(base) {
	const answer = await fetch(`${base}/api/auth/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(DEMO_LOGIN),
	});
	if (!answer.ok) throw new Error(`The demo member could not sign in: ${answer.status}`);
	return answer.json();
}

/**
 * The pages members live on, signed in as the demo member: the dashboard, stats, the feed, their
 * newest workout and a friend's profile, whose ids are read from the API as an app would.
 */
async function signedInPages(base) {
	const { access_token: token, user } = await signInDemo(base);
	const read = async (apiPath) => {
		const answer = await fetch(`${base}/api${apiPath}`, { headers: { authorization: `Bearer ${token}` } });
		if (!answer.ok) throw new Error(`${apiPath} answered ${answer.status}`);
		return answer.json();
	};
	const workouts = await read(`/v7.1/workout/?user=${user.id}&limit=1`);
	const friends = await read(`/v7.1/friendship/?from_user=${user.id}&status=active`);
	const workoutId = workouts._embedded.workouts[0]?.id;
	const friendId = friends._embedded.friendships[0]?._links.to_user[0].id;
	if (!workoutId || !friendId) throw new Error('The demo member has no workout or no friend to audit');
	return [
		'/dashboard/',
		'/workout/stats/',
		'/activity_feed/',
		`/workout/${workoutId}/`,
		`/profile/${friendId}/activity_feed`,
	];
}

/**
 * Runs per signed-in page. Console errors and small targets must be absent from every run. Their
 * blocking time and performance score are reported against the goal from the best run, as a warning
 * (lighthouserc.json): on a shared two-core host even the static home page, with 13 KB of script,
 * measures 100–180 ms of blocking time in a bad hour, so a gate on it would judge the host, not the
 * page. A busy host only ever adds time, so the least disturbed run is the closest to the page's cost.
 */
const SIGNED_IN_RUNS = 3;

/** The pages in turn, SIGNED_IN_RUNS rounds: a busy minute on the host falls on one run of several pages, not on every run of one. */
function signedInRuns(pages) {
	return Array.from({ length: SIGNED_IN_RUNS }, () => pages).flat();
}

/**
 * lighthouserc.json with the sign-in script: Lighthouse CI then drives Chromium through Puppeteer,
 * which takes Chromium's flags as launch arguments instead of chromeFlags.
 */
function writeSignedInConfig(config, chromePath) {
	const rc = JSON.parse(readFileSync(config, 'utf8'));
	const { chromeFlags, ...settings } = rc.ci.collect.settings;
	rc.ci.collect = {
		...rc.ci.collect,
		// One run per listed address: the pages are listed SIGNED_IN_RUNS times over (signedInRuns), and
		// Lighthouse CI runs the sign-in script once per listed address, so every run starts signed in
		// afresh instead of on a session an earlier run's page may have rotated.
		numberOfRuns: 1,
		settings,
		chromePath,
		puppeteerScript: 'tests/e2e/lighthouse-sign-in.cjs',
		puppeteerLaunchOptions: { args: chromeFlags.split(' ').filter((flag) => !flag.startsWith('--headless')) },
	};
	mkdirSync(path.join(root, LHCI_DIR), { recursive: true });
	const file = path.join(root, LHCI_DIR, 'signed-in-rc.json');
	writeFileSync(file, JSON.stringify(rc));
	return file;
}

let server;
let dataDir;
let baseUrl = process.env.LHCI_BASE_URL?.replace(/\/$/, '');
const stopServer = () => {
	// The launcher runs in its own process group so the build and server go with it.
	if (server && server.exitCode === null) {
		try {
			process.kill(-server.pid, 'SIGTERM');
		} catch {
			// Already gone.
		}
	}
};
process.on('SIGINT', () => {
	stopServer();
	process.exit(130);
});

let status = 1;
// Reports of earlier runs would pile up and could be mistaken for this run's.
rmSync(path.join(root, '.lighthouseci'), { recursive: true, force: true });
try {
	if (!baseUrl) {
		const port = await findFreePort();
		baseUrl = `http://127.0.0.1:${port}`;
		dataDir = mkdtempSync(path.join(tmpdir(), 'mapstride-lhci-'));
		server = spawn('npm', ['start'], {
			cwd: root,
			detached: true,
			stdio: ['ignore', 'inherit', 'inherit'],
			env: {
				...process.env,
				PORT: String(port),
				HOST: '127.0.0.1',
				DATA_DIR: dataDir,
				PUBLIC_URL: baseUrl,
				// A test-only secret: `astro build` runs with NODE_ENV=production, where the default is refused.
				SESSION_SECRET: process.env.SESSION_SECRET ?? 'lhci-only-session-secret-not-for-production-000',
				ASTRO_TELEMETRY_DISABLED: '1',
			},
		});
		await waitForServer(`${baseUrl}/`, server, 240_000);
		// A first start builds the routing graphs and the base map's features after it starts listening;
		// these answers wait for both, so no audited page load shares the CPU with that work.
		await waitForServer(`${baseUrl}/tiles/regions.json`, server, 240_000);
		await waitForServer(`${baseUrl}/api/_api/search_for_city/?term=harrisburg`, server, 240_000);
	}
	const lhci = path.join(root, 'node_modules/.bin/lhci');
	const chromePath = process.env.CHROME_PATH || '/usr/bin/chromium';
	const options = { cwd: root, env: { ...process.env, CHROME_PATH: chromePath } };
	const config = path.join(root, 'lighthouserc.json');
	status = await run(
		lhci,
		['collect', `--config=${config}`, ...PAGES.map((page) => `--collect.url=${baseUrl}${page}`)],
		options,
	);
	if (status === 0) {
		const signedInConfig = writeSignedInConfig(config, chromePath);
		const pages = await signedInPages(baseUrl);
		status = await run(
			lhci,
			[
				'collect',
				'--additive',
				`--config=${signedInConfig}`,
				...signedInRuns(pages).map((page) => `--collect.url=${baseUrl}${page}`),
			],
			options,
		);
	}
	if (status === 0) status = await run(lhci, ['assert', `--config=${config}`], options);
	if (status === 0) status = await run(lhci, ['upload', `--config=${config}`], options);
} catch (error) {
	console.error(error instanceof Error ? error.message : error);
	status = 1;
} finally {
	stopServer();
	if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
if (process.env.LHCI_TABLE !== '0') {
	const table = lighthouseTable(root);
	if (table) console.log(`\n${table}`);
}
process.exit(status);
