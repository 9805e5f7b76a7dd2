import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { addRegion } from '../../../src/lib/regions/server/manage.ts';
import { loadEngine } from '../../../src/lib/routing/server/regions.ts';
import { MODES } from '../../../src/lib/routing/tags.ts';

// What a region costs an operator: `npm run regions -- add` time and peak memory, and the memory of a
// process serving it (after loading, and while routing), for the bundled extracts, extracts named in
// REGIONS_BENCH_EXTRACTS (comma-separated paths; ones no test or demo uses), and the tiled Andorra
// graphs of ../shared/tools/tile_osm.py at --n 5 (≈ 1 M nodes) and --n 10 (≈ 4 M nodes).
// Each import and each serving process runs in a child of its own, so its peak is its own.

const ROOT = join(import.meta.dirname, '../../..');
const TOOLS = join(ROOT, '../shared/tools');
const SHARED_ANDORRA = join(ROOT, '../shared/data/osm/andorra.osm.pbf');
const WORK = join(ROOT, 'data/bench');
const ROUTES = 500;

const mb = (bytes: number) => bytes / 1024 / 1024;
const peakRssMb = () => process.resourceUsage().maxRSS / 1024;

async function childAdd(extract: string, dataDir: string) {
	const started = performance.now();
	const manifest = await addRegion({ source: extract, dataDir, name: 'bench' });
	console.log(
		JSON.stringify({
			seconds: (performance.now() - started) / 1000,
			peakRssMb: peakRssMb(),
			nodes: manifest.nodes,
			ways: manifest.ways,
			roadNodes: manifest.roadNodes,
			bytes: manifest.bytes,
		}),
	);
}

async function childServe(dataDir: string) {
	const baseline = process.memoryUsage().rss;
	const started = performance.now();
	const engine = await loadEngine({
		regionsDir: [join(dataDir, 'regions')],
		cacheDir: join(dataDir, 'routing-cache'),
		warmRoutes: 0,
	});
	const loadMs = performance.now() - started;
	const afterLoad = process.memoryUsage().rss;
	const region = engine.regions[0];
	const { shapeLat, shapeLon } = region.graph;
	let seed = 42;
	const next = () => {
		seed = (seed * 1103515245 + 12345) % 2147483648;
		return seed / 2147483648;
	};
	const pick = () => {
		const k = Math.floor(next() * shapeLat.length);
		return { lat: shapeLat[k] / 1e6, lon: shapeLon[k] / 1e6 };
	};
	const times: number[] = [];
	for (let i = 0; i < ROUTES; i++) {
		const costing = MODES[i % MODES.length];
		const t = performance.now();
		try {
			engine.route({ locations: [pick(), pick()], costing });
		} catch {
			// Points a mode cannot join are part of a fair sample too.
		}
		times.push(performance.now() - t);
	}
	times.sort((a, b) => a - b);
	console.log(
		JSON.stringify({
			loadMs,
			baselineMb: mb(baseline),
			afterLoadMb: mb(afterLoad),
			routingMb: mb(process.memoryUsage().rss),
			peakRssMb: peakRssMb(),
			p50: times[Math.floor(times.length * 0.5)],
			p95: times[Math.floor(times.length * 0.95)],
		}),
	);
}

function runChild(args: string[]): Promise<Record<string, number>> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, '--child', ...args], {
			cwd: ROOT,
			stdio: ['ignore', 'pipe', 'inherit'],
			env: { ...process.env, LOG_LEVEL: 'silent' },
		});
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => {
			output += chunk.toString();
		});
		child.on('error', reject);
		child.on('exit', (code) =>
			code === 0
				? resolve(JSON.parse(output.trim().split('\n').at(-1) ?? '{}'))
				: reject(new Error(`child ${args[0]} exited ${code}`)),
		);
	});
}

/** The tiled Andorra graphs, made once into data/bench (needs Debian's python3-pyosmium). */
function prepareTiled(): { label: string; path: string }[] {
	if (!existsSync(TOOLS) || !existsSync(SHARED_ANDORRA)) {
		console.log('  (tiled graphs skipped: ../shared/tools or ../shared/data is not beside this checkout)');
		return [];
	}
	if (spawnSync('/usr/bin/python3', ['-c', 'import osmium']).status !== 0) {
		console.log('  (tiled graphs skipped: apt-get install -y python3-pyosmium)');
		return [];
	}
	mkdirSync(WORK, { recursive: true });
	return [5, 10].map((n) => {
		const path = join(WORK, `andorra-${n}x${n}.osm.pbf`);
		if (!existsSync(path)) {
			const made = spawnSync(
				'/usr/bin/python3',
				[join(TOOLS, 'tile_osm.py'), SHARED_ANDORRA, path, '--n', String(n)],
				{
					encoding: 'utf8',
				},
			);
			if (made.status !== 0) throw new Error(`tile_osm.py --n ${n} failed: ${made.stderr}`);
		}
		return { label: `tiled Andorra --n ${n}`, path };
	});
}

async function main() {
	const extracts = [
		...['andorra.osm.pbf', 'monaco.osm.gz', 'harrisburg.osm.pbf'].map((file) => ({
			label: `bundled ${file}`,
			path: join(ROOT, 'data-regions', file),
		})),
		...(process.env.REGIONS_BENCH_EXTRACTS ?? '')
			.split(',')
			.filter(Boolean)
			.map((path) => ({ label: basename(path), path })),
		...prepareTiled(),
	];
	const [one, five, fifteen] = loadavg();
	console.log(
		`regions: import with \`npm run regions -- add\`, then a process that loads it and answers ${ROUTES} random routes (load average ${one.toFixed(2)} ${five.toFixed(2)} ${fifteen.toFixed(2)})`,
	);
	console.log(
		'extract                          size     nodes      road nodes  import  import peak  load   RSS loaded  RSS routing  route p50 / p95',
	);
	for (const extract of extracts) {
		const dataDir = mkdtempSync(join(tmpdir(), 'mapstride-regions-bench-'));
		try {
			const added = await runChild(['add', extract.path, dataDir]);
			const served = await runChild(['serve', dataDir]);
			console.log(
				[
					extract.label.padEnd(30),
					`${(added.bytes / 1e6).toFixed(1)} MB`.padStart(8),
					added.nodes.toLocaleString('en').padStart(10),
					added.roadNodes.toLocaleString('en').padStart(12),
					`${added.seconds.toFixed(1)} s`.padStart(8),
					`${added.peakRssMb.toFixed(0)} MB`.padStart(11),
					`${(served.loadMs / 1000).toFixed(2)} s`.padStart(7),
					`${served.afterLoadMb.toFixed(0)} MB`.padStart(10),
					`${served.routingMb.toFixed(0)} MB`.padStart(11),
					`${served.p50.toFixed(2)} / ${served.p95.toFixed(2)} ms`.padStart(18),
				].join('  '),
			);
		} finally {
			rmSync(dataDir, { recursive: true, force: true });
		}
	}
	const [after] = loadavg();
	console.log(
		`  (load average at the end ${after.toFixed(2)}; an empty process holds about ${(await runChild(['baseline'])).rssMb.toFixed(0)} MB)`,
	);
}

const args = process.argv.slice(2);
if (args[0] === '--child') {
	if (args[1] === 'add') await childAdd(args[2], args[3]);
	else if (args[1] === 'serve') await childServe(args[2]);
	else console.log(JSON.stringify({ rssMb: mb(process.memoryUsage().rss) }));
} else await main();
