import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { writeRegionCache } from './cache.ts';
import { ElevationSource } from './elevation.ts';
import { RoutingError } from './engine.ts';
import { readOsmFile } from './osm/read.ts';
import { buildRegion, measureRegionBytes } from './region.ts';
import { countRoadNodes, getRegionName, loadEngine, loadRegion } from './server/regions.ts';
import { MODES, type Mode } from './tags.ts';

const USAGE = `Usage:
  npm run routing -- import <extract.osm.pbf|.osm|.osm.gz> [--dem <folder>] [--cache <dir>] [--force]
  npm run routing -- route <lat,lng> <lat,lng> [<lat,lng> …] [--mode pedestrian|bicycle|auto] [--units miles]
                          [--avoid-highways] [--regions <dir>] [--cache <dir>]
  npm run routing -- search <text> [--regions <dir>] [--cache <dir>]

Defaults: --regions ./data-regions, --cache $DATA_DIR/routing-cache (./data/routing-cache).`;

function parsePoint(text: string): { lat: number; lon: number } {
	const [lat, lon] = text.split(',').map(Number);
	if (!Number.isFinite(lat) || !Number.isFinite(lon)) throw new Error(`Not a lat,lng point: ${text}`);
	return { lat, lon };
}

async function runImport(
	file: string,
	values: Record<string, string | boolean | undefined>,
	cacheDir: string,
) {
	const path = resolve(file);
	const started = performance.now();
	let region: Awaited<ReturnType<typeof loadRegion>>['region'];
	if (values.force) {
		const osm = await readOsmFile(path);
		region = buildRegion(getRegionName(path), osm);
		region.roadNodeCount = countRoadNodes(region);
		const { createHash } = await import('node:crypto');
		const { readFileSync } = await import('node:fs');
		const { CACHE_VERSION } = await import('./cache.ts');
		const hash = createHash('sha256').update(readFileSync(path)).digest('hex');
		writeRegionCache(join(cacheDir, `${region.name}-${hash.slice(0, 16)}-v${CACHE_VERSION}.graph`), region);
		console.log(`Built ${region.name} in ${((performance.now() - started) / 1000).toFixed(2)} s`);
	} else {
		const loaded = await loadRegion(path, cacheDir, (message) => console.log(message));
		region = loaded.region;
		console.log(
			`${loaded.fromCache ? 'Loaded from cache' : 'Built'} ${region.name} in ${(loaded.ms / 1000).toFixed(2)} s`,
		);
	}
	const graph = region.graph;
	const bytes = measureRegionBytes(region);
	console.log(`  road nodes     ${region.roadNodeCount.toLocaleString('en')}`);
	console.log(`  junctions      ${graph.junctionCount.toLocaleString('en')}`);
	console.log(`  segments       ${graph.segmentCount.toLocaleString('en')}`);
	MODES.forEach((mode, m) => {
		console.log(
			`  ${mode.padEnd(14)} ${region.hierarchies[m].head.length.toLocaleString('en')} hierarchy edges`,
		);
	});
	console.log(`  named features ${region.features.length.toLocaleString('en')}`);
	console.log(
		`  memory         ${(bytes / 1e6).toFixed(2)} MB, ${(bytes / region.roadNodeCount).toFixed(1)} bytes per road node`,
	);
	console.log(`  bounds         ${Array.from(graph.bbox).join(', ')}`);
	if (typeof values.dem === 'string') {
		const elevation = new ElevationSource([resolve(values.dem)]);
		let known = 0;
		const step = Math.max(1, Math.floor(graph.shapeLat.length / 2000));
		let sampled = 0;
		for (let i = 0; i < graph.shapeLat.length; i += step) {
			sampled++;
			if (elevation.getHeight(graph.shapeLat[i] / 1e6, graph.shapeLon[i] / 1e6) !== null) known++;
		}
		console.log(
			`  elevation      ${((known / sampled) * 100).toFixed(1)}% of sampled road points have a height`,
		);
	}
}

async function main(): Promise<number> {
	const { positionals, values } = parseArgs({
		allowPositionals: true,
		options: {
			dem: { type: 'string' },
			cache: { type: 'string' },
			regions: { type: 'string' },
			mode: { type: 'string', default: 'auto' },
			units: { type: 'string', default: 'kilometers' },
			force: { type: 'boolean' },
			'avoid-highways': { type: 'boolean' },
			help: { type: 'boolean' },
		},
	});
	const [command, ...rest] = positionals;
	const cacheDir = resolve(values.cache ?? join(process.env.DATA_DIR ?? 'data', 'routing-cache'));
	const regionsDir = resolve(values.regions ?? 'data-regions');
	if (values.help || !command) {
		console.log(USAGE);
		return command ? 0 : 1;
	}
	if (command === 'import') {
		if (rest.length !== 1) throw new Error('import takes one extract');
		await runImport(rest[0], values, cacheDir);
		return 0;
	}
	if (command === 'route') {
		if (rest.length < 2) throw new Error('route takes at least two lat,lng points');
		const mode = values.mode as Mode;
		if (!MODES.includes(mode)) throw new Error(`--mode must be one of ${MODES.join(', ')}`);
		const engine = await loadEngine({ regionsDir, cacheDir, log: (message) => console.error(message) });
		const started = performance.now();
		const response = engine.route({
			locations: rest.map(parsePoint),
			costing: mode,
			directions_options: { units: values.units === 'miles' ? 'miles' : 'kilometers' },
			avoid_highways: values['avoid-highways'] === true,
		});
		const ms = performance.now() - started;
		const { summary, units } = response.trip;
		const unit = units === 'miles' ? 'mi' : 'km';
		console.log(
			`${mode}: ${summary.length.toFixed(2)} ${unit}, ${(summary.time / 60).toFixed(1)} min (answered in ${ms.toFixed(1)} ms)`,
		);
		response.trip.legs.forEach((leg, i) => {
			if (response.trip.legs.length > 1)
				console.log(`Leg ${i + 1}: ${leg.summary.length.toFixed(2)} ${unit}`);
			for (const maneuver of leg.maneuvers) {
				const length = maneuver.length > 0 ? ` (${maneuver.length.toFixed(2)} ${unit})` : '';
				console.log(`  ${maneuver.instruction}${length}`);
			}
		});
		return 0;
	}
	if (command === 'search') {
		const engine = await loadEngine({ regionsDir, cacheDir });
		const result = engine.searchGeocode(rest.join(' '), 10);
		for (const feature of result.features) {
			const [lon, lat] = feature.geometry.coordinates;
			console.log(`${feature.properties.display_name} (${feature.properties.type}) ${lat},${lon}`);
		}
		return 0;
	}
	console.error(USAGE);
	return 1;
}

main().then(
	(code) => {
		process.exitCode = code;
	},
	(error: unknown) => {
		if (error instanceof RoutingError) console.error(`Error ${error.code}: ${error.message}`);
		else console.error(error instanceof Error ? error.message : error);
		process.exitCode = 1;
	},
);
