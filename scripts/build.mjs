import './check-node.mjs';
import { spawn } from 'node:child_process';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { sourceHash, writeBuildHash } from './build-hash.mjs';

const root = path.resolve(import.meta.dirname, '..');
const started = performance.now();
const seconds = (since) => ((performance.now() - since) / 1000).toFixed(1);
// Taken before building, so an edit made while the build runs triggers the next one.
const hash = sourceHash(root);

// Compressed copies made on request live beside the files; a new build must not inherit them.
rmSync(path.join(root, 'dist'), { recursive: true, force: true });

/**
 * `astro build` names every pre-rendered page on its own line (about 1,550 of them); those lines
 * are counted instead of printed. Everything else, warnings and errors included, passes through.
 */
const PAGE_LINE = /^\s*(\d\d:\d\d:\d\d\s+)?[├└]─ |^\s*\(\+\d+m?s\)\s*$/;
const pages = await new Promise((resolve) => {
	const child = spawn(path.join(root, 'node_modules/.bin/astro'), ['build'], {
		cwd: root,
		stdio: ['ignore', 'pipe', 'inherit'],
		env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
	});
	let count = 0;
	let rest = '';
	child.stdout.setEncoding('utf8');
	child.stdout.on('data', (chunk) => {
		const lines = (rest + chunk).split('\n');
		rest = lines.pop() ?? '';
		for (const line of lines) {
			if (PAGE_LINE.test(line)) {
				if (line.includes('─ ')) count++;
			} else if (line.trim()) process.stdout.write(`${line}\n`);
		}
	});
	child.on('close', (code, signal) => {
		if (rest.trim() && !PAGE_LINE.test(rest)) process.stdout.write(`${rest}\n`);
		if (code !== 0) {
			console.error(`astro build failed (${signal ?? `exit code ${code}`}).`);
			process.exit(code ?? 1);
		}
		resolve(count);
	});
});
console.log(`Pre-rendered ${pages} pages.`);

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

/**
 * Hashed assets (every page's scripts and styles) and the pages outside the location tree are
 * compressed now at the highest quality. State and city pages, about 1,500 of them and each
 * visited rarely, are compressed the first time someone asks for one
 * (src/lib/site/server/static-compression.ts), so the build does not spend minutes on them.
 */
const COMPRESSIBLE = /\.(html|css|js|mjs|json|svg|txt|xml|webmanifest)$/;
const LOCATION_PAGE = /^[a-z]{2}\/[^/]+\//;
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const clientDir = path.join(root, 'dist/client');

function listCompressible(dir, found = []) {
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		const file = path.join(dir, entry.name);
		const relative = path.relative(clientDir, file).split(path.sep).join('/');
		if (entry.isDirectory()) {
			if (!LOCATION_PAGE.test(`${relative}/`)) listCompressible(file, found);
		} else if (COMPRESSIBLE.test(entry.name) && statSync(file).size > 512) found.push(file);
	}
	return found;
}

async function compress(file) {
	const bytes = await readFile(file);
	const [br, gz] = await Promise.all([
		brotli(bytes, {
			params: {
				[constants.BROTLI_PARAM_QUALITY]: 11,
				[constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
			},
		}),
		gzipAsync(bytes, { level: 9 }),
	]);
	await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
}

const compressStarted = performance.now();
const files = listCompressible(clientDir);
let next = 0;
// zlib's async calls run on libuv's thread pool, so files compress on every core at once.
const worker = async () => {
	while (next < files.length) await compress(files[next++]);
};
await Promise.all(Array.from({ length: Math.max(2, availableParallelism()) }, worker));
console.log(`Pre-compressed ${files.length} static files in ${seconds(compressStarted)} s.`);

writeBuildHash(root, hash);
console.log(`Built in ${seconds(started)} s.`);
