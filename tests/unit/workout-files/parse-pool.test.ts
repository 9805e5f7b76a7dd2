import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../src/lib/core/errors';
import { readWorkoutFileSync, WorkoutFileError } from '../../../src/lib/workout-files';
import { createParsePool, type ParsePool } from '../../../src/lib/workout-files/server/parse-pool';
import { makeBombs } from '../../helpers/bombs';

const gpx = readFileSync('tests/fixtures/workouts/gpx/Mojstrovka.gpx');
const pools: ParsePool[] = [];
const pool = (options: Parameters<typeof createParsePool>[0]) => {
	const made = createParsePool(options);
	pools.push(made);
	return made;
};
afterAll(() => Promise.all(pools.map((made) => made.close())));

async function rejection(promise: Promise<unknown>): Promise<unknown> {
	try {
		await promise;
	} catch (error) {
		return error;
	}
	throw new Error('the read succeeded');
}

describe('the upload parse pool', () => {
	it('reads a file on a thread into the same workout as an in-process read', async () => {
		const workout = await pool({ threads: 1 }).readWorkoutFile(gpx);
		expect(workout).toEqual(readWorkoutFileSync(gpx));
	}, 30_000);

	it('hands a refusal back as a WorkoutFileError with its code and message', async () => {
		const { gzip } = makeBombs(8 * 1024 * 1024);
		const error = await rejection(
			pool({ threads: 1 }).readWorkoutFile(gzip, { limits: { maxDecompressedBytes: 1024 * 1024 } }),
		);
		expect(error).toBeInstanceOf(WorkoutFileError);
		expect(error).toMatchObject({
			code: 'too_large',
			status: 413,
			message: 'This file unpacks to more than 1 MB, more than we accept.',
		});
	}, 30_000);

	it('answers 503 with Retry-After at once when every thread is busy and the waiting line is full', async () => {
		const busy = pool({ threads: 1, maxWaiting: 1 });
		const first = busy.readWorkoutFile(gpx);
		const second = busy.readWorkoutFile(gpx);
		expect(busy.load()).toEqual({ running: 1, waiting: 1 });
		const error = await rejection(busy.readWorkoutFile(gpx));
		expect(error).toBeInstanceOf(AppError);
		expect(error).toMatchObject({ code: 'unavailable', status: 503, headers: { 'Retry-After': '5' } });
		await expect(Promise.all([first, second])).resolves.toHaveLength(2);
		expect(busy.load()).toEqual({ running: 0, waiting: 0 });
	}, 30_000);

	it('stops a read that passes the time limit and frees its thread', async () => {
		const slow = pool({ threads: 1, taskTimeoutMs: 1 });
		const error = await rejection(slow.readWorkoutFile(gpx));
		expect(error).toBeInstanceOf(WorkoutFileError);
		expect(error).toMatchObject({
			code: 'too_large',
			message: 'This file takes longer than 0.001 seconds to read, more than we allow.',
		});
		expect(slow.load()).toEqual({ running: 0, waiting: 0 });
	}, 30_000);
});
