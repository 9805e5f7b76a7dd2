import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
	resolve: { alias: { '~': fileURLToPath(new URL('./src', import.meta.url)) } },
	test: {
		include: ['tests/unit/**/*.test.{ts,tsx}', 'tests/api/**/*.test.ts'],
		testTimeout: 30_000,
		hookTimeout: 60_000,
	},
});
