import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import createGraph from 'ngraph.graph';
import { nba } from 'ngraph.path';
import { HierarchyQuery } from '../../../src/lib/routing/ch.ts';
import { RoutingEngine } from '../../../src/lib/routing/engine.ts';
import { measureDistance } from '../../../src/lib/routing/geo.ts';
import { getSegmentTime } from '../../../src/lib/routing/graph.ts';
import { readOsmFile } from '../../../src/lib/routing/osm/read.ts';
import { buildRegion, measureRegionBytes, type Region } from '../../../src/lib/routing/region.ts';
import { countRoadNodes, loadRegion } from '../../../src/lib/routing/server/regions.ts';
import { MODES } from '../../../src/lib/routing/tags.ts';
import { formatPairsFigures, measureSharedPairs, prepareSharedPairs } from './shared-pairs.ts';
import { tileExtract } from './tile.ts';

// Prints figures for the routing engine; never pass/fail. Heavy phases run in child processes so each one's
// peak RSS is its own. Usage: npm run bench:routing [-- --quick]

const ROOT = join(import.meta.dirname, '../../..');
const REGIONS_DIR = join(ROOT, 'data-regions');
const EXTRACTS = ['andorra.osm.pbf', 'harrisburg.osm.pbf', 'monaco.osm.gz'];
const QUICK = process.argv.includes('--quick') || process.env.ROUTING_BENCH_QUICK === '1';
const PAIRS = QUICK ? 200 : 1000;
const TILED_NBA_PAIRS = QUICK ? 20 : 100;
// --only=imports,queries,tiled,pairs,http runs some sections.
const ONLY =
	process.argv
		.find((arg) => arg.startsWith('--only='))
		?.slice(7)
		.split(',') ?? null;
const runs = (section: string) => !ONLY || ONLY.includes(section);

function createRandom(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

function getPercentile(sorted: number[], p: number): number {
	if (sorted.length === 0) return Number.NaN;
	return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function getPeakRssMb(): number {
	return process.resourceUsage().maxRSS / 1024;
}

interface QueryFigures {
	mode: string;
	pairs: number;
	chP50: number;
	chP95: number;
	chP99: number;
	chUnpackP50: number;
	chSettled: number;
	nbaPairs: number;
	nbaP50: number;
	nbaP95: number;
	nbaP99: number;
	nbaSettled: number;
	mismatches: number;
	ratioP50: number;
}

/** CH and NBA* on the same junction pairs of one mode. */
function measureQueries(
	region: Region,
	modeIndex: number,
	pairCount: number,
	nbaCount: number,
	seed: number,
) {
	const graph = region.graph;
	const n = graph.junctionCount;
	const junctionLat = new Float64Array(n);
	const junctionLon = new Float64Array(n);
	const usable = new Uint8Array(n);
	let maxSpeed = 0;
	for (let s = 0; s < graph.segmentCount; s++) {
		const first = graph.segShapeStart[s];
		const last = graph.segShapeStart[s + 1] - 1;
		junctionLat[graph.segFrom[s]] = graph.shapeLat[first] / 1e6;
		junctionLon[graph.segFrom[s]] = graph.shapeLon[first] / 1e6;
		junctionLat[graph.segTo[s]] = graph.shapeLat[last] / 1e6;
		junctionLon[graph.segTo[s]] = graph.shapeLon[last] / 1e6;
		for (const direction of [0, 1]) {
			const time = getSegmentTime(graph, modeIndex, s, direction);
			if (time > 0) {
				usable[graph.segFrom[s]] = 1;
				usable[graph.segTo[s]] = 1;
				maxSpeed = Math.max(maxSpeed, graph.segLength[s] / time);
			}
		}
	}
	const candidates: number[] = [];
	for (let j = 0; j < n; j++) if (usable[j]) candidates.push(j);
	const query = new HierarchyQuery(region.hierarchies[modeIndex], graph);
	const random = createRandom(seed);
	const pairs: [number, number, number][] = [];
	for (let attempt = 0; pairs.length < pairCount && attempt < pairCount * 50; attempt++) {
		const a = candidates[Math.floor(random() * candidates.length)];
		const b = candidates[Math.floor(random() * candidates.length)];
		const result = query.findPath([{ node: a, cost: 0 }], [{ node: b, cost: 0 }], false);
		if (result && a !== b) pairs.push([a, b, result.cost]);
	}
	// Warm the JIT so the first timed queries are not compile time.
	for (const [a, b] of pairs.slice(0, 300)) {
		query.findPath([{ node: a, cost: 0 }], [{ node: b, cost: 0 }], false);
		query.findPath([{ node: a, cost: 0 }], [{ node: b, cost: 0 }], true);
	}
	const times: number[] = [];
	const unpackTimes: number[] = [];
	let settled = 0;
	for (const [a, b] of pairs) {
		const started = performance.now();
		const result = query.findPath([{ node: a, cost: 0 }], [{ node: b, cost: 0 }], false);
		times.push(performance.now() - started);
		settled += result?.settled ?? 0;
	}
	for (const [a, b] of pairs) {
		const started = performance.now();
		query.findPath([{ node: a, cost: 0 }], [{ node: b, cost: 0 }], true);
		unpackTimes.push(performance.now() - started);
	}
	// The same graph for ngraph.path: junctions, and one oriented link per usable direction (cheapest kept).
	const ngraph = createGraph<{ lat: number; lon: number }, number>();
	for (let j = 0; j < n; j++) if (usable[j]) ngraph.addNode(j, { lat: junctionLat[j], lon: junctionLon[j] });
	const best = new Map<number, number>();
	for (let s = 0; s < graph.segmentCount; s++) {
		for (const direction of [0, 1]) {
			const time = getSegmentTime(graph, modeIndex, s, direction);
			if (time === 0) continue;
			const from = direction === 0 ? graph.segFrom[s] : graph.segTo[s];
			const to = direction === 0 ? graph.segTo[s] : graph.segFrom[s];
			if (from === to) continue;
			const key = from * n + to;
			if ((best.get(key) ?? Number.POSITIVE_INFINITY) > time) best.set(key, time);
		}
	}
	for (const [key, time] of best) ngraph.addLink(Math.floor(key / n), key % n, time);
	let expanded = new Set<number | string>();
	let counting = false;
	const finder = nba<{ lat: number; lon: number }, number>(ngraph, {
		oriented: true,
		distance: (from, _to, link) => {
			if (counting) expanded.add(from.id);
			return link.data;
		},
		// Straight-line distance at the fastest speed of the mode: a lower bound on travel time (ms).
		heuristic: (from, to) =>
			(measureDistance(from.data.lat, from.data.lon, to.data.lat, to.data.lon) / maxSpeed) * 0.999,
	});
	const nbaTimes: number[] = [];
	let mismatches = 0;
	let nbaSettled = 0;
	const nbaPairs = pairs.slice(0, nbaCount);
	for (const [a, b, cost] of nbaPairs) {
		const started = performance.now();
		const path = finder.find(a, b);
		nbaTimes.push(performance.now() - started);
		// ngraph.path returns the path from the end back to the start.
		let total = 0;
		for (let i = path.length - 1; i > 0; i--) {
			total += ngraph.getLink(path[i].id, path[i - 1].id)?.data ?? Number.NaN;
		}
		if (total !== cost) mismatches++;
	}
	counting = true;
	for (const [a, b] of nbaPairs) {
		expanded = new Set();
		finder.find(a, b);
		nbaSettled += expanded.size;
	}
	times.sort((x, y) => x - y);
	unpackTimes.sort((x, y) => x - y);
	const nbaSorted = [...nbaTimes].sort((x, y) => x - y);
	// Ratio on the same pairs: NBA* p50 against the CH p50 over those pairs.
	const chOnNbaPairs = pairs
		.slice(0, nbaCount)
		.map(([a, b]) => {
			const started = performance.now();
			query.findPath([{ node: a, cost: 0 }], [{ node: b, cost: 0 }], false);
			return performance.now() - started;
		})
		.sort((x, y) => x - y);
	const figures: QueryFigures = {
		mode: MODES[modeIndex],
		pairs: pairs.length,
		chP50: getPercentile(times, 50),
		chP95: getPercentile(times, 95),
		chP99: getPercentile(times, 99),
		chUnpackP50: getPercentile(unpackTimes, 50),
		chSettled: settled / Math.max(1, pairs.length),
		nbaPairs: nbaPairs.length,
		nbaP50: getPercentile(nbaSorted, 50),
		nbaP95: getPercentile(nbaSorted, 95),
		nbaP99: getPercentile(nbaSorted, 99),
		nbaSettled: nbaSettled / Math.max(1, nbaPairs.length),
		mismatches,
		ratioP50: getPercentile(nbaSorted, 50) / getPercentile(chOnNbaPairs, 50),
	};
	return figures;
}

function formatMs(value: number): string {
	return value < 1 ? `${(value * 1000).toFixed(0)} µs` : `${value.toFixed(2)} ms`;
}

function printQueries(title: string, rows: QueryFigures[]): void {
	console.log(`\n${title}`);
	console.log(
		'  mode        pairs  CH p50     CH p95     CH p99     +unpack p50  settled | NBA* pairs  p50        p95        p99        settled  | NBA*/CH p50  cost mismatches',
	);
	for (const r of rows) {
		console.log(
			`  ${r.mode.padEnd(10)}  ${String(r.pairs).padStart(5)}  ${formatMs(r.chP50).padEnd(9)}  ${formatMs(r.chP95).padEnd(9)}  ${formatMs(r.chP99).padEnd(9)}  ${formatMs(r.chUnpackP50).padEnd(11)}  ${r.chSettled.toFixed(0).padStart(7)} | ${String(r.nbaPairs).padStart(10)}  ${formatMs(r.nbaP50).padEnd(9)}  ${formatMs(r.nbaP95).padEnd(9)}  ${formatMs(r.nbaP99).padEnd(9)}  ${r.nbaSettled.toFixed(0).padStart(7)}  | ${r.ratioP50.toFixed(0).padStart(9)}×  ${r.mismatches}`,
		);
	}
}

interface ImportFigures {
	name: string;
	importMs: number;
	readMs: number;
	buildMs: number;
	peakRssMb: number;
	roadNodes: number;
	junctions: number;
	bytes: number;
	cacheLoadMs: number;
}

async function runImportChild(file: string): Promise<void> {
	const started = performance.now();
	const osm = await readOsmFile(join(REGIONS_DIR, file));
	const readMs = performance.now() - started;
	const region = buildRegion(file, osm);
	const importMs = performance.now() - started;
	region.roadNodeCount = countRoadNodes(region);
	const cacheDir = mkdtempSync(join(tmpdir(), 'routing-bench-'));
	await loadRegion(join(REGIONS_DIR, file), cacheDir);
	const loaded = await loadRegion(join(REGIONS_DIR, file), cacheDir);
	rmSync(cacheDir, { recursive: true, force: true });
	const figures: ImportFigures = {
		name: file,
		importMs,
		readMs,
		buildMs: importMs - readMs,
		peakRssMb: getPeakRssMb(),
		roadNodes: region.roadNodeCount,
		junctions: region.graph.junctionCount,
		bytes: measureRegionBytes(region),
		cacheLoadMs: loaded.ms,
	};
	console.log(JSON.stringify(figures));
}

async function runTiledChild(): Promise<void> {
	const input = await readOsmFile(join(REGIONS_DIR, 'andorra.osm.pbf'));
	const tileStarted = performance.now();
	const tiled = tileExtract(input, 5);
	const tileMs = performance.now() - tileStarted;
	const buildStarted = performance.now();
	const region = buildRegion('andorra-5x5', tiled.osm);
	const buildMs = performance.now() - buildStarted;
	region.roadNodeCount = countRoadNodes(region);
	const peakRssMb = getPeakRssMb();
	const queries = MODES.map((_, m) => measureQueries(region, m, PAIRS, TILED_NBA_PAIRS, 42 + m));
	console.log(
		JSON.stringify({
			tileMs,
			buildMs,
			peakRssMb,
			osmNodes: tiled.nodeCount,
			connectors: tiled.connectorCount,
			roadNodes: region.roadNodeCount,
			junctions: region.graph.junctionCount,
			bytes: measureRegionBytes(region),
			hierarchyEdges: region.hierarchies.map((ch) => ch.head.length),
			queries,
		}),
	);
}

async function runPairsChild(argument: string): Promise<void> {
	const { input, cacheDir } = JSON.parse(argument);
	console.log(JSON.stringify(await measureSharedPairs(input, cacheDir)));
}

async function runServeChild(cacheDir: string): Promise<void> {
	const { Hono } = await import('hono');
	const { serve } = await import('@hono/node-server');
	const { createRoutingApi } = await import('../../../src/lib/routing/server/api.ts');
	const { loadEngine } = await import('../../../src/lib/routing/server/regions.ts');
	const engine = await loadEngine({ regionsDir: REGIONS_DIR, cacheDir });
	const app = new Hono().basePath('/api');
	app.route('/', createRoutingApi({ engine }));
	const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
		console.log(JSON.stringify({ port: info.port }));
	});
	process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

function runChild(args: string[], onLine?: (line: string) => void): Promise<string> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, '--child', ...args], {
			cwd: ROOT,
			stdio: ['ignore', 'pipe', 'inherit'],
			env: { ...process.env, ROUTING_BENCH_QUICK: QUICK ? '1' : '0' },
		});
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => {
			output += chunk.toString();
			if (onLine) for (const line of chunk.toString().split('\n')) if (line.trim()) onLine(line);
		});
		child.on('error', reject);
		child.on('exit', (code) =>
			code === 0 ? resolve(output) : reject(new Error(`child ${args[0]} exited ${code}`)),
		);
	});
}

interface AutocannonResult {
	requests: { average: number; total: number };
	latency: { p50: number; p99: number };
	non2xx: number;
	errors: number;
}

async function measureHttp(
	cacheDir: string,
): Promise<AutocannonResult & { routes: number; baseline: number; postBaseline: number }> {
	// Short city routes: junction pairs 0.5–2 km apart in Harrisburg and Monaco.
	const bodies: string[] = [];
	const random = createRandom(7);
	for (const file of ['harrisburg.osm.pbf', 'monaco.osm.gz']) {
		const { region } = await loadRegion(join(REGIONS_DIR, file), cacheDir);
		const engine = new RoutingEngine({ regions: [region] });
		const g = region.graph;
		for (let attempt = 0; bodies.length < (file.startsWith('h') ? 50 : 100) && attempt < 100_000; attempt++) {
			const a = g.segShapeStart[Math.floor(random() * g.segmentCount)];
			const b = g.segShapeStart[Math.floor(random() * g.segmentCount)];
			const from = { lat: g.shapeLat[a] / 1e6, lon: g.shapeLon[a] / 1e6 };
			const to = { lat: g.shapeLat[b] / 1e6, lon: g.shapeLon[b] / 1e6 };
			const distance = measureDistance(from.lat, from.lon, to.lat, to.lon);
			if (distance < 500 || distance > 2000) continue;
			const costing = MODES[bodies.length % 3];
			// Only pairs that have a route, so the figure measures routing rather than error answers.
			try {
				engine.route({ locations: [from, to], costing });
			} catch {
				continue;
			}
			bodies.push(JSON.stringify({ locations: [from, to], costing }));
		}
	}
	let port = 0;
	const ready = new Promise<void>((resolve) => {
		const child = spawn(process.execPath, [import.meta.filename, '--child', 'serve', cacheDir], {
			cwd: ROOT,
			stdio: ['ignore', 'pipe', 'inherit'],
		});
		child.stdout.on('data', (chunk: Buffer) => {
			const match = /"port":(\d+)/.exec(chunk.toString());
			if (match) {
				port = Number(match[1]);
				resolve();
			}
		});
		serverChild = child;
	});
	await ready;
	const require = createRequire(import.meta.url);
	const autocannon = require('autocannon') as (options: object) => Promise<AutocannonResult>;
	let next = 0;
	const options = {
		url: `http://127.0.0.1:${port}`,
		connections: 16,
		duration: QUICK ? 3 : 10,
		requests: [
			{
				method: 'POST',
				path: '/api/routing/route',
				headers: { 'content-type': 'application/json' },
				setupRequest: (request: object) => ({ ...request, body: bodies[next++ % bodies.length] }),
			},
		],
	};
	await autocannon({ ...options, duration: 2 });
	const result = await autocannon(options);
	// The same server answering an empty city search: the ceiling of the HTTP stack on this machine right now.
	const baseline = await autocannon({
		url: `http://127.0.0.1:${port}/api/_api/search_for_city/?term=ab`,
		connections: 16,
		duration: QUICK ? 2 : 5,
	});
	// A POST the handler refuses at validation: body reading and JSON, no routing.
	const postBaseline = await autocannon({
		url: `http://127.0.0.1:${port}/api/routing/route`,
		connections: 16,
		duration: QUICK ? 2 : 5,
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ locations: [{ lat: 43.7396, lon: 7.4275 }], costing: 'auto' }),
	});
	serverChild?.kill('SIGTERM');
	return {
		...result,
		routes: bodies.length,
		baseline: baseline.requests.average,
		postBaseline: postBaseline.requests.average,
	};
}

let serverChild: ReturnType<typeof spawn> | null = null;

async function main(): Promise<void> {
	const benchStarted = performance.now();
	console.log(`Routing benchmark (node ${process.version}, ${QUICK ? 'quick' : 'full'} run)`);
	if (runs('imports')) await printImports();
	const cacheDir = mkdtempSync(join(tmpdir(), 'routing-bench-cache-'));
	if (runs('queries')) await printExtractQueries(cacheDir);
	const goals: string[] = [];
	if (runs('tiled')) goals.push(...(await printTiled()));
	if (runs('pairs')) await printSharedPairs();
	if (runs('http')) goals.push(await printHttp(cacheDir));
	if (goals.length > 0) {
		console.log('\nGoals (tiled Andorra ≈ 1M nodes; worst mode shown)');
		for (const line of goals) console.log(`  ${line}`);
	}
	rmSync(cacheDir, { recursive: true, force: true });
	console.log(`\nBenchmark took ${((performance.now() - benchStarted) / 1000).toFixed(0)} s`);
}

async function printImports(): Promise<void> {
	console.log(
		'\nImport per bundled extract (read + graph + 4 hierarchies (3 modes + cars avoiding highways) + snap index; each in its own process)',
	);
	console.log(
		'  extract              import     (read / build)        peak RSS   road nodes  junctions  bytes/node  cache load',
	);
	for (const file of EXTRACTS) {
		const output = await runChild(['import', file]);
		const figures = JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as ImportFigures;
		console.log(
			`  ${file.padEnd(19)}  ${(figures.importMs / 1000).toFixed(2).padStart(6)} s  (${(figures.readMs / 1000).toFixed(2)} s / ${(figures.buildMs / 1000).toFixed(2)} s)   ${figures.peakRssMb.toFixed(0).padStart(5)} MB  ${String(figures.roadNodes).padStart(10)}  ${String(figures.junctions).padStart(9)}  ${(figures.bytes / figures.roadNodes).toFixed(1).padStart(10)}  ${figures.cacheLoadMs.toFixed(0).padStart(7)} ms`,
		);
	}
}

async function printExtractQueries(cacheDir: string): Promise<void> {
	for (const file of EXTRACTS) {
		const { region } = await loadRegion(join(REGIONS_DIR, file), cacheDir);
		printQueries(
			`Queries on ${file} (${PAIRS} seeded random connected junction pairs per mode; NBA* on the same graph and pairs)`,
			MODES.map((_, m) => measureQueries(region, m, PAIRS, PAIRS, 42 + m)),
		);
	}
}

async function printTiled(): Promise<string[]> {
	console.log('\nTiled Andorra 5×5 (fresh ids, stitched like ../shared/tools/tile_osm.py; own process)');
	const tiled = JSON.parse((await runChild(['tiled'])).trim().split('\n').at(-1) ?? '{}');
	console.log(
		`  OSM nodes ${tiled.osmNodes.toLocaleString('en')}, road nodes served ${tiled.roadNodes.toLocaleString('en')}, junctions ${tiled.junctions.toLocaleString('en')}, connectors ${tiled.connectors}`,
	);
	console.log(
		`  tiling ${(tiled.tileMs / 1000).toFixed(2)} s; build (graph + 4 hierarchies (3 modes + cars avoiding highways) + snap index) ${(tiled.buildMs / 1000).toFixed(2)} s  [goal ≤ 60 s]`,
	);
	console.log(
		`  peak RSS ${tiled.peakRssMb.toFixed(0)} MB; hierarchy edges per mode ${tiled.hierarchyEdges.join(' / ')}`,
	);
	console.log(
		`  served memory ${(tiled.bytes / 1e6).toFixed(1)} MB = ${(tiled.bytes / tiled.roadNodes).toFixed(1)} bytes per road node  [goal ≤ 100]`,
	);
	printQueries(
		`Queries on tiled Andorra (${PAIRS} pairs per mode; NBA* on the first ${TILED_NBA_PAIRS} of them) [goals: p50 ≤ 0.5 ms, p95 ≤ 2 ms, ≥ 50× NBA*]`,
		tiled.queries,
	);
	const queries = tiled.queries as QueryFigures[];
	const worst = (pick: (q: QueryFigures) => number) => Math.max(...queries.map(pick));
	const p50 = worst((q) => q.chP50);
	const p95 = worst((q) => q.chP95);
	const ratio = Math.min(...queries.map((q) => q.ratioP50));
	const build = tiled.buildMs / 1000;
	const perNode = tiled.bytes / tiled.roadNodes;
	const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
	return [
		`query p50 ${formatMs(p50)} vs goal ≤ 0.5 ms: ${verdict(p50 <= 0.5)} (${(0.5 / p50).toFixed(0)}× under the limit)`,
		`query p95 ${formatMs(p95)} vs goal ≤ 2 ms: ${verdict(p95 <= 2)} (${(2 / p95).toFixed(0)}× under the limit)`,
		`NBA*/CH at p50 ${ratio.toFixed(0)}× vs goal ≥ 50×: ${verdict(ratio >= 50)}`,
		`build ${build.toFixed(1)} s vs goal ≤ 60 s: ${verdict(build <= 60)}`,
		`memory ${perNode.toFixed(1)} bytes per road node vs goal ≤ 100: ${verdict(perNode <= 100)}`,
	];
}

async function printSharedPairs(): Promise<void> {
	console.log(
		'\nFull route answers on the seed-42 walking pairs of ../shared/tools (POST /api/routing/route in-process: validation, search, shape, maneuvers, JSON; 300 answers of warm-up; each extract in its own process)',
	);
	const inputs = prepareSharedPairs((line) => console.log(line));
	if (!inputs) return;
	const cacheDir = join(ROOT, 'data/bench/routing-cache');
	for (const input of inputs) {
		const output = await runChild(['pairs', JSON.stringify({ input, cacheDir })]);
		const figures = JSON.parse(output.trim().split('\n').at(-1) ?? '{}');
		for (const line of formatPairsFigures(input.label, figures)) console.log(line);
	}
}

async function printHttp(cacheDir: string): Promise<string> {
	console.log(
		'\nHTTP: POST /api/routing/route, short city routes (0.5–2 km, Harrisburg and Monaco, all modes),',
	);
	console.log(
		'      @hono/node-server in its own process (plain Node type stripping, no tsx), autocannon 16 connections on loopback',
	);
	const http = await measureHttp(cacheDir);
	console.log(
		`  ${http.requests.average.toFixed(0)} requests/s (total ${http.requests.total}, ${http.routes} distinct routes), latency p50 ${http.latency.p50} ms, p99 ${http.latency.p99} ms, non-2xx ${http.non2xx}, errors ${http.errors}  [goal ≥ 3,000/s]`,
	);
	console.log(
		`  baselines on the same server: GET empty city search ${http.baseline.toFixed(0)} requests/s; POST refused at validation (no routing) ${http.postBaseline.toFixed(0)} requests/s`,
	);
	const load = (await import('node:os')).loadavg()[0];
	const rate = http.requests.average;
	return `HTTP ${rate.toFixed(0)} requests/s vs goal ≥ 3,000: ${rate >= 3000 ? 'met' : `NOT met (${((rate / 3000) * 100).toFixed(0)}% of goal)`}; machine load average ${load.toFixed(1)} on ${(await import('node:os')).availableParallelism()} cores during the run`;
}

const childIndex = process.argv.indexOf('--child');
if (childIndex >= 0) {
	const [role, argument] = process.argv.slice(childIndex + 1);
	const run =
		role === 'import'
			? runImportChild(argument)
			: role === 'tiled'
				? runTiledChild()
				: role === 'pairs'
					? runPairsChild(argument)
					: runServeChild(argument);
	run.catch((error) => {
		console.error(error);
		process.exit(1);
	});
} else {
	main().catch((error) => {
		console.error(error);
		serverChild?.kill('SIGTERM');
		process.exit(1);
	});
}
