/**
 * The feed as members get it, under load: the built server on the embedded default with its demo
 * world, ten connections signed in as the demo member reading `GET /api/v7.1/activity_story/?limit=40`
 * for BENCH_SECONDS, while `/api/health` is asked every 100 ms. Prints requests a second, p50/p99 of
 * the feed, p50/p95 of the health check meanwhile, and the load average beside them.
 *
 *   npm run bench -- feed-page
 *
 * API_RATE_LIMIT=0 (the operator's switch) keeps the per-member budget out of the figures: this is
 * what the server can do, not what one member is allowed. Figures only; nothing passes or fails.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { loadAverage as load, percentile } from '../figures.ts';
import { startServer, waitUntilUp } from '../server.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const PORT = Number(process.env.BENCH_PORT ?? 4831);
const base = `http://127.0.0.1:${PORT}`;

const dataDir = mkdtempSync(path.join(tmpdir(), 'mapstride-bench-feed-'));
process.env.API_RATE_LIMIT = '0';
const server = startServer(PORT, dataDir);
try {
	await waitUntilUp(`${base}/api/health`, server);
	const login = await fetch(`${base}/api/auth/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', origin: base },
		body: JSON.stringify({ email: 'demo@mapstride.example', password: 'stride-demo-2026' }),
	});
	const { access_token: token } = (await login.json()) as { access_token: string };
	const feedUrl = `${base}/api/v7.1/activity_story/?limit=40`;
	const first = await fetch(feedUrl, { headers: { authorization: `Bearer ${token}` } });
	const stories = ((await first.json()) as { _embedded: { activity_stories: unknown[] } })._embedded
		.activity_stories.length;
	console.log(`feed page: ${stories} stories; load average before ${load()}`);

	const health: number[] = [];
	let polling = true;
	const poll = (async () => {
		while (polling) {
			const started = performance.now();
			await fetch(`${base}/api/health`);
			health.push(performance.now() - started);
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
	})();
	const result = await autocannon({
		url: feedUrl,
		connections: CONNECTIONS,
		duration: SECONDS,
		headers: { authorization: `Bearer ${token}` },
	});
	polling = false;
	await poll;
	const non2xx = result.non2xx + result.errors;
	console.log(
		`${CONNECTIONS} connections × ${SECONDS} s: ${result.requests.average.toFixed(1)} req/s, feed p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${non2xx} not 2xx`,
	);
	console.log(
		`/api/health meanwhile: p50 ${percentile(health, 0.5).toFixed(1)} ms, p95 ${percentile(health, 0.95).toFixed(1)} ms (n=${health.length}); load average after ${load()}`,
	);
} finally {
	server.kill('SIGTERM');
	await new Promise((resolve) => server.once('exit', resolve));
	rmSync(dataDir, { recursive: true, force: true });
}
