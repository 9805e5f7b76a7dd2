import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type DbHandle, openDb } from '../../../src/lib/db/client';
import { isDatabaseUnavailable, isUniqueViolation } from '../../../src/lib/db/errors';

const rows = async <T>(handle: DbHandle, query: ReturnType<typeof sql>) =>
	((await handle.db.execute(query)) as unknown as { rows: T[] }).rows;

/** The embedded database on a thread of its own, as the server opens it by default. */
describe('the embedded database on its own thread', () => {
	let handle: DbHandle;
	beforeAll(async () => {
		handle = await openDb({ databaseUrl: 'memory://', dataDir: tmpdir(), embeddedThread: 'worker' });
		await handle.db.execute(sql`create table t (id int primary key, at timestamptz, body jsonb, data bytea)`);
	}, 120_000);
	afterAll(() => handle?.close());

	test('answers with the values PGlite gives on the caller’s thread', async () => {
		const at = '2026-03-01T10:00:00.000Z';
		await handle.db.execute(
			sql`insert into t values (1, ${at}, ${JSON.stringify({ km: 5 })}::jsonb, ${new Uint8Array([1, 2])})`,
		);
		const [row] = await rows<{ id: number; at: string; body: unknown; data: Uint8Array }>(
			handle,
			sql`select * from t where id = 1`,
		);
		// Drizzle asks for timestamps as text and parses them itself, as with PGlite in process.
		expect(row).toEqual({
			id: 1,
			at: '2026-03-01 10:00:00+00',
			body: { km: 5 },
			data: new Uint8Array([1, 2]),
		});
	});

	test('commits a transaction that returns, rolls back one that throws, and nests by savepoints', async () => {
		await handle.db.transaction(async (tx) => {
			await tx.execute(sql`insert into t (id) values (10)`);
		});
		await expect(
			handle.db.transaction(async (tx) => {
				await tx.execute(sql`insert into t (id) values (11)`);
				await tx
					.transaction(async (inner) => {
						await inner.execute(sql`insert into t (id) values (12)`);
						throw new Error('inner');
					})
					.catch(() => {});
				await tx.execute(sql`insert into t (id) values (13)`);
				throw new Error('outer');
			}),
		).rejects.toThrow('outer');
		await handle.db.transaction(async (tx) => {
			await tx.execute(sql`insert into t (id) values (20)`);
			await tx.transaction(async (inner) => inner.execute(sql`insert into t (id) values (21)`));
		});
		const ids = await rows<{ id: number }>(handle, sql`select id from t where id >= 10 order by id`);
		expect(ids.map((row) => row.id)).toEqual([10, 20, 21]);
	});

	test('keeps a transaction whole: a statement from outside waits until it ends', async () => {
		let outsideSaw: number | undefined;
		await handle.db.transaction(async (tx) => {
			await tx.execute(sql`insert into t (id) values (30)`);
			const outside = rows<{ n: number }>(handle, sql`select count(*)::int as n from t where id = 30`).then(
				([row]) => {
					outsideSaw = row.n;
				},
			);
			await new Promise((resolve) => setTimeout(resolve, 50));
			expect(outsideSaw).toBeUndefined();
			void outside;
		});
		await new Promise((resolve) => setTimeout(resolve, 50));
		expect(outsideSaw).toBe(1);
	});

	test('reports PostgreSQL’s error fields, so a broken unique index is told apart', async () => {
		const failure: unknown = await handle.db
			.execute(sql`insert into t (id) values (1)`)
			.catch((error) => error);
		expect(isUniqueViolation(failure)).toBe(true);
		expect(isDatabaseUnavailable(failure)).toBe(false);
		expect((failure as { cause: { constraint?: string } }).cause.constraint).toBe('t_pkey');
	});

	test('once closed, a statement fails as the database gone away (a 503), not as a wrong statement', async () => {
		const other = await openDb({ databaseUrl: 'memory://', dataDir: tmpdir(), embeddedThread: 'worker' });
		await other.close();
		const failure = await other.db.execute(sql`select 1`).catch((error) => error);
		expect(isDatabaseUnavailable(failure)).toBe(true);
	}, 120_000);
});

describe('a data folder opened on the database thread', () => {
	const dataDir = mkdtempSync(path.join(tmpdir(), 'mapstride-thread-'));
	afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

	test('keeps what was written across a close and reopening, on either thread', async () => {
		const first = await openDb({ dataDir, embeddedThread: 'worker' });
		await first.db.execute(sql`create table kept (note text)`);
		await first.db.execute(sql`insert into kept values ('written on the thread')`);
		await first.close();
		const second = await openDb({ dataDir, embeddedThread: 'main' });
		try {
			expect(await rows(second, sql`select note from kept`)).toEqual([{ note: 'written on the thread' }]);
		} finally {
			await second.close();
		}
	}, 240_000);
});
