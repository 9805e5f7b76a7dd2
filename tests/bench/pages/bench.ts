/**
 * The pages members live on, as the server answers them: the built server on the embedded default
 * with its demo world, signed in as the demo member through a browser's session cookie, one request
 * at a time. For the dashboard, stats, the feed, the newest workout and a friend's profile it prints
 * the time to the whole answer at p50 and p95 (loopback, so this is server time), with the load average.
 *
 *   npm run bench -- pages          (BENCH_REQUESTS a page, 200 by default)
 *
 * Each request signs in with the cookie alone, as a page load does; the session check is part of
 * what a member waits for. Figures only; nothing passes or fails.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadAverage as load, percentile } from '../figures.ts';
import { startServer, waitUntilUp } from '../server.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const PORT = Number(process.env.BENCH_PORT ?? 4841);
const base = `http://127.0.0.1:${PORT}`;

/** The demo member's cookies and token, from the sign-in a browser makes. */
async function signIn(): Promise<{ cookie: string; token: string; userId: number }> {
	const answer = await fetch(`${base}/api/auth/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', origin: base },
		body: JSON.stringify({ email: 'demo@mapstride.example', password: 'stride-demo-2026' }),
	});
	const body = (await answer.json()) as { access_token: string; user: { id: number } };
	const cookie = answer.headers
		.getSetCookie()
		.map((line) => line.split(';')[0])
		.join('; ');
	return { cookie, token: body.access_token, userId: body.user.id };
}

async function readApi<T>(token: string, apiPath: string): Promise<T> {
	const answer = await fetch(`${base}/api${apiPath}`, { headers: { authorization: `Bearer ${token}` } });
	if (!answer.ok) throw new Error(`${apiPath} answered ${answer.status}`);
	return (await answer.json()) as T;
}

/** Milliseconds to the last byte of each of `count` requests, one after another. */
async function timePage(page: string, cookie: string, count: number): Promise<number[]> {
	const times: number[] = [];
	for (let i = 0; i < count; i++) {
		const started = performance.now();
		const answer = await fetch(`${base}${page}`, { headers: { cookie }, redirect: 'manual' });
		await answer.arrayBuffer();
		if (answer.status !== 200) throw new Error(`${page} answered ${answer.status}`);
		times.push(performance.now() - started);
	}
	return times;
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'mapstride-bench-pages-'));
process.env.API_RATE_LIMIT = '0';
const server = startServer(PORT, dataDir);
try {
	await waitUntilUp(`${base}/api/health`, server);
	// A first start imports the regions and builds the map's features after it listens.
	await waitUntilUp(`${base}/tiles/regions.json`, server);
	const { cookie, token, userId } = await signIn();
	const workouts = await readApi<{ _embedded: { workouts: { id: number }[] } }>(
		token,
		`/v7.1/workout/?user=${userId}&limit=1`,
	);
	const friends = await readApi<{
		_embedded: { friendships: { _links: { to_user: { id: string }[] } }[] };
	}>(token, `/v7.1/friendship/?from_user=${userId}&status=active`);
	const pages = [
		'/dashboard/',
		'/workout/stats/',
		'/activity_feed/',
		`/workout/${workouts._embedded.workouts[0].id}/`,
		`/profile/${friends._embedded.friendships[0]._links.to_user[0].id}/activity_feed`,
	];
	console.log(`${REQUESTS} requests a page, one at a time; load average before ${load()}`);
	console.log('page                          p50 ms  p95 ms  max ms');
	for (const page of pages) {
		await timePage(page, cookie, 20);
		const times = (await timePage(page, cookie, REQUESTS)).sort((a, b) => a - b);
		console.log(
			`${page.padEnd(28)}  ${percentile(times, 0.5).toFixed(1).padStart(6)}  ${percentile(times, 0.95)
				.toFixed(1)
				.padStart(6)}  ${times.at(-1)?.toFixed(1).padStart(6)}`,
		);
	}
	console.log(`load average after ${load()}`);
} finally {
	server.kill('SIGTERM');
	await new Promise((resolve) => server.once('exit', resolve));
	rmSync(dataDir, { recursive: true, force: true });
}
