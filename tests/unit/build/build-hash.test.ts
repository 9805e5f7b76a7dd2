import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildReason, sourceHash, writeBuildHash } from '../../../scripts/build-hash.mjs';

/** `npm start` builds only when the build inputs' content or the pages' build settings changed. */
describe('the start script’s build decision', () => {
	let root: string;
	const inputs = ['package-lock.json', 'src', 'public'];
	const env = { SITE_VARIANT: 'run' };

	beforeEach(() => {
		root = mkdtempSync(path.join(tmpdir(), 'mapstride-build-hash-'));
		mkdirSync(path.join(root, 'src/pages'), { recursive: true });
		mkdirSync(path.join(root, 'dist/server'), { recursive: true });
		mkdirSync(path.join(root, 'public'));
		writeFileSync(path.join(root, 'package-lock.json'), '{"lockfileVersion":3}\n');
		writeFileSync(path.join(root, 'src/pages/index.astro'), '<h1>Mapstride</h1>\n');
		writeFileSync(path.join(root, 'dist/server/entry.mjs'), 'export {};\n');
		writeFileSync(path.join(root, 'dist/server/parse-worker.mjs'), 'export {};\n');
		writeBuildHash(root, sourceHash(root, env, inputs));
	});
	afterEach(() => rmSync(root, { recursive: true, force: true }));

	it('does not rebuild when nothing changed', () => {
		expect(buildReason(root, env, inputs)).toBeNull();
	});

	it('does not rebuild when only modification times changed (npm install rewrites the lockfile)', () => {
		const later = new Date(Date.now() + 60_000);
		utimesSync(path.join(root, 'package-lock.json'), later, later);
		utimesSync(path.join(root, 'src/pages/index.astro'), later, later);
		expect(buildReason(root, env, inputs)).toBeNull();
	});

	it('rebuilds when one byte changed, a file was added or removed', () => {
		writeFileSync(path.join(root, 'src/pages/index.astro'), '<h1>Mapstridf</h1>\n');
		expect(buildReason(root, env, inputs)).not.toBeNull();
		writeFileSync(path.join(root, 'src/pages/index.astro'), '<h1>Mapstride</h1>\n');
		expect(buildReason(root, env, inputs)).toBeNull();
		writeFileSync(path.join(root, 'public/robots.txt'), 'User-agent: *\n');
		expect(buildReason(root, env, inputs)).not.toBeNull();
	});

	it('rebuilds when a setting printed into pre-rendered pages changed', () => {
		expect(buildReason(root, { SITE_VARIANT: 'walk' }, inputs)).not.toBeNull();
		// The canonical address counts only for production builds: tests serve one build on any port.
		expect(buildReason(root, { ...env, PUBLIC_URL: 'http://127.0.0.1:5555' }, inputs)).toBeNull();
		expect(
			buildReason(root, { ...env, NODE_ENV: 'production', PUBLIC_URL: 'https://mapstride.example' }, inputs),
		).not.toBeNull();
	});

	it('builds when there is no build or the build has no hash', () => {
		rmSync(path.join(root, 'dist/.build-hash'));
		expect(buildReason(root, env, inputs)).toBe('the build has no source hash');
		rmSync(path.join(root, 'dist'), { recursive: true });
		expect(buildReason(root, env, inputs)).toBe('no build yet');
	});
});
