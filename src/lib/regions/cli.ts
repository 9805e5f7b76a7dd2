import { parseArgs } from 'node:util';
import { getConfig } from '../core/config';
import { getAddedRegionsDir, listRegions } from './server/catalogue';
import { type AddProgress, addRegion, RegionError, removeRegion } from './server/manage';

const USAGE = `Usage:
  npm run regions -- add <extract.osm.pbf | .osm | .osm.gz | https://… URL> [--name <name>]
  npm run regions -- list
  npm run regions -- remove <name>

Adds any OpenStreetMap extract (a Geofabrik or BBBike download, say) to the map, the route planner
and place search, and fetches its heights when ELEVATION_URL is set. Regions live in
$DATA_DIR/regions (now ${getAddedRegionsDir(getConfig().dataDir)}); a running server picks up an
added, replaced or removed region within a few seconds, without a restart.`;

const STAGE_NAMES: Record<AddProgress['stage'], string> = {
	download: 'downloading',
	copy: 'copying',
	read: 'reading',
	build: 'building routing graphs',
	map: 'building the base map',
	heights: 'fetching heights',
	install: 'installing',
};

function formatBytes(bytes: number): string {
	if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(2)} GB`;
	if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
	return `${(bytes / 1e3).toFixed(0)} kB`;
}

function formatDuration(seconds: number): string {
	const s = Math.max(0, Math.round(seconds));
	return s >= 3600
		? `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`
		: `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** Progress on one rewritten line at a terminal, and a line every few seconds in a log. */
function createProgressPrinter(): (progress: AddProgress) => void {
	const tty = process.stdout.isTTY;
	let stage: AddProgress['stage'] | null = null;
	let stageStarted = 0;
	let lastPrinted = 0;
	return (progress) => {
		const now = performance.now();
		const newStage = progress.stage !== stage;
		if (newStage) {
			if (tty && stage) process.stdout.write('\n');
			stage = progress.stage;
			stageStarted = now;
		}
		if (!newStage && now - lastPrinted < (tty ? 200 : 5000)) return;
		lastPrinted = now;
		const parts = [STAGE_NAMES[progress.stage]];
		const unitIsTiles = progress.stage === 'heights';
		if (progress.total) {
			const share = progress.done / progress.total;
			parts.push(
				unitIsTiles
					? `${progress.done} of ${progress.total} tiles`
					: `${formatBytes(progress.done)} of ${formatBytes(progress.total)} (${Math.floor(share * 100)} %)`,
			);
			const elapsed = (now - stageStarted) / 1000;
			if (share > 0.02 && share < 1 && elapsed > 1)
				parts.push(`${formatDuration((elapsed / share) * (1 - share))} left`);
		} else if (progress.done) parts.push(formatBytes(progress.done));
		if (progress.nodes)
			parts.push(`${progress.nodes.toLocaleString('en')} nodes, ${progress.ways.toLocaleString('en')} ways`);
		const line = parts.join(' · ');
		if (tty) process.stdout.write(`\r\x1b[2K${line}`);
		else console.log(line);
	};
}

async function main(): Promise<number> {
	const { positionals, values } = parseArgs({
		allowPositionals: true,
		options: { name: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
	});
	const [command, argument] = positionals;
	const config = getConfig();
	if (values.help || !command) {
		console.log(USAGE);
		return command || values.help ? 0 : 1;
	}
	if (command === 'list') {
		const regions = listRegions(config.dataDir);
		for (const region of regions) {
			const kind = region.bundled ? 'bundled demo' : 'added';
			const m = region.manifest;
			const detail = m
				? `${m.roadNodes.toLocaleString('en')} road nodes, ${m.places.toLocaleString('en')} places, bounds ${m.bounds.map((value) => value.toFixed(3)).join(', ')}, added ${m.addedAt.slice(0, 16).replace('T', ' ')} from ${m.source}`
				: '';
			console.log(
				`${region.name.padEnd(24)} ${kind.padEnd(13)} ${formatBytes(region.bytes).padStart(9)}  ${detail}`,
			);
		}
		return 0;
	}
	if (command === 'add' && argument) {
		const started = performance.now();
		const printer = createProgressPrinter();
		const manifest = await addRegion({
			source: argument,
			name: values.name,
			dataDir: config.dataDir,
			elevationUrl: config.elevationUrl ?? null,
			onProgress: printer,
		});
		if (process.stdout.isTTY) process.stdout.write('\n');
		console.log(
			`Added ${manifest.name}: ${formatBytes(manifest.bytes)}, ${manifest.nodes.toLocaleString('en')} nodes, ${manifest.ways.toLocaleString('en')} ways, ${manifest.roadNodes.toLocaleString('en')} road nodes, ${manifest.places.toLocaleString('en')} places, ${manifest.mapFeatures.toLocaleString('en')} map features, in ${formatDuration((performance.now() - started) / 1000)}.`,
		);
		if (manifest.heights) {
			const { tiles, fetched, present, failed } = manifest.heights;
			console.log(
				`Heights: ${tiles} elevation tiles under its roads, ${present} already here, ${fetched} fetched${failed.length ? `, ${failed.length} failed (${failed.map((f) => `${f.tile}: ${f.reason}`).join('; ')}); the server asks for those again when a route needs them` : ''}.`,
			);
		} else {
			console.log(
				'Heights: ELEVATION_URL is not set, so only the bundled elevation tiles give heights here.',
			);
		}
		console.log('A running server loads it within a few seconds; a server started later loads it at start.');
		return 0;
	}
	if (command === 'remove' && argument) {
		const removed = await removeRegion(config.dataDir, argument);
		console.log(
			`Removed ${argument} (${removed.length} files). A running server drops it within a few seconds.`,
		);
		return 0;
	}
	console.error(USAGE);
	return 1;
}

main().then(
	(code) => {
		process.exitCode = code;
	},
	(error) => {
		if (process.stdout.isTTY) process.stdout.write('\n');
		if (error instanceof RegionError) {
			console.error(`${error.message} Nothing was changed.`);
			process.exitCode = 2;
		} else {
			console.error(error);
			process.exitCode = 1;
		}
	},
);
