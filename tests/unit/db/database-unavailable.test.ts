import { mkdtempSync, rmSync } from 'node:fs';
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

/** Terminated backends as a failover or restart ends them, on a PostgreSQL database of its own. */
describe.skipIf(!process.env.TEST_DATABASE_URL)(
	'PostgreSQL backends terminated (needs TEST_DATABASE_URL)',
	() => {
		// A skipped describe's body still runs when tests are collected: no URL parse may throw there.
		const url = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://unset/none');
		url.pathname += '_dbloss';
		const name = url.pathname.slice(1);
		let handle: DbHandle;
		let dataDir: string;
		async function asAdmin(statement: string) {
			const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
			await admin.connect();
			try {
				return await admin.query(statement);
			} finally {
				await admin.end();
			}
		}
		const terminateAll = () =>
			asAdmin(
				`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}' and pid <> pg_backend_pid()`,
			);

		beforeAll(async () => {
			await asAdmin(`drop database if exists "${name}" with (force)`);
			await asAdmin(`create database "${name}"`);
			dataDir = mkdtempSync(path.join(tmpdir(), 'mapstride-dbloss-'));
			handle = await openDb({ databaseUrl: url.toString(), dataDir });
		}, 120_000);
		afterAll(async () => {
			await handle?.close();
			await asAdmin(`drop database if exists "${name}" with (force)`);
			rmSync(dataDir, { recursive: true, force: true });
		}, 60_000);

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
	},
);
