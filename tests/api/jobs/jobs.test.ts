import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { AppDeps } from '../../../src/lib/core/server/deps';
import { listenToPostgres } from '../../../src/lib/db/client';
import {
	enqueueJob,
	getJob,
	type JobDefinitions,
	pruneFinishedJobs,
	runDueJobs,
	scheduledJobKey,
	startJobWorker,
} from '../../../src/lib/jobs/server/service';
import { jobs } from '../../../src/lib/jobs/server/tables';
import { createTestClock, createTestDeps } from '../../helpers/app';
import { openTestDb, TEST_DB_KIND, type TestDatabase } from '../../helpers/db';
import { workerDatabaseUrl } from '../../helpers/worker-database';

let database: TestDatabase;
let deps: AppDeps;
let clock: ReturnType<typeof createTestClock>;
let done: string[];

/** A job kind that records what it did, and one that fails until told otherwise. */
let failuresLeft = 0;
const definitions: JobDefinitions = {
	'test.record': { run: async (payload) => void done.push(String(payload.name)) },
	'test.flaky': {
		maxAttempts: 3,
		run: async (payload) => {
			if (failuresLeft > 0) {
				failuresLeft--;
				throw new Error('the far side is down');
			}
			done.push(String(payload.name));
		},
	},
};

beforeAll(async () => {
	database = await openTestDb();
});
beforeEach(async () => {
	await database.reset();
	clock = createTestClock();
	deps = createTestDeps(database.db, { clock });
	done = [];
	failuresLeft = 0;
});
afterAll(async () => {
	await database.close();
});

describe('the job queue', () => {
	test('a unique key queues one job however often it is asked for', async () => {
		const first = await enqueueJob(deps, {
			kind: 'test.record',
			payload: { name: 'a' },
			uniqueKey: 'export:1',
		});
		const second = await enqueueJob(deps, {
			kind: 'test.record',
			payload: { name: 'b' },
			uniqueKey: 'export:1',
		});
		expect(first.created).toBe(true);
		expect(second).toEqual({ id: first.id, created: false });
		expect(await runDueJobs(deps, definitions)).toBe(1);
		expect(done).toEqual(['a']);
		expect((await getJob(deps, first.id))?.status).toBe('done');
	});

	test('a job waits for its time, and runs once however often the queue is read', async () => {
		await enqueueJob(deps, {
			kind: 'test.record',
			payload: { name: 'later' },
			runAt: new Date(clock().getTime() + 60_000),
		});
		await enqueueJob(deps, { kind: 'test.record', payload: { name: 'now' } });
		expect(await runDueJobs(deps, definitions)).toBe(1);
		expect(await runDueJobs(deps, definitions)).toBe(0);
		clock.advance(61);
		expect(await runDueJobs(deps, definitions)).toBe(1);
		expect(done).toEqual(['now', 'later']);
	});

	test('a failing job is tried again after a pause, and marked failed when its tries are used up', async () => {
		failuresLeft = 1;
		const kept = await enqueueJob(deps, { kind: 'test.flaky', payload: { name: 'second try' } });
		await runDueJobs(deps, definitions);
		const afterFirst = await getJob(deps, kept.id);
		expect(afterFirst).toMatchObject({ status: 'queued', attempts: 1, lastError: 'the far side is down' });
		expect(await runDueJobs(deps, definitions)).toBe(0);
		clock.advance(31);
		await runDueJobs(deps, definitions);
		expect(done).toEqual(['second try']);
		expect((await getJob(deps, kept.id))?.status).toBe('done');

		failuresLeft = 10;
		const doomed = await enqueueJob(deps, { kind: 'test.flaky', payload: { name: 'never' } });
		for (let i = 0; i < 5; i++) {
			await runDueJobs(deps, definitions);
			clock.advance(3600);
		}
		expect(await getJob(deps, doomed.id)).toMatchObject({ status: 'failed', attempts: 3 });
		expect(done).toEqual(['second try']);
	});

	test('a job left running by a process that died is claimed again once its lease runs out', async () => {
		const { id } = await enqueueJob(deps, { kind: 'test.record', payload: { name: 'survivor' } });
		// What a crash leaves: the job claimed, its lease still running.
		await database.db
			.update(jobs)
			.set({ status: 'running', attempts: 1, leaseUntil: new Date(clock().getTime() + 600_000) });
		expect(await runDueJobs(deps, definitions)).toBe(0);
		clock.advance(601);
		expect(await runDueJobs(deps, definitions)).toBe(1);
		expect(done).toEqual(['survivor']);
		expect(await getJob(deps, id)).toMatchObject({ status: 'done', attempts: 2 });
	});

	test('queues read at the same time run each job once', async () => {
		for (let i = 0; i < 12; i++)
			await enqueueJob(deps, { kind: 'test.record', payload: { name: `job ${i}` } });
		const counts = await Promise.all([runDueJobs(deps, definitions), runDueJobs(deps, definitions)]);
		expect(counts[0] + counts[1]).toBe(12);
		expect(done.toSorted()).toEqual(Array.from({ length: 12 }, (_, i) => `job ${i}`).toSorted());
	});

	test('jobs of kinds this process does not know are left for a process that does', async () => {
		const { id } = await enqueueJob(deps, { kind: 'elsewhere.only', payload: {} });
		expect(await runDueJobs(deps, definitions)).toBe(0);
		expect((await getJob(deps, id))?.status).toBe('queued');
	});

	test('finished jobs are forgotten after a week, failed ones are kept', async () => {
		await enqueueJob(deps, { kind: 'test.record', payload: { name: 'old' } });
		failuresLeft = 10;
		const failed = await enqueueJob(deps, { kind: 'test.flaky', payload: { name: 'x' }, maxAttempts: 1 });
		await runDueJobs(deps, {
			...definitions,
			'test.flaky': { ...definitions['test.flaky'], maxAttempts: 1 },
		});
		clock.advance(8 * 86_400);
		expect(await pruneFinishedJobs(deps)).toBe(1);
		expect((await getJob(deps, failed.id))?.status).toBe('failed');
	});
});

describe('the worker', () => {
	test('a kind limited to one at a time waits while one runs, in any process, and runs next', async () => {
		const runs: string[] = [];
		let release!: () => void;
		const held = new Promise<void>((resolve) => {
			release = resolve;
		});
		const solo: JobDefinitions = {
			'test.solo': {
				concurrency: 1,
				run: async (payload) => {
					runs.push(String(payload.name));
					if (payload.name === 'first') await held;
				},
			},
			'test.record': definitions['test.record'],
		};
		await enqueueJob(deps, { kind: 'test.solo', payload: { name: 'first' } });
		await enqueueJob(deps, { kind: 'test.solo', payload: { name: 'second' } });
		await enqueueJob(deps, { kind: 'test.record', payload: { name: 'other kind' } });
		const first = runDueJobs(deps, solo);
		await expect.poll(() => runs).toEqual(['first']);
		// Another process finds the second waiting for the first, but other kinds go on.
		expect(await runDueJobs(deps, solo)).toBe(1);
		expect(runs).toEqual(['first']);
		expect(done).toEqual(['other kind']);
		release();
		expect(await first).toBe(2);
		expect(runs).toEqual(['first', 'second']);
	});

	test('a job that runs past its lease keeps renewing it: another process does not take it twice', async () => {
		let runs = 0;
		let release!: () => void;
		const held = new Promise<void>((resolve) => {
			release = resolve;
		});
		const long: JobDefinitions = {
			'test.long': {
				leaseSeconds: 2,
				run: async () => {
					runs++;
					await held;
				},
			},
		};
		await enqueueJob(deps, { kind: 'test.long' });
		const first = runDueJobs(deps, long);
		await expect.poll(() => runs).toBe(1);
		// Far past the two-second lease it was claimed with; the renewal comes within a third of a lease.
		clock.advance(10);
		await new Promise((resolve) => setTimeout(resolve, 1500));
		const second = runDueJobs(deps, long);
		await new Promise((resolve) => setTimeout(resolve, 300));
		expect(runs).toBe(1);
		release();
		expect(await second).toBe(0);
		await first;
		expect(runs).toBe(1);
	});

	test('runs a job queued in its process at once, and lets it finish when stopped', async () => {
		const realDeps = createTestDeps(database.db);
		const worker = startJobWorker(realDeps, definitions, { pollMs: 60_000 });
		await enqueueJob(realDeps, { kind: 'test.record', payload: { name: 'prompt' } });
		await expect.poll(() => done, { timeout: 5000 }).toEqual(['prompt']);
		await worker.stop();
	});

	test('stopping waits for the job under way only as long as its grace; the job keeps its claim and still finishes', async () => {
		const realDeps = createTestDeps(database.db);
		let started!: () => void;
		const running = new Promise<void>((resolve) => {
			started = resolve;
		});
		let release!: () => void;
		const held = new Promise<void>((resolve) => {
			release = resolve;
		});
		const slow: JobDefinitions = {
			'test.slow': {
				run: async () => {
					started();
					await held;
				},
			},
		};
		const worker = startJobWorker(realDeps, slow, { pollMs: 60_000 });
		const job = await enqueueJob(realDeps, { kind: 'test.slow' });
		await running;
		const stopping = performance.now();
		expect(await worker.stop({ graceMs: 200 })).toBe(false);
		// Shutdown went on: the grace, not the job, decided how long it waited.
		expect(performance.now() - stopping).toBeLessThan(5000);
		expect((await getJob(realDeps, job.id))?.status).toBe('running');
		release();
		await expect.poll(async () => (await getJob(realDeps, job.id))?.status, { timeout: 5000 }).toBe('done');
	});

	test('two processes with the same schedule queue one job per tick', async () => {
		const realDeps = createTestDeps(database.db);
		const schedules = [{ kind: 'test.record', cron: '* * * * * *' }];
		const workers = [
			startJobWorker(realDeps, definitions, { schedules, pollMs: 50 }),
			startJobWorker(realDeps, definitions, { schedules, pollMs: 50 }),
		];
		await new Promise((resolve) => setTimeout(resolve, 2500));
		await Promise.all(workers.map((worker) => worker.stop()));
		const rows = await database.db.select({ uniqueKey: jobs.uniqueKey }).from(jobs);
		const ticks = rows.map((row) => row.uniqueKey);
		// Two or three seconds passed: one job each, not one per process.
		expect(ticks.length).toBeGreaterThanOrEqual(2);
		expect(ticks.length).toBeLessThanOrEqual(3);
		expect(new Set(ticks).size).toBe(ticks.length);
		expect(ticks.every((key) => key?.startsWith('test.record@'))).toBe(true);
		expect(scheduledJobKey('a', new Date('2026-01-01T00:00:00Z'))).toBe('a@2026-01-01T00:00:00.000Z');
	});
});

describe.skipIf(TEST_DB_KIND !== 'postgres')('processes on one PostgreSQL', () => {
	test('a job queued by another process starts here at once, long before this worker looks again', async () => {
		const url = workerDatabaseUrl(String(process.env.TEST_DATABASE_URL), process.env.VITEST_POOL_ID ?? '1');
		let listening!: () => void;
		const listeningNow = new Promise<void>((resolve) => {
			listening = resolve;
		});
		const listen = listenToPostgres(url);
		// A minute between looks at the table: only the announcement can start the job in time.
		const worker = startJobWorker(deps, definitions, {
			pollMs: 60_000,
			listen: (channel, onNotify) =>
				listen(channel, () => {
					listening();
					onNotify();
				}),
		});
		const otherProcess = new pg.Client({ connectionString: url });
		try {
			await listeningNow;
			await otherProcess.connect();
			// A plain insert on a connection of its own wakes no worker of this process by itself.
			await otherProcess.query(
				`insert into jobs (kind, payload, run_at, created_at) values ('test.record', '{"name":"from afar"}', $1, $1)`,
				[clock().toISOString()],
			);
			const queuedAt = Date.now();
			await expect.poll(() => done, { timeout: 1000, interval: 20 }).toEqual(['from afar']);
			expect(Date.now() - queuedAt).toBeLessThan(1000);
		} finally {
			await otherProcess.end();
			await worker.stop();
		}
	});
});
