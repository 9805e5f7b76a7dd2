import './check-node.mjs';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { lighthouseTable } from '../tests/e2e/lighthouse-summary.mjs';

/**
 * Every test a fresh clone can run, in order of cost: static checks, unit and API tests (twice
 * for the API when TEST_DATABASE_URL is set), the production build, the cluster test, browser
 * tests in Chromium, and Lighthouse budgets. Browser steps need Chromium; without it they fail
 * with a clear message.
 *
 * `npm test -- browser lighthouse` runs only the steps whose name contains one of the words.
 * The run ends with each step's time and the Lighthouse scores of every audited page.
 */
const root = path.resolve(import.meta.dirname, '..');
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const env = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' };

const chrome = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const steps = [
	['static checks (astro check, biome)', 'npm', ['run', 'check']],
	['unit and API tests', bin('vitest'), ['run', '--project', '!cluster'], { rerunCrashedFiles: true }],
	['production build', process.execPath, [path.join(root, 'scripts/build.mjs')]],
	// Runs the built product, so after the build; on PostgreSQL only when TEST_DATABASE_URL is set.
	['cluster test (npm run cluster)', bin('vitest'), ['run', '--project', 'cluster']],
	['browser tests (Playwright, Chromium)', 'npm', ['run', 'test:e2e'], { needsChrome: true }],
	['Lighthouse budgets', 'npm', ['run', 'lhci'], { needsChrome: true }],
];

const only = process.argv.slice(2).map((word) => word.toLowerCase());
const chosen = steps.filter(
	([name]) => !only.length || only.some((word) => name.toLowerCase().includes(word)),
);
if (!chosen.length) {
	console.error(
		`No step matches ${only.join(', ')}. Steps:\n${steps.map(([name]) => `  ${name}`).join('\n')}`,
	);
	process.exit(2);
}
/** Runs a command with our output as its own, and answers its exit status and what it printed. */
function runShown(command, args) {
	return new Promise((resolve) => {
		const child = spawn(command, args, {
			cwd: root,
			stdio: ['inherit', 'pipe', 'pipe'],
			env: { ...env, CHROME_PATH: chrome, LHCI_TABLE: '0' },
		});
		let printed = '';
		child.stdout.on('data', (chunk) => {
			process.stdout.write(chunk);
			printed += chunk;
		});
		child.stderr.on('data', (chunk) => {
			process.stderr.write(chunk);
			printed += chunk;
		});
		child.on('close', (code, signal) => resolve({ status: code ?? (signal ? 1 : 0), printed }));
	});
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: colour codes are what it matches
const COLOURS = /\u001b\[[0-9;]*m/g;

/**
 * Test files whose worker process died of a fatal signal, when nothing else failed. Node 24's V8 can
 * stop a process that frees WebAssembly code (PGlite's) while other threads start or stop
 * ("Check failed: jit_page_->allocations_.erase(addr) == 1", SIGTRAP): a fault of the runtime, not
 * of a test, and the only one worth a second run. Empty when any test failed or no worker died.
 */
function filesOfCrashedWorkers(printed) {
	const text = printed.replace(COLOURS, '');
	if (/Test Files\s+\d+ failed|Tests\s+\d+ failed/.test(text)) return [];
	const crashed = /Worker exited unexpectedly with signal SIG[A-Z]+ .*? while running test file (\S+)/g;
	return [...new Set([...text.matchAll(crashed)].map((match) => path.relative(root, match[1])))];
}

/** Runs one step; the unit step runs the files of a worker that died of a signal once more. */
async function runStep(command, args, options) {
	const { status, printed } = await runShown(command, args);
	if (status === 0 || !options.rerunCrashedFiles) return status;
	const files = filesOfCrashedWorkers(printed);
	if (!files.length) return status;
	console.log(
		`\nA test worker died of a signal, with no test failed; running its files again: ${files.join(' ')}`,
	);
	return (await runShown(command, [...args, ...files])).status;
}

const started = Date.now();
const results = [];
let passed = 0;
let failed = 0;
for (const [name, command, args, options = {}] of chosen) {
	if (options.needsChrome && !existsSync(chrome)) {
		console.error(
			`\n✗ ${name}: Chromium not found at ${chrome}. Install Debian's chromium or set CHROME_PATH.`,
		);
		failed++;
		results.push([name, 'not run', '']);
		continue;
	}
	console.log(`\n▶ ${name}`);
	const stepStarted = Date.now();
	const status = await runStep(command, args, options);
	const seconds = ((Date.now() - stepStarted) / 1000).toFixed(1);
	if (status === 0) {
		passed++;
		console.log(`✓ ${name} (${seconds} s)`);
	} else {
		failed++;
		console.error(`✗ ${name} failed (${seconds} s)`);
	}
	results.push([name, status === 0 ? 'passed' : 'FAILED', `${seconds} s`]);
}

const width = Math.max(...results.map(([name]) => name.length));
console.log('\nsteps');
for (const [name, outcome, seconds] of results)
	console.log(`  ${name.padEnd(width)}  ${outcome.padEnd(7)}  ${seconds}`);
const total = Math.round((Date.now() - started) / 1000);
console.log(`  ${passed} passed, ${failed} failed in ${Math.floor(total / 60)} min ${total % 60} s`);
if (chosen.some(([name]) => name.startsWith('Lighthouse'))) {
	console.log(`\n${lighthouseTable(root) ?? 'Lighthouse wrote no reports.'}`);
}
process.exit(failed === 0 ? 0 : 1);
