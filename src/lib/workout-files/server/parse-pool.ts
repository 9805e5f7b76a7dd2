import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { AppError } from '../../core/errors';
import type { DerivedFileWorkout } from '../../workouts/server/derive-file';
import type { NormalisedWorkout } from '../contract';
import { WorkoutFileError } from '../errors';
import type { ReadOptions } from '../index';
import type { DeriveOutcome, ParseOutcome, ParseTask } from './parse-worker';

export type ParsePoolOptions = {
	/** Threads reading files at once; the main thread keeps a core for everything else. */
	threads?: number;
	/** Uploads that may wait for a thread; past this a caller gets 503 with Retry-After at once. */
	maxWaiting?: number;
	/** How long one file may take on its thread (waiting is not counted); the thread is then stopped. */
	taskTimeoutMs?: number;
	/** Heap a thread may use before it is stopped: a file that needs more is refused, not the server. */
	maxHeapMb?: number;
	/** The thread entry; see `locateWorkerFile`. */
	workerFile?: string;
};

export type ParsePool = {
	/** `readWorkoutFile` off the event loop: same result, same `WorkoutFileError` refusals. */
	readWorkoutFile(bytes: Uint8Array, options?: ReadOptions): Promise<NormalisedWorkout>;
	/**
	 * Reads a workout file and derives the stored workout (metrics, encoded series, laps, content
	 * hash) on the thread; null when the file has no timed samples. Same refusals as `readWorkoutFile`.
	 */
	deriveWorkoutFile(
		bytes: Uint8Array,
		options: ReadOptions & { weightKg: number | null },
	): Promise<DerivedFileWorkout | null>;
	/** Uploads on a thread now and waiting for one. */
	load(): { running: number; waiting: number };
	close(): Promise<void>;
};

const RETRY_AFTER_SECONDS = 5;

type RunTransferList = NonNullable<NonNullable<Parameters<Piscina['run']>[1]>['transferList']>;

export const parsePoolDefaults = {
	threads: Math.max(1, Math.min(4, availableParallelism() - 1)),
	maxWaiting: 64,
	taskTimeoutMs: 20_000,
	maxHeapMb: 512,
} as const;

/**
 * The built server (scripts/start.mjs) names the bundled entry in MAPSTRIDE_PARSE_WORKER; run from
 * source, this module sits beside a bootstrap that loads the TypeScript worker.
 */
export function locateWorkerFile(): string {
	const built = process.env.MAPSTRIDE_PARSE_WORKER;
	if (built) return built;
	if (import.meta.url.endsWith('.ts'))
		return fileURLToPath(new URL('./parse-worker-source.mjs', import.meta.url));
	throw new Error(
		'MAPSTRIDE_PARSE_WORKER must name dist/server/parse-worker.mjs (scripts/start.mjs sets it).',
	);
}

function busy(): AppError {
	return new AppError(
		'unavailable',
		`We are reading many uploaded files right now. Try again in ${RETRY_AFTER_SECONDS} seconds.`,
		{ detail: 'uploads_busy', headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } },
	);
}

function isAbort(error: unknown): boolean {
	return error instanceof Error && error.name === 'AbortError';
}

function isOutOfMemory(error: unknown): boolean {
	return error instanceof Error && (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
}

/**
 * A bounded pool of threads that inflate and read uploaded workout files, so a large or hostile
 * file costs one thread for a bounded time and never stalls the requests of other members.
 * Waiting happens here rather than in Piscina's queue so that the time limit counts only the
 * time a file spends on its thread.
 */
export function createParsePool(options: ParsePoolOptions = {}): ParsePool {
	const threads = options.threads ?? parsePoolDefaults.threads;
	const maxWaiting = options.maxWaiting ?? parsePoolDefaults.maxWaiting;
	const taskTimeoutMs = options.taskTimeoutMs ?? parsePoolDefaults.taskTimeoutMs;
	const maxHeapMb = options.maxHeapMb ?? parsePoolDefaults.maxHeapMb;
	const piscina = new Piscina<ParseTask, ParseOutcome | DeriveOutcome>({
		filename: options.workerFile ?? locateWorkerFile(),
		minThreads: 0,
		maxThreads: threads,
		idleTimeout: 60_000,
		resourceLimits: { maxOldGenerationSizeMb: maxHeapMb },
		// Reading files yields the CPU to the thread that answers requests whenever both want it.
		niceIncrement: 10,
	});
	let running = 0;
	const waiting: Array<() => void> = [];

	async function takeThread(): Promise<void> {
		if (running < threads) {
			running++;
			return;
		}
		if (waiting.length >= maxWaiting) throw busy();
		// The finishing task hands its thread over directly, so `running` stays counted.
		await new Promise<void>((resolve) => waiting.push(resolve));
	}

	function releaseThread(): void {
		const next = waiting.shift();
		if (next) next();
		else running--;
	}

	async function runOnThread(task: ParseTask): Promise<ParseOutcome | DeriveOutcome> {
		await takeThread();
		let outcome: ParseOutcome | DeriveOutcome;
		try {
			// A copy of our own can be moved to the thread whatever buffer the bytes are a view of
			// (a Buffer's slice() would still share Node's pool).
			const own = new Uint8Array(task.bytes);
			outcome = await piscina.run(
				{ ...task, bytes: own },
				// Piscina infers its transfer-list type from an overload @types/node 26 no longer puts first.
				{
					signal: AbortSignal.timeout(taskTimeoutMs),
					transferList: [own.buffer] as unknown as RunTransferList,
				},
			);
		} catch (error) {
			if (isAbort(error))
				throw new WorkoutFileError(
					'too_large',
					`This file takes longer than ${taskTimeoutMs / 1000} seconds to read, more than we allow.`,
					{ taskTimeoutMs },
				);
			if (isOutOfMemory(error))
				throw new WorkoutFileError('too_large', 'This file needs more memory to read than we allow.', {
					maxHeapMb,
				});
			throw error;
		} finally {
			releaseThread();
		}
		if (!outcome.ok) throw new WorkoutFileError(outcome.code, outcome.message, outcome.details);
		return outcome;
	}

	return {
		async readWorkoutFile(bytes, readOptions = {}) {
			const outcome = await runOnThread({ kind: 'read', bytes, options: readOptions });
			return (outcome as Extract<ParseOutcome, { ok: true }>).workout;
		},
		async deriveWorkoutFile(bytes, { weightKg, ...readOptions }) {
			const outcome = await runOnThread({ kind: 'workout', bytes, options: readOptions, weightKg });
			return (outcome as Extract<DeriveOutcome, { ok: true }>).workout;
		},
		load: () => ({ running, waiting: waiting.length }),
		close: () => piscina.close({ force: true }),
	};
}

/**
 * How the API answers a refused upload: past a size, point or entry limit is 413 with the message
 * naming the limit; anything else the member can fix in the file is 422. `error` says which rule.
 */
export function uploadRefusal(error: WorkoutFileError): AppError {
	return new AppError(error.status === 413 ? 'payload_too_large' : 'unprocessable', error.message, {
		detail: `file_${error.code}`,
	});
}

let shared: ParsePool | undefined;

/** The process's one pool, started on the first upload; the workout, route and import uploads share it. */
export function sharedParsePool(): ParsePool {
	shared ??= createParsePool();
	return shared;
}

/** Stops the shared pool's threads (on shutdown); safe to call when it never started. */
export async function closeSharedParsePool(): Promise<void> {
	const pool = shared;
	shared = undefined;
	await pool?.close();
}
