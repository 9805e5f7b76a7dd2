import './check-node.mjs';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * Every test a fresh clone can run, in order of cost: static checks, unit and API tests (twice
 * for the API when TEST_DATABASE_URL is set), the production build, browser tests in Chromium,
 * and Lighthouse budgets. Browser steps need Chromium; without it they fail with a clear message.
 */
const root = path.resolve(import.meta.dirname, '..');
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const env = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' };

const chrome = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const steps = [
	['static checks (astro check, tsc, biome)', 'npm', ['run', 'check']],
	['unit and API tests', bin('vitest'), ['run']],
	['production build', process.execPath, [path.join(root, 'scripts/build.mjs')]],
	['browser tests (Playwright, Chromium)', 'npm', ['run', 'test:e2e'], { needsChrome: true }],
	['Lighthouse budgets', 'npm', ['run', 'lhci'], { needsChrome: true }],
];

const only = process.argv.slice(2);
let passed = 0;
let failed = 0;
for (const [name, command, args, options = {}] of steps) {
	if (only.length && !only.some((word) => name.includes(word))) continue;
	if (options.needsChrome && !existsSync(chrome)) {
		console.error(
			`\n✗ ${name}: Chromium not found at ${chrome}. Install Debian's chromium or set CHROME_PATH.`,
		);
		failed++;
		continue;
	}
	console.log(`\n▶ ${name}`);
	const started = Date.now();
	const result = spawnSync(command, args, {
		cwd: root,
		stdio: 'inherit',
		env: { ...env, CHROME_PATH: chrome },
	});
	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	if (result.status === 0) {
		passed++;
		console.log(`✓ ${name} (${seconds} s)`);
	} else {
		failed++;
		console.error(`✗ ${name} failed (${seconds} s)`);
	}
}
console.log(`\nsteps: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
