import './check-node.mjs';
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const root = path.resolve(import.meta.dirname, '..');
const build = spawnSync(path.join(root, 'node_modules/.bin/astro'), ['build'], {
	cwd: root,
	stdio: 'inherit',
	env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
});
if (build.status !== 0) process.exit(build.status ?? 1);

// The upload parse pool's thread entry is loaded by file name at run time, so Vite never sees it:
// bundle it on its own next to the server (scripts/start.mjs points the pool at it).
const { build: bundle } = await import('esbuild');
await bundle({
	entryPoints: [path.join(root, 'src/lib/workout-files/server/parse-worker.ts')],
	outfile: path.join(root, 'dist/server/parse-worker.mjs'),
	bundle: true,
	platform: 'node',
	format: 'esm',
	target: 'node22',
	packages: 'external',
	logLevel: 'warning',
});

// The server sends these pre-compressed copies, so static pages cost no CPU per request.
// zlib's async calls run on libuv's thread pool, so files compress on every core at once.
const COMPRESSIBLE = /\.(html|css|js|mjs|json|svg|txt|xml|webmanifest)$/;
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

function listCompressible(dir, found = []) {
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		const file = path.join(dir, entry.name);
		if (entry.isDirectory()) listCompressible(file, found);
		else if (COMPRESSIBLE.test(entry.name) && statSync(file).size > 512) found.push(file);
	}
	return found;
}

async function compress(file) {
	const bytes = await readFile(file);
	const [br, gz] = await Promise.all([
		brotli(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
		gzipAsync(bytes, { level: 9 }),
	]);
	await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
}

const started = performance.now();
const files = listCompressible(path.join(root, 'dist/client'));
let next = 0;
const worker = async () => {
	while (next < files.length) await compress(files[next++]);
};
await Promise.all(Array.from({ length: Math.max(2, availableParallelism()) }, worker));
writeFileSync(path.join(root, 'dist/.build-stamp'), new Date().toISOString());
console.log(
	`Pre-compressed ${files.length} static files in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
);
