import { Cron } from 'croner';
import { and, eq, inArray, lt, lte, ne, or, sql } from 'drizzle-orm';
import type { AppDeps, Db } from '../../core/server/deps';
import { settlesWithin } from '../../core/waiting';
import type { Listen } from '../../db/client';
import { jobs } from './tables';

export type JobPayload = Record<string, unknown>;

export type JobDefinition = {
	/** Does the work; throws to be retried. Runs again after a crash, so effects must be idempotent. */
	run: (payload: JobPayload, deps: AppDeps, job: { id: number; attempt: number }) => Promise<void>;
	/** Tries before the job is marked failed (default 5). */
	maxAttempts?: number;
	/** How long one try may hold the job before another process may claim it (default 10 minutes). */
	leaseSeconds?: number;
	/** At most this many of the kind run at once across every process (heavy work); unlimited when unset. */
	concurrency?: number;
};

/** Job kinds by name, as each domain exports them from its `server/jobs.ts`. */
export type JobDefinitions = Record<string, JobDefinition>;

/** Recurring work: one job per tick of the cron pattern (UTC), however many processes run. */
export type JobSchedule = { kind: string; cron: string };

export type JobStatus = 'queued' | 'running' | 'done' | 'failed';

const DEFAULT_LEASE_SECONDS = 600;
const MAX_BACKOFF_SECONDS = 3600;
const KEEP_FINISHED_DAYS = 7;

/**
 * Queues a job. With a `uniqueKey`, asking twice (a double click, two processes' timers) queues one
 * job; `created` says whether this call made it.
 */
export async function enqueueJob(
	deps: Pick<AppDeps, 'db' | 'clock'>,
	request: { kind: string; payload?: JobPayload; uniqueKey?: string; runAt?: Date; maxAttempts?: number },
): Promise<{ id: number; created: boolean }> {
	const [row] = await deps.db
		.insert(jobs)
		.values({
			kind: request.kind,
			payload: request.payload ?? {},
			uniqueKey: request.uniqueKey ?? null,
			runAt: request.runAt ?? deps.clock(),
			maxAttempts: request.maxAttempts ?? 5,
			createdAt: deps.clock(),
		})
		.onConflictDoNothing({ target: jobs.uniqueKey })
		.returning({ id: jobs.id });
	if (row) {
		wakeWorkers();
		return { id: row.id, created: true };
	}
	const [existing] = await deps.db
		.select({ id: jobs.id })
		.from(jobs)
		.where(eq(jobs.uniqueKey, request.uniqueKey ?? ''));
	if (!existing) throw new Error(`job ${request.kind} was neither queued nor found`);
	return { id: existing.id, created: false };
}

/** One job's state, for pages that show progress. */
export async function getJob(
	deps: Pick<AppDeps, 'db'>,
	id: number,
): Promise<{
	id: number;
	kind: string;
	status: JobStatus;
	attempts: number;
	lastError: string | null;
} | null> {
	const [row] = await deps.db
		.select({
			id: jobs.id,
			kind: jobs.kind,
			status: jobs.status,
			attempts: jobs.attempts,
			lastError: jobs.lastError,
		})
		.from(jobs)
		.where(eq(jobs.id, id));
	return row ? { ...row, status: row.status as JobStatus } : null;
}

/** Any number the house's advisory locks do not use: claims of limited kinds take it in turn. */
const LIMITED_CLAIM_LOCK = 7_411_001;

/** Claims the next due job (or one whose holder's lease ran out) for this process. */
async function claimNextJob(deps: AppDeps, definitions: JobDefinitions) {
	const now = deps.clock();
	const limited = Object.entries(definitions).flatMap(([kind, definition]) =>
		definition.concurrency === undefined ? [] : [{ kind, limit: definition.concurrency }],
	);
	const claim = async (db: Db) => {
		const due = db
			.select({ id: jobs.id })
			.from(jobs)
			.where(
				and(
					inArray(jobs.kind, Object.keys(definitions)),
					or(
						and(eq(jobs.status, 'queued'), lte(jobs.runAt, now)),
						and(eq(jobs.status, 'running'), lt(jobs.leaseUntil, now)),
					),
					// A limited kind is passed over while as many of it hold a live lease.
					...limited.map(({ kind, limit }) =>
						or(
							ne(jobs.kind, kind),
							sql`(select count(*) from ${jobs} as others where others.kind = ${kind} and others.status = 'running' and others.lease_until >= ${now}) < ${limit}`,
						),
					),
				),
			)
			.orderBy(jobs.runAt, jobs.id)
			.limit(1)
			.for('update', { skipLocked: true });
		const [claimed] = await db
			.update(jobs)
			.set({
				status: 'running',
				attempts: sql`${jobs.attempts} + 1`,
				leaseUntil: new Date(now.getTime() + DEFAULT_LEASE_SECONDS * 1000),
			})
			.where(inArray(jobs.id, due))
			.returning();
		return claimed;
	};
	// Two processes counting the running jobs of a kind at once would both see room: with a limit,
	// claims take turns (a short lock, held only while one claim is made).
	const job = limited.length
		? await deps.db.transaction(async (tx) => {
				await tx.execute(sql`select pg_advisory_xact_lock(${LIMITED_CLAIM_LOCK})`);
				return claim(tx);
			})
		: await claim(deps.db);
	if (!job) return null;
	const leaseSeconds = definitions[job.kind]?.leaseSeconds;
	if (leaseSeconds && leaseSeconds !== DEFAULT_LEASE_SECONDS) {
		await deps.db
			.update(jobs)
			.set({ leaseUntil: new Date(now.getTime() + leaseSeconds * 1000) })
			.where(eq(jobs.id, job.id));
	}
	return job;
}

/** Runs one claimed job and records how it ended: done, queued again after a pause, or failed. */
async function runClaimedJob(
	deps: AppDeps,
	definitions: JobDefinitions,
	job: NonNullable<Awaited<ReturnType<typeof claimNextJob>>>,
): Promise<void> {
	const definition = definitions[job.kind];
	const maxAttempts = definition?.maxAttempts ?? job.maxAttempts;
	const stopHeartbeat = keepLease(deps, job.id, (definition?.leaseSeconds ?? DEFAULT_LEASE_SECONDS) * 1000);
	try {
		if (!definition) throw new Error(`no handler for job kind ${job.kind}`);
		if (job.attempts > maxAttempts) throw new Error('attempts used up');
		await definition.run(job.payload, deps, { id: job.id, attempt: job.attempts });
		await deps.db
			.update(jobs)
			.set({ status: 'done', finishedAt: deps.clock(), leaseUntil: null, lastError: null })
			.where(eq(jobs.id, job.id));
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		const gaveUp = job.attempts >= maxAttempts;
		const pause = Math.min(MAX_BACKOFF_SECONDS, 30 * 2 ** (job.attempts - 1));
		await deps.db
			.update(jobs)
			.set({
				status: gaveUp ? 'failed' : 'queued',
				runAt: new Date(deps.clock().getTime() + pause * 1000),
				finishedAt: gaveUp ? deps.clock() : null,
				leaseUntil: null,
				lastError: message.slice(0, 500),
			})
			.where(eq(jobs.id, job.id));
		// The job's own id and kind only: payloads may hold members' data.
		deps.logger.warn({ jobId: job.id, kind: job.kind, attempt: job.attempts, gaveUp }, 'job failed');
	} finally {
		stopHeartbeat();
	}
}

/**
 * Renews a running job's lease a few times per lease while it runs, so a job that takes longer
 * than its lease is not claimed again by another process; a process that dies stops renewing, and
 * the job is claimed again once the last lease ends.
 */
function keepLease(
	deps: Pick<AppDeps, 'db' | 'clock' | 'logger'>,
	jobId: number,
	leaseMs: number,
): () => void {
	const heartbeat = setInterval(
		() => {
			deps.db
				.update(jobs)
				.set({ leaseUntil: new Date(deps.clock().getTime() + leaseMs) })
				.where(and(eq(jobs.id, jobId), eq(jobs.status, 'running')))
				.catch((error: unknown) => deps.logger.warn({ err: error, jobId }, 'job lease not renewed'));
		},
		Math.max(500, leaseMs / 3),
	);
	heartbeat.unref();
	return () => clearInterval(heartbeat);
}

/** Claims and runs every due job now, one after another; answers how many ran. */
export async function runDueJobs(deps: AppDeps, definitions: JobDefinitions, limit = 100): Promise<number> {
	let ran = 0;
	while (ran < limit) {
		const job = await claimNextJob(deps, definitions);
		if (!job) break;
		await runClaimedJob(deps, definitions, job);
		ran++;
	}
	return ran;
}

/** Forgets finished jobs after a week; failed ones stay for a person to read. */
export async function pruneFinishedJobs(deps: Pick<AppDeps, 'db' | 'clock'>): Promise<number> {
	const before = new Date(deps.clock().getTime() - KEEP_FINISHED_DAYS * 86_400_000);
	const removed = await deps.db
		.delete(jobs)
		.where(and(eq(jobs.status, 'done'), lt(jobs.finishedAt, before)))
		.returning({ id: jobs.id });
	return removed.length;
}

/** The key that makes one schedule tick one job across every process. */
export function scheduledJobKey(kind: string, tick: Date): string {
	return `${kind}@${tick.toISOString()}`;
}

const runningWorkers = new Set<() => void>();

function wakeWorkers(): void {
	for (const wake of runningWorkers) wake();
}

export type JobWorker = {
	/**
	 * Starts no more jobs and waits for the one under way, at most `graceMs`; true when it finished.
	 * One still running after that is claimed again, by this or another process, when its lease ends.
	 */
	stop: (options?: { graceMs?: number }) => Promise<boolean>;
};

/** The channel the jobs table's trigger notifies when a job is queued (migration 0036). */
export const JOBS_QUEUED_CHANNEL = 'jobs_queued';
/** How often the table is read: every second, or every five when queued jobs are also announced. */
const POLL_MS = 1000;
const POLL_MS_WHEN_ANNOUNCED = 5000;

/**
 * Runs due jobs in this process: polls the table, wakes at once when this process queues one or,
 * given `listen` (PostgreSQL), when any process does, and queues each schedule's tick. The poll still
 * finds retries coming due and anything an announcement missed. `stop` lets the job under way
 * finish, within its grace.
 */
export function startJobWorker(
	deps: AppDeps,
	definitions: JobDefinitions,
	options: {
		schedules?: JobSchedule[];
		pollMs?: number;
		listen?: Listen;
	} = {},
): JobWorker {
	const pollMs = options.pollMs ?? (options.listen ? POLL_MS_WHEN_ANNOUNCED : POLL_MS);
	let stopped = false;
	let timer: NodeJS.Timeout | undefined;
	let running: Promise<void> | null = null;
	// A job queued while a pass is under way may have missed that pass's query: run another at once.
	let wokenWhileRunning = false;

	const tick = () => {
		if (stopped) return;
		if (running) {
			wokenWhileRunning = true;
			return;
		}
		clearTimeout(timer);
		wokenWhileRunning = false;
		running = runDueJobs(deps, definitions)
			.then(() => undefined)
			.catch((error) => deps.logger.error({ err: error }, 'job worker could not read the queue'))
			.finally(() => {
				running = null;
				if (!stopped) timer = setTimeout(tick, wokenWhileRunning ? 0 : pollMs);
			});
	};
	runningWorkers.add(tick);
	const unlisten = options.listen?.(JOBS_QUEUED_CHANNEL, tick);

	const crons = (options.schedules ?? []).map(
		(schedule) =>
			new Cron(schedule.cron, { timezone: 'UTC', protect: true }, async (self: Cron) => {
				const at = self.currentRun() ?? deps.clock();
				await enqueueJob(deps, { kind: schedule.kind, uniqueKey: scheduledJobKey(schedule.kind, at) }).catch(
					(error) => deps.logger.error({ err: error, kind: schedule.kind }, 'scheduled job not queued'),
				);
			}),
	);
	timer = setTimeout(tick, 0);

	return {
		stop: async ({ graceMs = Number.POSITIVE_INFINITY } = {}) => {
			stopped = true;
			clearTimeout(timer);
			runningWorkers.delete(tick);
			for (const cron of crons) cron.stop();
			// Closing the listening connection waits on the database, which may have gone silent.
			if (unlisten) await settlesWithin(unlisten(), 1000);
			if (!running) return true;
			return graceMs === Number.POSITIVE_INFINITY
				? running.then(() => true)
				: settlesWithin(running, graceMs);
		},
	};
}
