import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const alias = { '~': fileURLToPath(new URL('./src', import.meta.url)) };
// The base map's palette reads the design tokens as text (`?raw`), which Vitest would otherwise blank.
const shared = {
	testTimeout: 30_000,
	hookTimeout: 60_000,
	globalSetup: ['tests/helpers/global-setup.ts'],
	css: { include: [/_tokens\.scss/] },
};

// API suites run against the embedded database and, when TEST_DATABASE_URL is set (CI sets it),
// once more against the real PostgreSQL, one file at a time since they share that database.
const projects = [
	{ resolve: { alias }, test: { ...shared, name: 'unit', include: ['tests/unit/**/*.test.{ts,tsx}'] } },
	{ resolve: { alias }, test: { ...shared, name: 'api', include: ['tests/api/**/*.test.ts'] } },
];
if (process.env.TEST_DATABASE_URL) {
	projects.push({
		resolve: { alias },
		test: {
			...shared,
			name: 'api-postgres',
			include: ['tests/api/**/*.test.ts'],
			env: { TEST_DB_KIND: 'postgres' },
			fileParallelism: false,
		} as (typeof projects)[number]['test'],
	});
}

export default defineConfig({ test: { projects } });
