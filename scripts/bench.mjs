import './check-node.mjs';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

// Benchmarks print figures; they never pass or fail on speed. Name some to run only those.
const root = path.resolve(import.meta.dirname, '..');
const all = [
	'http',
	'routing',
	'workout-files',
	'routes',
	'auth',
	'uploads',
	'tiles',
	'regions',
	'planner',
	'workouts',
	'stats',
	'heatmap',
	'social',
	'feed-page',
	'pages',
	'challenges',
	'load',
	'memory',
];
const chosen = process.argv.slice(2).length ? process.argv.slice(2) : all;
for (const name of chosen) {
	const script = ['bench.ts', 'login.bench.ts']
		.map((file) => path.join(root, 'tests/bench', name, file))
		.find(existsSync);
	if (!script) continue;
	console.log(`\n=== benchmark: ${name} ===`);
	const result = spawnSync(path.join(root, 'node_modules/.bin/tsx'), [script], {
		cwd: root,
		stdio: 'inherit',
	});
	if (result.status !== 0) console.error(`benchmark ${name} exited with ${result.status}`);
}
