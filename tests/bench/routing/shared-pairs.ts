import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hono } from 'hono';
import { RoutingEngine } from '../../../src/lib/routing/engine.ts';
import { createRoutingApi } from '../../../src/lib/routing/server/api.ts';
import { loadRegion } from '../../../src/lib/routing/server/regions.ts';

// Full route answers (validation, search, shape, maneuvers, JSON) on the origin/destination pairs that
// ../shared/tools draws with seed 42, so the figures sit beside other engines' on the same graph and pairs.

const ROOT = join(import.meta.dirname, '../../..');
const TOOLS = join(ROOT, '../shared/tools');
const SHARED_ANDORRA = join(ROOT, '../shared/data/osm/andorra.osm.pbf');
const WORK = join(ROOT, 'data/bench');
const PYTHON = '/usr/bin/python3';

export interface PairsInput {
	label: string;
	extract: string;
	pairs: string;
}

/** Makes the tiled graph and the seed-42 pairs once (kept in data/bench), installing pyosmium if it can. */
export function prepareSharedPairs(log: (line: string) => void): PairsInput[] | null {
	if (!existsSync(TOOLS) || !existsSync(SHARED_ANDORRA)) {
		log('  skipped: ../shared/tools or ../shared/data is not beside this checkout');
		return null;
	}
	const hasOsmium = () => spawnSync(PYTHON, ['-c', 'import osmium']).status === 0;
	if (!hasOsmium() && process.getuid?.() === 0) {
		log('  installing Debian python3-pyosmium for ../shared/tools');
		spawnSync('apt-get', ['install', '-y', '-qq', 'python3-pyosmium'], {
			stdio: 'ignore',
			env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
		});
	}
	if (!hasOsmium()) {
		log('  skipped: python3-pyosmium is not installed (apt-get install -y python3-pyosmium)');
		return null;
	}
	mkdirSync(WORK, { recursive: true });
	const run = (script: string, args: string[]) => {
		const result = spawnSync(PYTHON, [join(TOOLS, script), ...args], { encoding: 'utf8' });
		if (result.status !== 0) throw new Error(`${script} failed: ${result.stderr}`);
	};
	const tiled = join(WORK, 'andorra-5x5.osm.pbf');
	if (!existsSync(tiled)) run('tile_osm.py', [SHARED_ANDORRA, tiled, '--n', '5']);
	const inputs: PairsInput[] = [
		{ label: 'bundled Andorra extract', extract: SHARED_ANDORRA, pairs: join(WORK, 'pairs-andorra-42.csv') },
		{ label: 'tiled Andorra 5×5 (≈ 964,000 nodes)', extract: tiled, pairs: join(WORK, 'pairs-tiled-42.csv') },
	];
	for (const input of inputs) {
		if (!existsSync(input.pairs))
			run('make_pairs.py', [input.extract, input.pairs, '--count', '1000', '--seed', '42']);
	}
	return inputs;
}

export interface PairsFigures {
	pairs: number;
	routed: number;
	failures: Record<string, number>;
	coldP95: number;
	p50: number;
	p95: number;
	p99: number;
	max: number;
	meanSnapMetres: number;
	maxSnapMetres: number;
}

function readPairs(path: string): { from: { lat: number; lon: number }; to: { lat: number; lon: number } }[] {
	return readFileSync(path, 'utf8')
		.trim()
		.split('\n')
		.slice(1)
		.map((line) => {
			const [, srcLon, srcLat, , dstLon, dstLat] = line.split(',').map(Number);
			return { from: { lat: srcLat, lon: srcLon }, to: { lat: dstLat, lon: dstLon } };
		});
}

function percentile(sorted: number[], p: number): number {
	return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

/** Times POST /api/routing/route for every pair, walking, through the routing API app in this process. */
export async function measureSharedPairs(input: PairsInput, cacheDir: string): Promise<PairsFigures> {
	const { region } = await loadRegion(input.extract, cacheDir);
	const engine = new RoutingEngine({ regions: [region] });
	const app = new Hono().basePath('/api');
	app.route('/', createRoutingApi({ engine }));
	const pairs = readPairs(input.pairs);
	const call = async (pair: (typeof pairs)[number]) => {
		const started = performance.now();
		const response = await app.request('/api/routing/route', {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ locations: [pair.from, pair.to], costing: 'pedestrian' }),
		});
		const body = (await response.json()) as {
			error_code?: number;
			trip?: { locations: { snap_distance?: number }[] };
		};
		return { ms: performance.now() - started, status: response.status, body };
	};
	// The first answers of a fresh process, before any warm-up: what a member met right after a start.
	const cold: number[] = [];
	for (const pair of pairs.slice(0, 100)) cold.push((await call(pair)).ms);
	for (const pair of pairs.slice(100, 400)) await call(pair);
	const times: number[] = [];
	const failures: Record<string, number> = {};
	const snaps: number[] = [];
	for (const pair of pairs) {
		const { ms, status, body } = await call(pair);
		if (status === 200) {
			times.push(ms);
			for (const location of body.trip?.locations ?? []) snaps.push(location.snap_distance ?? 0);
		} else {
			const key = `${status}/${body.error_code ?? '?'}`;
			failures[key] = (failures[key] ?? 0) + 1;
		}
	}
	times.sort((a, b) => a - b);
	cold.sort((a, b) => a - b);
	return {
		pairs: pairs.length,
		routed: times.length,
		failures,
		coldP95: percentile(cold, 95),
		p50: percentile(times, 50),
		p95: percentile(times, 95),
		p99: percentile(times, 99),
		max: times.at(-1) ?? 0,
		meanSnapMetres: snaps.reduce((sum, d) => sum + d, 0) / Math.max(1, snaps.length),
		maxSnapMetres: Math.max(0, ...snaps),
	};
}

export function formatPairsFigures(label: string, f: PairsFigures): string[] {
	const ms = (value: number) => `${value.toFixed(2)} ms`;
	const failures = Object.entries(f.failures)
		.map(([key, count]) => `${count} × ${key}`)
		.join(', ');
	return [
		`  ${label}: routed ${f.routed} of ${f.pairs} pairs${failures ? ` (failed: ${failures})` : ''}`,
		`    full answer p50 ${ms(f.p50)}, p95 ${ms(f.p95)}, p99 ${ms(f.p99)}, max ${ms(f.max)}; p99/p95 ${(f.p99 / Math.max(f.p95, 1e-9)).toFixed(2)} [goal ≤ 2]`,
		`    first 100 answers of a fresh process p95 ${ms(f.coldP95)}; points moved to the road: mean ${f.meanSnapMetres.toFixed(1)} m, max ${f.maxSnapMetres.toFixed(0)} m`,
	];
}
