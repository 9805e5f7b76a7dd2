import './check-node.mjs';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = path.resolve(import.meta.dirname, '..');
const build = spawnSync(path.join(root, 'node_modules/.bin/astro'), ['build'], {
	cwd: root,
	stdio: 'inherit',
	env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
});
if (build.status !== 0) process.exit(build.status ?? 1);

// The server sends these pre-compressed copies, so static pages cost no CPU per request.
const COMPRESSIBLE = /\.(html|css|js|mjs|json|svg|txt|xml|webmanifest)$/;
let count = 0;
function compressTree(dir) {
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		const file = path.join(dir, entry.name);
		if (entry.isDirectory()) compressTree(file);
		else if (COMPRESSIBLE.test(entry.name) && statSync(file).size > 512) {
			const bytes = readFileSync(file);
			writeFileSync(
				`${file}.br`,
				brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
			);
			writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
			count++;
		}
	}
}
compressTree(path.join(root, 'dist/client'));
writeFileSync(path.join(root, 'dist/.build-stamp'), new Date().toISOString());
console.log(`Pre-compressed ${count} static files.`);
