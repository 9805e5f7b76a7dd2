import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { startSmtpSink } from './tests/e2e/smtp-sink';
import { startWeatherArchive } from './tests/e2e/weather-archive';

/**
 * End-to-end tests drive Debian's Chromium (or CHROME_PATH), never a downloaded browser, against
 * the real server started with `npm start` on a free port and a throw-away data folder.
 * Set E2E_BASE_URL to test a server that is already running instead.
 */
function findFreePort(): string {
	const script =
		"const s=require('node:net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
	return execFileSync(process.execPath, ['-e', script]).toString().trim();
}

// Worker processes re-read this file; the environment they inherit keeps them on the same server.
process.env.E2E_PORT ??= findFreePort();
if (!process.env.E2E_DATA_DIR) {
	const dataDir = mkdtempSync(path.join(tmpdir(), 'mapstride-e2e-'));
	process.env.E2E_DATA_DIR = dataDir;
	// Only the process that made the folder removes it, after the web server has stopped.
	process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
}
// The server under test delivers its mail over SMTP to a real sink that the main process runs;
// workers read the delivered messages from E2E_MAIL_DIR.
if (!process.env.E2E_SMTP_PORT) {
	process.env.E2E_SMTP_PORT = findFreePort();
	process.env.E2E_MAIL_DIR = path.join(process.env.E2E_DATA_DIR, 'delivered-mail');
	startSmtpSink(Number(process.env.E2E_SMTP_PORT), process.env.E2E_MAIL_DIR);
}
// Past weather comes from a local server in Open-Meteo's shape, so workout pages show weather offline.
if (!process.env.E2E_WEATHER_PORT) {
	process.env.E2E_WEATHER_PORT = findFreePort();
	startWeatherArchive(Number(process.env.E2E_WEATHER_PORT));
}
/**
 * Journeys run at 375 px too where their issue asks for it (planner, routes, workouts, stats and
 * goals) and for the shell, accounts and search a phone visitor meets first. These others run on
 * desktop only: what they test does not change with the screen (HTTP answers, consents, payments,
 * feeds, challenges, analytics, typing before hydration), and layout-375.spec.ts checks that each
 * of their pages fits a phone.
 * Running them twice made the browser step the longest part of CI.
 */
const DESKTOP_ONLY_JOURNEYS = [
	'admin',
	'alternate-map',
	'analytics',
	'challenge-age-grade-teams',
	'challenges',
	'connected-apps',
	'dead-links',
	'device-sync',
	'first-run',
	'hotel-pages',
	'legal',
	'locations',
	'premium',
	'privacy',
	'page-problems',
	'regions',
	'server',
	'social-feed',
	'social-friends',
	'support',
	'training-plans',
	'typing-before-hydration',
	'workout-upload-resume',
].map((name) => `**/${name}.spec.ts`);

const port = process.env.E2E_PORT;
const externalServer = process.env.E2E_BASE_URL;
const baseURL = externalServer ?? `http://127.0.0.1:${port}`;

export const CHROMIUM_ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

export default defineConfig({
	testDir: 'tests/e2e',
	testMatch: '**/*.spec.ts',
	fullyParallel: true,
	forbidOnly: Boolean(process.env.CI),
	retries: process.env.CI ? 1 : 0,
	// Two workers even on two cores: most of a browser test's time is spent waiting on the server,
	// and one worker alone made the browser step the longest part of CI.
	workers: Math.max(2, Math.floor(availableParallelism() / 2)),
	reporter: process.env.CI
		? [['list'], ['html', { open: 'never', outputFolder: 'test-results/e2e-report' }]]
		: 'list',
	outputDir: 'test-results/e2e',
	// A minute a test: long journeys took 30–35 s on a busy two-core machine, where a hung test still ends.
	timeout: 60_000,
	expect: { timeout: 5_000 },
	use: {
		baseURL,
		browserName: 'chromium',
		launchOptions: { executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', args: CHROMIUM_ARGS },
		trace: 'retain-on-failure',
		screenshot: 'only-on-failure',
	},
	projects: [
		{ name: 'desktop', use: { viewport: { width: 1280, height: 800 } }, grepInvert: /@small-screen-layout/ },
		{
			name: 'mobile-375',
			grepInvert: /@desktop-layout/,
			testIgnore: DESKTOP_ONLY_JOURNEYS,
			use: { viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
		},
	],
	webServer: externalServer
		? undefined
		: {
				command: 'npm start',
				// The launcher listens only once the database is ready, so the home page answering means ready.
				url: `${baseURL}/`,
				env: {
					PORT: port,
					HOST: '127.0.0.1',
					DATA_DIR: process.env.E2E_DATA_DIR,
					PUBLIC_URL: baseURL,
					SMTP_URL: `smtp://127.0.0.1:${process.env.E2E_SMTP_PORT}`,
					OPEN_METEO_ARCHIVE_URL: `http://127.0.0.1:${process.env.E2E_WEATHER_PORT}/v1/archive`,
					// Two map types, both on this server (tests stub /tiles/**): the map type picker has a choice.
					MAP_TILE_LAYERS: JSON.stringify([
						{ type: 'OSM', url: '/tiles/{z}/{x}/{y}.png' },
						{ type: 'terrain', url: '/tiles/terrain/{z}/{x}/{y}.png', attribution: 'Terrain test tiles' },
					]),
					// One member, whom tests/e2e/alternate-map.spec.ts signs up, sees the vector map; everyone else the raster one.
					// The survey, the ad slot and the loyalty pilot reach only the member tests/e2e/rollouts.spec.ts signs up, so other tests'
					// pages stay the same whatever bucket their members fall in.
					ROLLOUTS: JSON.stringify({
						alternate_maps_type: { percent: 0, members: ['alternatemaps'] },
						customer_survey: { percent: 0, members: ['rolloutpilot'] },
						ads: { percent: 0, members: ['rolloutpilot'] },
						loyalty_pilot: { percent: 0, members: ['rolloutpilot'] },
					}),
					// Every browser test signs in as the same demo member, on parallel workers.
					API_RATE_LIMIT: '6000',
					// Every new member of the browser tests signs up from 127.0.0.1.
					SIGNUPS_PER_HOUR: '1000',
					// A test-only secret: `astro build` runs with NODE_ENV=production, where the default is refused.
					SESSION_SECRET: process.env.SESSION_SECRET ?? 'e2e-only-session-secret-not-for-production-0000',
					ASTRO_TELEMETRY_DISABLED: '1',
				},
				// A fresh clone builds first and initialises the embedded database.
				timeout: 240_000,
				reuseExistingServer: false,
				stdout: 'ignore',
				stderr: 'pipe',
			},
});
