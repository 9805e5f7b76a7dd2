import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { readWorkoutFileSync, summariseWorkout } from '~/lib/workout-files/index';
import { encode, fixtureDir, loadFixture } from './fixtures';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));
const tsx = join(root, 'node_modules/.bin/tsx');
const cli = join(root, 'src/lib/workout-files/cli.ts');
const scratch = mkdtempSync(join(tmpdir(), 'workout-file-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function workoutFile(...args: string[]) {
	try {
		const { stdout, stderr } = await run(tsx, [cli, ...args], {
			cwd: root,
			encoding: 'buffer',
			maxBuffer: 64 * 1024 * 1024,
		});
		return { code: 0, stdout, stderr: stderr.toString() };
	} catch (error) {
		const e = error as { code: number; stdout: Buffer; stderr: Buffer };
		return { code: e.code, stdout: e.stdout, stderr: e.stderr.toString() };
	}
}

describe('workout-file CLI', () => {
	const file = `${fixtureDir}fit/Edge810-Vector-2013-08-16-15-35-10.fit`;

	it('inspect --json prints the normalised summary', async () => {
		const { code, stdout } = await workoutFile('inspect', file, '--json');
		expect(code).toBe(0);
		const printed = JSON.parse(stdout.toString());
		expect(printed).toEqual(
			summariseWorkout(readWorkoutFileSync(loadFixture('fit/Edge810-Vector-2013-08-16-15-35-10.fit'))),
		);
		expect(printed.start_time).toBe('2013-08-16T18:05:10+00:00');
		expect(Object.keys(printed)).toEqual(
			expect.arrayContaining([
				'format',
				'start_time',
				'elapsed_s',
				'moving_s',
				'distance_m',
				'device_distance_m',
				'point_count',
				'elevation_gain_m',
				'elevation_loss_m',
				'heart_rate',
				'bbox',
			]),
		);
	});

	it('inspect prints a readable summary', async () => {
		const { code, stdout } = await workoutFile(
			'inspect',
			`${fixtureDir}tcx/multiple_running_activities.tcx.gz`,
		);
		expect(code).toBe(0);
		const text = stdout.toString();
		expect(text).toMatch(/^format\s+tcx \(in gzip\)$/m);
		expect(text).toMatch(/^start_time\s+2014-12-26T10:00:39\+00:00$/m);
		expect(text).toMatch(/^heart_rate\s+min 113, avg 176\.7, max 181$/m);
		expect(text).toMatch(/only the first was read/);
	});

	it('convert --to gpx writes a GPX we read back to the same points', async () => {
		const { code, stdout } = await workoutFile('convert', file, '--to', 'gpx');
		expect(code).toBe(0);
		const back = readWorkoutFileSync(new Uint8Array(stdout));
		expect(back.format).toBe('gpx');
		expect(back.points).toEqual(
			readWorkoutFileSync(loadFixture('fit/Edge810-Vector-2013-08-16-15-35-10.fit')).points,
		);
		const tcx = await workoutFile('convert', file, '--to', 'tcx', '--out', join(scratch, 'out.tcx'));
		expect(tcx.code).toBe(0);
	});

	it('answers a refused file with its code and message and exit status 1', async () => {
		const bad = join(scratch, 'bad.gpx');
		const { writeFileSync } = await import('node:fs');
		writeFileSync(bad, encode('<!DOCTYPE gpx><gpx/>'));
		const { code, stderr } = await workoutFile('inspect', bad);
		expect(code).toBe(1);
		expect(stderr).toMatch(/^doctype_not_allowed: /);
		const unknown = await workoutFile('frobnicate', bad);
		expect(unknown.code).toBe(2);
		expect(unknown.stderr).toMatch(/^Unknown command "frobnicate".*--help/);
	});

	it('takes its options in any order', async () => {
		const expected = summariseWorkout(
			readWorkoutFileSync(loadFixture('fit/Edge810-Vector-2013-08-16-15-35-10.fit')),
		);
		const jsonFirst = await workoutFile('inspect', '--json', file);
		expect(jsonFirst.code).toBe(0);
		expect(JSON.parse(jsonFirst.stdout.toString())).toEqual(expected);
		const out = join(scratch, 'any-order.gpx');
		const converted = await workoutFile('convert', '--out', out, '--to=gpx', file);
		expect(converted.code).toBe(0);
		expect(readWorkoutFileSync(new Uint8Array(readFileSync(out))).points).toHaveLength(expected.point_count);
	});

	it('stops quietly when the reader of its output closes the pipe early', async () => {
		const child = spawn(tsx, [cli, 'convert', file, '--to', 'gpx'], { cwd: root });
		let stderr = '';
		child.stderr.on('data', (chunk: Buffer) => {
			stderr += chunk.toString();
		});
		child.stdout.once('data', () => child.stdout.destroy());
		const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
		expect(stderr).toBe('');
		expect(code).toBe(0);
	});

	/** One line on stderr, no stack trace, and the status given. */
	function expectOneLine(result: { code: number; stderr: string }, code: number, message: RegExp) {
		expect(result.code).toBe(code);
		expect(result.stderr).toMatch(message);
		expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
		expect(result.stderr).not.toMatch(/\bat .*:\d+:\d+/);
	}

	it('answers a missing file, a folder and an unknown option in one line, and --help with usage', async () => {
		expectOneLine(await workoutFile('inspect', join(scratch, 'nowhere.fit')), 2, /no such file/i);
		expectOneLine(await workoutFile('inspect', scratch), 2, /is a folder/);
		expectOneLine(await workoutFile('inspect', file, '--frobnicate'), 2, /^Unknown option "--frobnicate"/);
		expectOneLine(await workoutFile('convert', file, '--to', 'kml'), 2, /gpx, tcx or fit/);
		expectOneLine(await workoutFile('convert', file, '--to'), 2, /--to needs a value/);
		expectOneLine(await workoutFile('inspect'), 2, /file/);
		const help = await workoutFile('--help');
		expect(help.code).toBe(0);
		expect(help.stdout.toString()).toMatch(/^Usage:/);
		expect(help.stdout.toString()).toMatch(/convert <file> --to gpx\|tcx\|fit/);
		expect((await workoutFile('convert', file, '--help')).code).toBe(0);
	});
});
