import { readFileSync, writeFileSync } from 'node:fs';
import {
	computeMetrics,
	readWorkoutFile,
	summariseWorkout,
	WorkoutFileError,
	writeFit,
	writeGpx,
	writeTcx,
} from './index';

const usage = `Usage:
  npm run workout-file -- inspect <file> [--json]
  npm run workout-file -- convert <file> --to gpx|tcx|fit [--out <file>]`;

function fail(message: string, code = 2): never {
	process.stderr.write(`${message}\n`);
	process.exit(code);
}

async function main(argv: string[]): Promise<void> {
	const [command, file, ...rest] = argv;
	if (!command || !file || (command !== 'inspect' && command !== 'convert')) fail(usage);
	const bytes = new Uint8Array(readFileSync(file));
	const workout = await readWorkoutFile(bytes, { fileName: file });
	if (command === 'inspect') {
		const metrics = computeMetrics(workout);
		const summary = summariseWorkout(workout, metrics);
		if (rest.includes('--json')) {
			process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
			return;
		}
		const hr = summary.heart_rate;
		const lines: Array<[string, unknown]> = [
			[
				'format',
				summary.container === 'none' ? summary.format : `${summary.format} (in ${summary.container})`,
			],
			['activity_type', `${summary.activity_type}${summary.sport ? ` (${summary.sport})` : ''}`],
			['start_time', summary.start_time ?? 'null'],
			['elapsed_s', summary.elapsed_s],
			['moving_s', summary.moving_s],
			['distance_m', summary.distance_m],
			...(summary.device_distance_m === undefined
				? []
				: ([['device_distance_m', summary.device_distance_m]] as Array<[string, unknown]>)),
			['point_count', summary.point_count],
			['elevation_gain_m', summary.elevation_gain_m],
			['elevation_loss_m', summary.elevation_loss_m],
			['heart_rate', hr ? `min ${hr.min}, avg ${hr.avg}, max ${hr.max}` : 'null'],
			['bbox', summary.bbox ? `[${summary.bbox.join(', ')}]` : 'null'],
		];
		for (const [key, value] of lines) process.stdout.write(`${key.padEnd(18)} ${value}\n`);
		for (const warning of workout.warnings) process.stdout.write(`note               ${warning}\n`);
		return;
	}
	const toAt = rest.indexOf('--to');
	const to = toAt >= 0 ? rest[toAt + 1] : undefined;
	if (to !== 'gpx' && to !== 'tcx' && to !== 'fit') fail(usage);
	const outAt = rest.indexOf('--out');
	const out = outAt >= 0 ? rest[outAt + 1] : undefined;
	const written = to === 'gpx' ? writeGpx(workout) : to === 'tcx' ? writeTcx(workout) : writeFit(workout);
	if (out) writeFileSync(out, written);
	else if (typeof written === 'string') process.stdout.write(written);
	else if (process.stdout.isTTY) fail('FIT is binary: pass --out <file> or redirect the output.');
	else process.stdout.write(written);
}

main(process.argv.slice(2)).catch((error: unknown) => {
	if (error instanceof WorkoutFileError) fail(`${error.code}: ${error.message}`, 1);
	fail(error instanceof Error ? (error.stack ?? error.message) : String(error), 3);
});
