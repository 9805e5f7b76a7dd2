import path from 'node:path';
import { Worker } from 'node:worker_threads';

/** The worker's script; like the migrations, it is read from the project folder the server runs in. */
export const PGLITE_WORKER_SCRIPT = path.resolve(
	process.env.PGLITE_WORKER_SCRIPT ?? 'src/lib/db/pglite-worker.mjs',
);

type QueryOptions = { rowMode?: 'array' | 'object'; parsers?: Record<number, unknown> };
type Results = { rows: unknown[]; fields: { name: string; dataTypeID: number }[]; affectedRows?: number };
type Request =
	| { op: 'query'; sql: string; params?: unknown[]; rowMode?: string; textTypes?: number[]; txId?: number }
	| { op: 'begin' }
	| { op: 'commit' | 'rollback'; txId: number }
	| { op: 'close' };
type Reply = { id: number; result?: unknown; error?: Record<string, unknown> };

/** What a query runs on: the database, or one transaction on it. */
export type PgliteThreadQueryable = {
	query: (sql: string, params?: unknown[], options?: QueryOptions) => Promise<Results>;
};

/** A database error as PostgreSQL reported it, rebuilt on this side with its fields (code, constraint…). */
function rebuild(plain: Record<string, unknown>): Error {
	const error = new Error(String(plain.message));
	Object.assign(error, plain);
	return error;
}

/**
 * PGlite in a worker thread, with the part of PGlite's interface that drizzle uses (`query` and
 * `transaction`). Statements run on the worker's thread, so the server's thread keeps answering
 * while the database works; rows come back by structured clone.
 */
export class PgliteThread implements PgliteThreadQueryable {
	readonly #worker: Worker;
	readonly #waiting = new Map<
		number,
		{ resolve: (value: unknown) => void; reject: (error: Error) => void }
	>();
	#nextId = 1;
	#exited = false;
	#closing: Promise<void> | undefined;

	private constructor(worker: Worker) {
		this.#worker = worker;
		worker.on('message', (reply: Reply) => {
			const waiter = this.#waiting.get(reply.id);
			if (!waiter) return;
			this.#waiting.delete(reply.id);
			if (reply.error) waiter.reject(rebuild(reply.error));
			else waiter.resolve(reply.result);
		});
		worker.on('exit', (code) => {
			this.#exited = true;
			// SQLSTATE 08006: the statement's database went away (isDatabaseUnavailable: a 503).
			const gone = Object.assign(new Error(`The database thread stopped (exit code ${code})`), {
				code: '08006',
			});
			for (const waiter of this.#waiting.values()) waiter.reject(gone);
			this.#waiting.clear();
		});
	}

	/** Starts the thread and opens the database in `dataDir` (in memory without one). */
	static async open(options: { dataDir?: string; settings: string[] }): Promise<PgliteThread> {
		const worker = new Worker(PGLITE_WORKER_SCRIPT, { workerData: options });
		let settle: {
			onMessage: (reply: unknown) => void;
			onError: (error: Error) => void;
			onExit: (code: number) => void;
		};
		const ready = await new Promise<{ ready: boolean; error?: Record<string, unknown> }>(
			(resolve, reject) => {
				settle = {
					onMessage: resolve as (reply: unknown) => void,
					onError: reject,
					onExit: (code) =>
						reject(new Error(`The database thread stopped while opening (exit code ${code})`)),
				};
				worker.on('message', settle.onMessage).on('error', settle.onError).on('exit', settle.onExit);
			},
		).finally(() => {
			// Only these: the worker's own listeners keep its port referenced.
			worker.off('message', settle.onMessage).off('error', settle.onError).off('exit', settle.onExit);
		});
		if (!ready.ready) {
			await worker.terminate();
			throw rebuild(ready.error ?? { message: 'The database could not be opened' });
		}
		return new PgliteThread(worker);
	}

	#send<T>(request: Request): Promise<T> {
		if (this.#exited) {
			return Promise.reject(Object.assign(new Error('The database thread has stopped'), { code: '08006' }));
		}
		const id = this.#nextId++;
		return new Promise<T>((resolve, reject) => {
			this.#waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
			this.#worker.postMessage({ ...request, id });
		});
	}

	#query(sql: string, params: unknown[] | undefined, options: QueryOptions | undefined, txId?: number) {
		const textTypes = options?.parsers ? Object.keys(options.parsers).map(Number) : undefined;
		return this.#send<Results>({ op: 'query', sql, params, rowMode: options?.rowMode, textTypes, txId });
	}

	query(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results> {
		return this.#query(sql, params, options);
	}

	/** Runs `work` in one transaction: committed when it returns, rolled back when it throws. */
	async transaction<T>(work: (tx: PgliteThreadQueryable) => Promise<T>): Promise<T> {
		const { txId } = await this.#send<{ txId: number }>({ op: 'begin' });
		let result: T;
		try {
			result = await work({ query: (sql, params, options) => this.#query(sql, params, options, txId) });
		} catch (error) {
			await this.#send({ op: 'rollback', txId }).catch(() => {});
			throw error;
		}
		await this.#send({ op: 'commit', txId });
		return result;
	}

	/** Closes the database and ends the thread; safe to call twice. */
	close(): Promise<void> {
		this.#closing ??= (async () => {
			if (this.#exited) return;
			await this.#send({ op: 'close' }).catch(() => {});
			await this.#worker.terminate();
		})();
		return this.#closing;
	}
}
