/**
 * The workout page of a 12-hour recording, as a member gets it: the real server (scripts/start.mjs) on
 * loopback, the demo member signed in, a 12-hour 1 Hz FIT ride (43,200 records) uploaded through the API.
 *
 * 1. Server time: GET /workout/{id} with the member's session, request to the last byte of the page (p50/p95).
 * 2. Browser times, Debian's Chromium with the mobile profile (412 px wide, touch, CPU throttled 4×), from
 *    navigation start, the charts scrolled into view as soon as they are on the page, as a reader would (they
 *    load when visible). A script in the page looks at every frame, so the figures do not wait on the test
 *    driver getting a turn on a busy page:
 *    - charts drawn: the first frame in which every chart shows its line, the server's drawing or uPlot's;
 *    - charts interactive: the first frame in which every chart's uPlot canvas is on the page.
 *
 * Goals: server p95 ≤ 50 ms; charts drawn ≤ 1 s. Figures only; nothing passes or fails on speed.
 *
 *   npx tsx tests/bench/workouts/detail-page.ts     (also the last part of `npm run bench:workouts`)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { DEMO_LOGIN } from '../../../src/lib/db/seed.ts';
import { startServer, waitUntilUp } from '../server.ts';
import { rideFit } from './ride-fit.ts';

const PORT = 4813;
const BASE = `http://127.0.0.1:${PORT}`;
const SERVER_RUNS = 100;
const BROWSER_RUNS = 10;

function percentile(samples: number[], q: number): number {
	const sorted = [...samples].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

const summary = (samples: number[]) =>
	`n=${samples.length}  p50 ${percentile(samples, 0.5).toFixed(1)} ms  p95 ${percentile(samples, 0.95).toFixed(1)} ms  max ${Math.max(...samples).toFixed(1)} ms`;

async function uploadRide(token: string): Promise<number> {
	const form = new FormData();
	// A start of its own each run, so the upload is never refused as one already there.
	form.append('file', new Blob([new Uint8Array(rideFit(12 * 3600, Date.now() - 86_400_000))]), 'ride.fit');
	const response = await fetch(`${BASE}/api/v7.1/device/file_import/`, {
		method: 'POST',
		headers: { authorization: `Bearer ${token}`, origin: BASE },
		body: form,
	});
	const body = (await response.json()) as { _links?: { self?: { id: string }[] } };
	if (response.status !== 201) throw new Error(`The 12-hour upload answered ${response.status}`);
	const id = Number(body._links?.self?.[0]?.id);
	if (!Number.isInteger(id))
		throw new Error(`No workout id in the upload's answer: ${JSON.stringify(body).slice(0, 200)}`);
	return id;
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'workout-page-bench-'));
const server = startServer(PORT, dataDir);
try {
	await waitUntilUp(`${BASE}/api/health`, server);
	const login = await fetch(`${BASE}/api/auth/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', origin: BASE },
		body: JSON.stringify(DEMO_LOGIN),
	});
	if (!login.ok) throw new Error(`Signing in answered ${login.status}`);
	const { access_token: token } = (await login.json()) as { access_token: string };
	const cookie = (login.headers.getSetCookie?.() ?? []).map((line) => line.split(';')[0]).join('; ');
	const id = await uploadRide(token);
	const page = `${BASE}/workout/${id}`;
	console.log(`\nWorkout page of a 12-hour 1 Hz FIT ride (${page})`);

	let html = '';
	for (let i = 0; i < 10; i++) html = await (await fetch(page, { headers: { cookie } })).text();
	const chartCount = html.match(/data-testid="chart-/g)?.length ?? 0;
	if (chartCount === 0) throw new Error('The page has no charts');
	const serverTimes: number[] = [];
	for (let i = 0; i < SERVER_RUNS; i++) {
		const started = performance.now();
		const response = await fetch(page, { headers: { cookie } });
		const html = await response.text();
		serverTimes.push(performance.now() - started);
		if (response.status !== 200 || !html.includes('workout-charts'))
			throw new Error(`The page answered ${response.status} without its charts`);
	}
	console.log(`  server, request to last byte: ${summary(serverTimes)}   goal p95 ≤ 50 ms`);

	const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium' });
	try {
		const context = await browser.newContext({
			viewport: { width: 412, height: 823 },
			deviceScaleFactor: 1.75,
			isMobile: true,
			hasTouch: true,
		});
		const signedIn = await context.request.post(`${BASE}/api/auth/login`, {
			data: DEMO_LOGIN,
			headers: { origin: BASE },
		});
		if (!signedIn.ok()) throw new Error(`Signing the browser in answered ${signedIn.status()}`);
		const drawn: number[] = [];
		const interactive: number[] = [];
		// As text: the bundler would name the functions with a helper the page does not have.
		await context.addInitScript({
			content: `(() => {
				const count = ${chartCount};
				const times = (window.chartTimes = {});
				let scrolled = false;
				const frame = (now) => {
					const box = document.querySelector('[data-testid="workout-charts"]');
					if (box && !scrolled) {
						box.scrollIntoView({ block: 'start' });
						scrolled = true;
					}
					const charts = [...document.querySelectorAll('[data-testid^="chart-"]')];
					if (charts.length >= count) {
						if (times.drawn === undefined && charts.every((chart) => chart.querySelector('canvas, .workout-chart__first path')))
							times.drawn = now;
						if (charts.every((chart) => chart.querySelector('canvas'))) times.interactive = now;
					}
					if (times.interactive === undefined) requestAnimationFrame(frame);
				};
				requestAnimationFrame(frame);
			})();`,
		});
		for (let run = 0; run <= BROWSER_RUNS; run++) {
			const tab = await context.newPage();
			const cdp = await context.newCDPSession(tab);
			await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
			await tab.goto(page, { waitUntil: 'commit' });
			await tab.waitForFunction(
				() =>
					(window as unknown as { chartTimes: { interactive?: number } }).chartTimes.interactive !==
					undefined,
				undefined,
				{ timeout: 30_000 },
			);
			const times = await tab.evaluate(
				() => (window as unknown as { chartTimes: { drawn: number; interactive: number } }).chartTimes,
			);
			if (run > 0) {
				drawn.push(times.drawn);
				interactive.push(times.interactive);
			}
			await tab.close();
		}
		console.log(
			`  browser, navigation to charts drawn (mobile, CPU 4×): ${summary(drawn)}   goal ≤ 1,000 ms`,
		);
		console.log(`  browser, navigation to charts interactive (mobile, CPU 4×): ${summary(interactive)}`);
	} finally {
		await browser.close();
	}
} finally {
	server.kill('SIGTERM');
	rmSync(dataDir, { recursive: true, force: true });
}
