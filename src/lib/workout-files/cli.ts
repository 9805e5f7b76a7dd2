import { readFileSync, statSync, writeFileSync } from 'node:fs';
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
  npm run workout-file -- convert <file> --to gpx|tcx|fit [--out <file>]

Options may come in any order. Exit status: 0 done, 1 the file was refused (the reason is printed),
2 the command line or the file could not be used.`;

/** Prints one line on stderr and exits with `code` (2: the command line or the file is unusable). */
function fail(message: string, code = 2): never {
	process.stderr.write(`${message}\n`);
	process.exit(code);
}

interface Invocation {
	command: 'inspect' | 'convert';
	file: string;
	json: boolean;
	to?: 'gpx' | 'tcx' | 'fit';
	out?: string;
}

/** Reads the command line, options in any order; every mistake ends in one line on stderr. */
function parseCommandLine(argv: string[]): Invocation | 'help' {
	if (argv.includes('--help') || argv.includes('-h')) return 'help';
	const positional: string[] = [];
	const values: { to?: string; out?: string } = {};
	let json = false;
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === '--') {
			positional.push(...argv.slice(i + 1));
			break;
		}
		if (arg === '--json') {
			json = true;
			continue;
		}
		const option = /^--(to|out)(?:=(.*))?$/.exec(arg);
		if (option) {
			const name = option[1] as 'to' | 'out';
			const value = option[2] ?? argv[++i];
			if (value === undefined || value === '' || (option[2] === undefined && value.startsWith('-'))) {
				fail(name === 'to' ? '--to needs a value: gpx, tcx or fit.' : '--out needs a file name.');
			}
			values[name] = value;
			continue;
		}
		if (arg.startsWith('-') && arg !== '-') fail(`Unknown option "${arg}"; see --help.`);
		positional.push(arg);
	}
	const [command, file, ...extra] = positional;
	if (command === undefined) fail('Name a command, inspect or convert, and a file; see --help.');
	if (command !== 'inspect' && command !== 'convert') fail(`Unknown command "${command}"; see --help.`);
	if (file === undefined) fail(`Name the file to ${command}; see --help.`);
	if (extra.length > 0) fail(`Unexpected argument "${extra[0]}"; see --help.`);
	if (command === 'inspect') {
		if (values.to !== undefined || values.out !== undefined) fail('--to and --out belong to convert.');
		return { command, file, json };
	}
	if (json) fail('--json belongs to inspect.');
	const to = values.to;
	if (to === undefined) fail('convert needs --to gpx, --to tcx or --to fit.');
	if (to !== 'gpx' && to !== 'tcx' && to !== 'fit') fail(`--to takes gpx, tcx or fit, not "${to}".`);
	return { command, file, json, to, out: values.out };
}

/** The file's bytes, or one line saying why it cannot be read. */
function readInputFile(file: string): Uint8Array {
	let stats: ReturnType<typeof statSync>;
	try {
		stats = statSync(file);
	} catch (error) {
		fail(describeFileError(error, file));
	}
	if (stats.isDirectory()) fail(`${file} is a folder, not a file.`);
	try {
		return new Uint8Array(readFileSync(file));
	} catch (error) {
		fail(describeFileError(error, file));
	}
}

function describeFileError(error: unknown, file: string, use: 'read' | 'write' = 'read'): string {
	const code = (error as NodeJS.ErrnoException | undefined)?.code;
	if (code === 'EISDIR') return `${file} is a folder, not a file.`;
	if (code === 'EACCES' || code === 'EPERM') return `Not allowed to ${use} ${file}.`;
	if (code === 'ENOENT' || code === 'ENOTDIR') {
		return use === 'read' ? `No such file: ${file}` : `Cannot write ${file}: its folder does not exist.`;
	}
	return `Cannot ${use} ${file}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
}

async function main(argv: string[]): Promise<void> {
	const invocation = parseCommandLine(argv);
	if (invocation === 'help') {
		process.stdout.write(`${usage}\n`);
		return;
	}
	const { command, file } = invocation;
	const bytes = readInputFile(file);
	const workout = await readWorkoutFile(bytes, { fileName: file });
	if (command === 'inspect') {
		const metrics = computeMetrics(workout);
		const summary = summariseWorkout(workout, metrics);
		if (invocation.json) {
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
	const { to, out } = invocation;
	const written = to === 'gpx' ? writeGpx(workout) : to === 'tcx' ? writeTcx(workout) : writeFit(workout);
	if (out) {
		try {
			writeFileSync(out, written);
		} catch (error) {
			fail(describeFileError(error, out, 'write'));
		}
	} else if (typeof written === 'string') process.stdout.write(written);
	else if (process.stdout.isTTY) fail('FIT is binary: pass --out <file> or redirect the output.');
	else process.stdout.write(written);
}

// A reader that stops early (`| head`) closes the pipe; that is not a failure.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
	if (error.code === 'EPIPE') process.exit(0);
	fail(describeFileError(error, 'the output', 'write'));
});

main(process.argv.slice(2)).catch((error: unknown) => {
	if (error instanceof WorkoutFileError) fail(`${error.code}: ${error.message}`, 1);
	fail(error instanceof Error ? (error.stack ?? error.message) : String(error), 3);
});
