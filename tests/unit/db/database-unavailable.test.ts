import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ApiEnv } from '../../../src/lib/api/context';
import { respondWithError } from '../../../src/lib/api/errors';
import { type DbHandle, openDb } from '../../../src/lib/db/client';
import { isDatabaseUnavailable, isUniqueViolation } from '../../../src/lib/db/errors';
import { workerDatabaseUrl } from '../../helpers/worker-database';

/** An app whose one endpoint throws `error`, answered by the API's own error mapping. */
function throwing(error: unknown) {
	const app = new Hono<ApiEnv>().get('/api/v7.1/thing/', () => {
		throw error;
	});
	app.onError((thrown, c) => respondWithError(thrown, c));
	return app;
}

describe('a database that went away', () => {
	test('is told apart from a wrong statement, however the error is wrapped', () => {
		const terminated = Object.assign(new Error('terminating connection due to administrator command'), {
			code: '57P01',
		});
		expect(isDatabaseUnavailable(new Error('Failed query: select 1', { cause: terminated }))).toBe(true);
		expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
		// An operator closed the database to connections (ALTER DATABASE … allow_connections false): 55000, by its words.
		const closed = Object.assign(new Error('database "mapstride" is not currently accepting connections'), {
			code: '55000',
		});
		expect(isDatabaseUnavailable(closed)).toBe(true);
		expect(
			isDatabaseUnavailable(Object.assign(new Error('cannot drop the current database'), { code: '55000' })),
		).toBe(false);
		expect(isDatabaseUnavailable(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }))).toBe(true);
		expect(
			isDatabaseUnavailable(
				new AggregateError([Object.assign(new Error('connect'), { code: 'ECONNREFUSED' })], 'refused'),
			),
		).toBe(true);
		const duplicate = Object.assign(new Error('duplicate key'), { code: '23505' });
		expect(isUniqueViolation(duplicate)).toBe(true);
		expect(isDatabaseUnavailable(duplicate)).toBe(false);
		expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false);
	});

	test('answers 503 with Retry-After and no stack; anything else stays a 500', async () => {
		const lost = new Error('Failed query', { cause: new Error('Connection terminated unexpectedly') });
		const answer = await throwing(lost).request('/api/v7.1/thing/');
		expect(answer.status).toBe(503);
		expect(answer.headers.get('retry-after')).toBe('5');
		const body = await answer.text();
		expect(JSON.parse(body).error).toBe('database_unavailable');
		expect(body).not.toContain('Connection terminated');
		expect(body).not.toMatch(/at .+\.ts:\d+/);
		expect((await throwing(new TypeError('bug')).request('/api/v7.1/thing/')).status).toBe(500);
	});
});

/** A shutdown that waits longer than this on its database is one a process manager ends by force. */
const CLOSE_LIMIT_MS = 8000;

/** How long the handle took to close, or Infinity when it had not closed after CLOSE_LIMIT_MS. */
async function timeToClose(handle: DbHandle): Promise<number> {
	const started = performance.now();
	let timer: ReturnType<typeof setTimeout> | undefined;
	const closed = await Promise.race([
		handle.close().then(() => true),
		new Promise<false>((resolve) => {
			timer = setTimeout(() => resolve(false), CLOSE_LIMIT_MS);
		}),
	]);
	clearTimeout(timer);
	return closed ? performance.now() - started : Number.POSITIVE_INFINITY;
}

/**
 * A TCP relay to PostgreSQL that can fall silent as a server behind a broken network does: it
 * answers nothing and closes nothing, so no error ever reaches the connections through it.
 */
async function silenceableRelay(target: URL) {
	const sockets = new Set<net.Socket>();
	let silent = false;
	let swallow!: () => void;
	/** Settles once a request reached the relay after it fell silent. */
	const swallowed = new Promise<void>((resolve) => {
		swallow = resolve;
	});
	const server = net.createServer((client) => {
		const upstream = net.connect(Number(target.port || 5432), target.hostname);
		for (const [from, to] of [
			[client, upstream],
			[upstream, client],
		]) {
			sockets.add(from);
			from.on('data', (chunk) => {
				if (!silent) to.write(chunk);
				else if (from === client) swallow();
			});
			from.on('error', () => to.destroy());
			from.on('close', () => {
				sockets.delete(from);
				to.destroy();
			});
		}
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		port: (server.address() as net.AddressInfo).port,
		silence: () => {
			silent = true;
		},
		swallowed,
		close: () => {
			for (const socket of sockets) socket.destroy();
			return new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/**
 * Terminated backends as a failover or restart ends them. The handle's connections carry a name of
 * their own, so only they are terminated, on this worker's copy of the migrated database: the file
 * makes no database, so it never waits on DROP DATABASE, whose forced checkpoint of the whole
 * cluster took over a minute beside other suites on a busy machine.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)(
	'PostgreSQL backends terminated (needs TEST_DATABASE_URL)',
	() => {
		// A skipped describe's body still runs when tests are collected: no URL parse may throw there.
		const database = workerDatabaseUrl(
			process.env.TEST_DATABASE_URL ?? 'postgres://unset/none',
			process.env.VITEST_POOL_ID ?? '1',
		);
		const applicationName = `mapstride_dbloss_${process.pid}`;
		const url = new URL(database);
		url.searchParams.set('application_name', applicationName);
		let handle: DbHandle;
		let dataDir: string;
		async function asAdmin(statement: string) {
			const admin = new pg.Client({ connectionString: database });
			await admin.connect();
			try {
				return await admin.query(statement);
			} finally {
				await admin.end();
			}
		}
		const terminateAll = () =>
			asAdmin(
				`select pg_terminate_backend(pid) from pg_stat_activity where application_name = '${applicationName}'`,
			);

		beforeAll(async () => {
			dataDir = mkdtempSync(path.join(tmpdir(), 'mapstride-dbloss-'));
			handle = await openDb({ databaseUrl: url.toString(), dataDir });
		});
		afterAll(async () => {
			await handle?.close();
			rmSync(dataDir, { recursive: true, force: true });
		});

		test('an idle connection dropped does not end the process, and the next query reconnects', async () => {
			await handle.db.execute(sql`select 1`);
			await terminateAll();
			// The pool hears the dropped connection as an 'error' event; unheard, it would be thrown.
			await new Promise((resolve) => setTimeout(resolve, 300));
			const result = await handle.db.execute(sql`select 2 as n`);
			expect((result as unknown as { rows: { n: number }[] }).rows[0].n).toBe(2);
		});

		test('a connection dropped inside a transaction, between statements, fails that transaction only', async () => {
			const outcome = await handle.db
				.transaction(async (tx) => {
					await tx.execute(sql`select 1`);
					await terminateAll();
					// The dropped connection reports on its client while no statement runs.
					await new Promise((resolve) => setTimeout(resolve, 300));
					await tx.execute(sql`select 2`);
				})
				.then(
					() => null,
					(error: unknown) => error,
				);
			expect(isDatabaseUnavailable(outcome)).toBe(true);
			const result = await handle.db.execute(sql`select 4 as n`);
			expect((result as unknown as { rows: { n: number }[] }).rows[0].n).toBe(4);
		});

		test('a query cut off mid-way is a 503, and the database answers again without a restart', async () => {
			const slow = handle.db.execute(sql`select pg_sleep(10)`).then(
				() => null,
				(error: unknown) => error,
			);
			await new Promise((resolve) => setTimeout(resolve, 300));
			await terminateAll();
			const error = await slow;
			expect(error).toBeTruthy();
			expect(isDatabaseUnavailable(error)).toBe(true);
			expect((await throwing(error).request('/api/v7.1/thing/')).status).toBe(503);
			const result = await handle.db.execute(sql`select 3 as n`);
			expect((result as unknown as { rows: { n: number }[] }).rows[0].n).toBe(3);
		});

		test('a transaction holding its connection when the backends are terminated does not hold the close', async () => {
			const closing = await openDb({ databaseUrl: url.toString(), dataDir });
			let entered!: () => void;
			const inside = new Promise<void>((resolve) => {
				entered = resolve;
			});
			let finish!: () => void;
			const between = new Promise<void>((resolve) => {
				finish = resolve;
			});
			const transaction = closing.db
				.transaction(async (tx) => {
					await tx.execute(sql`select 1`);
					entered();
					// Work between two statements (a file parsed, a processor called) keeps the connection.
					await between;
					await tx.execute(sql`select 2`);
				})
				.then(
					() => null,
					(error: unknown) => error,
				);
			await inside;
			await terminateAll();
			expect(await timeToClose(closing)).toBeLessThan(CLOSE_LIMIT_MS);
			finish();
			expect(isDatabaseUnavailable(await transaction)).toBe(true);
		});

		test('a query waiting on a server that went silent does not hold the close, and fails as unavailable', async () => {
			const relay = await silenceableRelay(url);
			const relayed = new URL(url);
			relayed.host = `127.0.0.1:${relay.port}`;
			try {
				const closing = await openDb({ databaseUrl: relayed.toString(), dataDir });
				await closing.db.execute(sql`select 1`);
				relay.silence();
				const waiting = closing.db.execute(sql`select 2`).then(
					() => null,
					(error: unknown) => error,
				);
				await relay.swallowed;
				expect(await timeToClose(closing)).toBeLessThan(CLOSE_LIMIT_MS);
				expect(isDatabaseUnavailable(await waiting)).toBe(true);
			} finally {
				await relay.close();
			}
		});
	},
);
