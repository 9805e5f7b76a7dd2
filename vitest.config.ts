import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const alias = { '~': fileURLToPath(new URL('./src', import.meta.url)) };
// The base map's palette reads the design tokens as text (`?raw`), which Vitest would otherwise blank.
const shared = {
	// Bounds for a test that hangs, not speed goals (those are benchmarks): on a two-core machine
	// busy with other work, seeding the demo world or importing dozens of files takes three to four
	// times as long as on a quiet one.
	testTimeout: 90_000,
	hookTimeout: 120_000,
	globalSetup: ['tests/helpers/global-setup.ts'],
	css: { include: [/_tokens\.scss/] },
};

// API suites run against the embedded database and, when TEST_DATABASE_URL is set (CI sets it),
// once more against the real PostgreSQL, each worker on its own copy of the database. API files
// share their worker's modules (isolate: false): each opens its own database and app, and loading
// the server's module graph once per file cost more than the tests themselves.
//
// Files that compare how long the server takes under load run last, alone, so another worker's
// burst of CPU is not counted against them.
const TIMED = ['tests/api/workouts/import-latency.test.ts', 'tests/api/routes/upload-bombs.test.ts'];
const databases = process.env.TEST_DATABASE_URL ? (['pglite', 'postgres'] as const) : (['pglite'] as const);
const projects = [
	{
		// Islands run on happy-dom, so they get the browser build of tus-js-client (XMLHttpRequest), as a
		// browser bundle does; Node's build would send real requests.
		resolve: {
			alias: [
				...Object.entries(alias).map(([find, replacement]) => ({ find, replacement })),
				{ find: /^tus-js-client$/, replacement: 'tus-js-client/lib.esm/browser/index.js' },
			],
		},
		test: {
			...shared,
			name: 'unit',
			include: ['tests/unit/**/*.test.{ts,tsx}'],
			server: { deps: { inline: ['tus-js-client'] } },
		},
	},
	...databases.flatMap((kind) => {
		const suffix = kind === 'postgres' ? '-postgres' : '';
		const env = { TEST_DB_KIND: kind };
		return [
			{
				resolve: { alias },
				test: {
					...shared,
					name: `api${suffix}`,
					include: ['tests/api/**/*.test.ts'],
					exclude: TIMED,
					env,
					isolate: false,
				},
			},
			{
				resolve: { alias },
				test: {
					...shared,
					name: `api-timed${suffix}`,
					include: TIMED,
					env,
					maxWorkers: 1,
					sequence: { groupOrder: 1 },
				},
			},
		];
	}),
	// `npm run cluster` on the real PostgreSQL: server processes of the built product (dist/), so
	// scripts/test.mjs runs it after the production build; last and alone when run with the rest.
	// It makes its own empty database, which the cluster migrates, and needs no prepared copies.
	// The launcher's own check (React's production build) is here too, as it loads the built pages.
	{
		resolve: { alias },
		test: {
			...shared,
			globalSetup: [],
			name: 'cluster',
			include: ['tests/cluster/**/*.test.ts'],
			maxWorkers: 1,
			sequence: { groupOrder: 2 },
		},
	},
];

// Vitest's default leaves a core idle (one worker on a two-core machine); the suites wait on
// databases as much as on the CPU, so every core gets a worker.
export default defineConfig({ test: { projects, maxWorkers: '100%' } });
