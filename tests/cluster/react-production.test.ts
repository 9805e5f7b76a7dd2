import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'mapstride-react-build-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/**
 * What the real launcher, scripts/start.mjs, has loaded of React once the pages are loaded: it is
 * started against a database that refuses connections, so it loads everything, fails to boot and
 * exits, and a hook reports React's modules on the way out.
 */
function reactBuildsLoaded(nodeEnv: string | undefined) {
	const hook = `
		import { createRequire } from 'node:module';
		import path from 'node:path';
		process.on('exit', () => {
			// Reading a CommonJS module's exports for import() enters its re-exports in the cache unrun.
			const cache = createRequire(path.join(process.cwd(), 'package.json')).cache;
			const loaded = Object.keys(cache).filter((file) => cache[file].loaded).map((file) => path.basename(file));
			process.stdout.write('\\nREACT ' + JSON.stringify({
				nodeEnv: process.env.NODE_ENV ?? null,
				production: loaded.filter((file) => /react.*production/.test(file)),
				development: loaded.filter((file) => /react.*development/.test(file)),
			}) + '\\n');
		});`;
	const { NODE_ENV: _runner, ...env } = process.env;
	const launched = spawnSync(
		process.execPath,
		[`--import=data:text/javascript,${encodeURIComponent(hook)}`, path.join(root, 'scripts/start.mjs')],
		{
			cwd: root,
			encoding: 'utf8',
			timeout: 60_000,
			env: {
				...env,
				...(nodeEnv === undefined ? {} : { NODE_ENV: nodeEnv }),
				DATA_DIR: dataDir,
				DATABASE_URL: 'postgres://mapstride@127.0.0.1:9/none',
				SESSION_SECRET: 'react-build-test-only-session-secret-000000000',
				PORT: '0',
			},
		},
	);
	const line = launched.stdout.split('\n').find((text) => text.startsWith('REACT '));
	if (!line) throw new Error(`the launcher reported nothing:\n${launched.stdout}\n${launched.stderr}`);
	return JSON.parse(line.slice('REACT '.length)) as {
		nodeEnv: string | null;
		production: string[];
		development: string[];
	};
}

// NODE_ENV=production needs no help, and would ask for a build of its own (its pages print PUBLIC_URL).
test.each([undefined, 'development'])(
	'npm start renders with React’s production build (NODE_ENV %s), and leaves NODE_ENV as it was',
	(nodeEnv) => {
		const loaded = reactBuildsLoaded(nodeEnv);
		expect(loaded.development).toEqual([]);
		expect(loaded.production).toEqual(
			expect.arrayContaining(['react.production.js', 'react-dom-server.node.production.js']),
		);
		expect(loaded.nodeEnv).toBe(nodeEnv ?? null);
	},
);
