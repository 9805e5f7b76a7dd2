/**
 * Base map tiles through the real server (launcher → tile app), on loopback, one request at a time
 * as a map's first paint would feel them: cold (never drawn: no file, nothing in memory) and warm
 * (served again). Zooms 12–17, a 3 × 3 block of tiles around central Harrisburg and Andorra la Vella,
 * where streets lie on the world layer; and zooms 4–12 around Split and Los Angeles, the world layer
 * alone. Goals: cold p95 ≤ 300 ms, warm p95 ≤ 20 ms. Figures only; nothing passes or fails on speed.
 */
import { readdirSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { lonLatToTile } from '../../../src/lib/tiles/tile-math.ts';
import { startServer, waitUntilUp } from '../server.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const PORT = 4811;
const BASE = `http://127.0.0.1:${PORT}`;
const WARM_ROUNDS = 5;
const CENTRES = [
	{ name: 'Harrisburg', lon: -76.84, lat: 40.27 },
	{ name: 'Andorra', lon: 1.5218, lat: 42.5063 },
];
/** Outside every region: coast, borders and names only. */
const WORLD_CENTRES = [
	{ name: 'Split', lon: 16.44, lat: 43.51 },
	{ name: 'Los Angeles', lon: -118.25, lat: 34.05 },
];

// Kept between runs (git-ignored) so the feature sets are read once; drawn tiles are removed below.
const dataDir = path.join(root, 'data/bench-tiles');
const cacheDir = path.join(dataDir, 'tile-cache');
try {
	for (const entry of readdirSync(cacheDir)) {
		if (entry.startsWith('tiles-')) rmSync(path.join(cacheDir, entry), { recursive: true, force: true });
	}
} catch {
	// First run: nothing cached yet.
}

function listTiles(extension: string, centres = CENTRES, zooms: [number, number] = [12, 17]): string[] {
	const urls: string[] = [];
	for (const centre of centres) {
		for (let z = zooms[0]; z <= zooms[1]; z++) {
			const at = lonLatToTile(centre.lon, centre.lat, z);
			for (let dy = -1; dy <= 1; dy++) {
				for (let dx = -1; dx <= 1; dx++) {
					urls.push(`${BASE}/tiles/${z}/${Math.floor(at.x) + dx}/${Math.floor(at.y) + dy}.${extension}`);
				}
			}
		}
	}
	return urls;
}

async function time(url: string): Promise<number> {
	const started = performance.now();
	const response = await fetch(url);
	await response.arrayBuffer();
	const ms = performance.now() - started;
	if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
	return ms;
}

function summarise(samples: number[]) {
	const sorted = [...samples].sort((a, b) => a - b);
	const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
	return `n=${String(sorted.length).padStart(3)}  p50 ${at(0.5).toFixed(1).padStart(6)} ms  p95 ${at(0.95).toFixed(1).padStart(6)} ms  max ${sorted[sorted.length - 1].toFixed(1).padStart(6)} ms`;
}

const server = startServer(PORT, dataDir);
try {
	await waitUntilUp(`${BASE}/tiles/regions.json`, server);
	// One tile outside every region, so first-request work (JIT, sharp's start) is not counted.
	await time(`${BASE}/tiles/3/0/0.png`);
	const sets = [
		{ label: 'regions', urls: (extension: string) => listTiles(extension) },
		{ label: 'world  ', urls: (extension: string) => listTiles(extension, WORLD_CENTRES, [4, 12]) },
	];
	for (const { label, urls: urlsOf } of sets) {
		for (const extension of ['png', 'pbf']) {
			const urls = urlsOf(extension);
			const cold: number[] = [];
			for (const url of urls) cold.push(await time(url));
			const warm: number[] = [];
			for (let round = 0; round < WARM_ROUNDS; round++) for (const url of urls) warm.push(await time(url));
			console.log(`${label} ${extension} cold  ${summarise(cold)}   (goal p95 ≤ 300 ms)`);
			console.log(`${label} ${extension} warm  ${summarise(warm)}   (goal p95 ≤ 20 ms)`);
		}
	}
	const perZoom: string[] = [];
	for (let z = 12; z <= 17; z++) {
		const at = lonLatToTile(CENTRES[0].lon, CENTRES[0].lat, z);
		perZoom.push(
			`z${z} ${(await time(`${BASE}/tiles/${z}/${Math.floor(at.x) + 2}/${Math.floor(at.y) + 2}@2x.png`)).toFixed(0)} ms`,
		);
	}
	console.log(`png @2x cold, one Harrisburg tile per zoom: ${perZoom.join(', ')}`);
	console.log(
		`load average ${loadavg()
			.map((value) => value.toFixed(2))
			.join(' ')} (1, 5, 15 min)`,
	);
} finally {
	server.kill('SIGTERM');
}
