import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { forgetBudgetsInMemory } from '../../src/lib/api/rate-limit';
import type { Db } from '../../src/lib/core/server/deps';
import * as schema from '../../src/lib/db/tables';
import { workerDatabaseUrl } from './worker-database';

export type TestDatabase = {
	db: Db;
	kind: 'pglite' | 'postgres';
	reset: () => Promise<void>;
	close: () => Promise<void>;
};

/** Which database this test run uses: the `postgres` Vitest project sets TEST_DB_KIND. */
export const TEST_DB_KIND: 'pglite' | 'postgres' =
	process.env.TEST_DB_KIND === 'postgres' ? 'postgres' : 'pglite';

/** A migrated database for one test file: a copy of the embedded one, or the real PostgreSQL. */
export async function openTestDb(): Promise<TestDatabase> {
	if (TEST_DB_KIND === 'postgres') {
		const url = workerDatabaseUrl(String(process.env.TEST_DATABASE_URL), process.env.VITEST_POOL_ID ?? '1');
		const pool = new pg.Pool({ connectionString: url, max: 4 });
		const db = drizzlePg(pool, { schema }) as unknown as Db;
		const handle: TestDatabase = {
			db,
			kind: 'postgres',
			reset: () => truncateAll(db),
			close: () => pool.end(),
		};
		await handle.reset();
		return handle;
	}
	const dump = new Blob([readFileSync(inject('pgliteDump'))]);
	const client = await PGlite.create({ loadDataDir: dump });
	const db = drizzlePglite(client, { schema }) as unknown as Db;
	return { db, kind: 'pglite', reset: () => truncateAll(db), close: () => client.close() };
}

/**
 * Empties every table of ours (not the migrations journal) and restarts id sequences, and the
 * request budgets the embedded database keeps in memory instead of in `rate_limits`.
 */
export async function truncateAll(db: Db): Promise<void> {
	await forgetBudgetsInMemory(db);
	const result = await db.execute<{ tablename: string }>(
		sql`select tablename from pg_tables where schemaname = 'public'`,
	);
	const rows = (result as unknown as { rows: { tablename: string }[] }).rows;
	if (rows.length === 0) return;
	const names = rows.map((row) => `"${row.tablename}"`).join(', ');
	await db.execute(sql.raw(`truncate ${names} restart identity cascade`));
}
