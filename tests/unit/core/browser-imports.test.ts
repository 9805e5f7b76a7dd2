import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Islands, stores and the islands' API client run in the browser: nothing they reach, not even a
 * type, may come from a domain's server/ folder, so shapes they share with the server live in
 * contract.ts.
 */
const root = resolve(import.meta.dirname, '../../..');
const src = join(root, 'src');

function filesUnder(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const path = join(folder, name);
		return statSync(path).isDirectory() ? filesUnder(path) : /\.(ts|tsx)$/.test(name) ? [path] : [];
	});
}

function resolveImport(from: string, specifier: string): string | null {
	const base = resolve(dirname(from), specifier);
	for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
		if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
	}
	return null;
}

function relativeImports(file: string): string[] {
	const text = readFileSync(file, 'utf8');
	const found = [...text.matchAll(/(?:import|export)[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]/g)];
	const dynamic = [...text.matchAll(/import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g)];
	return [...found, ...dynamic]
		.map((match) => resolveImport(file, match[1] as string))
		.filter((path): path is string => path !== null);
}

/** Every file reachable from `entry` through relative imports, with the chain that reached it. */
function reachable(entry: string): Map<string, string[]> {
	const seen = new Map<string, string[]>([[entry, [entry]]]);
	const queue = [entry];
	while (queue.length > 0) {
		const file = queue.shift() as string;
		for (const next of relativeImports(file)) {
			if (seen.has(next)) continue;
			seen.set(next, [...(seen.get(file) ?? []), next]);
			queue.push(next);
		}
	}
	return seen;
}

const browserEntries = [
	...filesUnder(join(src, 'islands')),
	...readdirSync(join(src, 'lib'))
		.map((domain) => join(src, 'lib', domain, 'store.ts'))
		.filter((path) => existsSync(path)),
	join(src, 'lib/api/client.ts'),
];

describe('browser code', () => {
	it.each(browserEntries.map((path) => relative(root, path)))('%s reaches no server module', (entry) => {
		const serverFiles = [...reachable(join(root, entry)).entries()]
			.filter(([path]) => /[/\\]server[/\\]/.test(relative(src, path)))
			.map(([, chain]) => chain.map((path) => relative(root, path)).join(' → '));
		expect(serverFiles).toEqual([]);
	});
});
