/**
 * Lighthouse CI on the pre-rendered pages: starts the product with `npm start` on a free port and
 * a throw-away data folder, runs `lhci autorun` (budgets in lighthouserc.json), then stops it.
 * LHCI_BASE_URL=http://host:port audits a server that is already running instead.
 *
 * Lighthouse refuses to audit a document answered with a 4xx status (ERRORED_DOCUMENT_REQUEST),
 * so the not-found page is audited at /404.html, the same pre-rendered document every unmatched
 * path answers with 404 (the end-to-end tests check that status).
 *
 * Each run starts from an empty .lighthouseci/ and ends with a table of the median run's scores and
 * script bytes per page (LHCI_TABLE=0 leaves the table to the caller, as `npm test` does).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { lighthouseTable } from './lighthouse-summary.mjs';

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
	status = await run(
		lhci,
		[
			'autorun',
			`--config=${path.join(root, 'lighthouserc.json')}`,
			...PAGES.map((page) => `--collect.url=${baseUrl}${page}`),
		],
		{ cwd: root, env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH || '/usr/bin/chromium' } },
	);
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
