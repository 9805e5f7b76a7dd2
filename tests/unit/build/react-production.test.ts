import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, test } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');

/** What a server started by `npm start` has loaded after its first lines, with NODE_ENV as given. */
function reactBuildsLoaded(nodeEnv: string | undefined) {
	const probe = `
		await import(${JSON.stringify(path.join(root, 'scripts/react-production.mjs'))});
		const { createRequire } = await import('node:module');
		// Reading a CommonJS module's exports for import() enters its re-exports in the cache unrun.
		const cache = createRequire(${JSON.stringify(path.join(root, 'package.json'))}).cache;
		const loaded = Object.keys(cache).filter((file) => cache[file].loaded);
		console.log(JSON.stringify({
			nodeEnv: process.env.NODE_ENV ?? null,
			production: loaded.filter((file) => /react.*production/.test(file)).map((file) => path.basename(file)),
			development: loaded.filter((file) => /react.*development/.test(file)).map((file) => path.basename(file)),
		}));`;
	const { NODE_ENV: _runner, ...env } = process.env;
	const output = execFileSync(
		process.execPath,
		['--input-type=module', '-e', `import path from 'node:path';${probe}`],
		{ env: nodeEnv === undefined ? env : { ...env, NODE_ENV: nodeEnv }, encoding: 'utf8' },
	);
	return JSON.parse(output) as { nodeEnv: string | null; production: string[]; development: string[] };
}

test.each([undefined, 'development', 'production'])(
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
