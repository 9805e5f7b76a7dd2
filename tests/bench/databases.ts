import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { Db } from '../../src/lib/core/server/deps';
import { MIGRATIONS_DIR } from '../../src/lib/db/client';
import * as schema from '../../src/lib/db/tables';

export type BenchDatabase = {
	kind: 'pglite' | 'postgres';
	label: string;
	db: Db;
	/** True when BENCH_REUSE=1 kept the data an earlier run left in PostgreSQL. */
	reused: boolean;
};

const EMPTY_SCHEMA =
	'drop schema if exists public cascade; drop schema if exists drizzle cascade; create schema public;';

/** Empties a benchmark's own PostgreSQL database, for a server that migrates it as it starts. */
export async function emptyPostgres(url: string): Promise<void> {
	const client = new pg.Client({ connectionString: url });
	await client.connect();
	try {
		await client.query(EMPTY_SCHEMA);
	} finally {
		await client.end();
	}
}

/**
 * Runs a benchmark on a fresh migrated PGlite and then, when BENCH_DATABASE_URL names a database of
 * its own, on PostgreSQL, which is emptied first unless BENCH_REUSE=1. BENCH_ONLY=pglite or
 * BENCH_ONLY=postgres keeps one of the two. Answers each run's result in that order.
 */
export async function onBenchDatabases<T>(run: (database: BenchDatabase) => Promise<T>): Promise<T[]> {
	const only = process.env.BENCH_ONLY;
	const results: T[] = [];
	if (only !== 'postgres') {
		const client = await PGlite.create();
		const db = drizzlePglite(client, { schema }) as unknown as Db;
		await migratePglite(db as never, { migrationsFolder: MIGRATIONS_DIR });
		results.push(await run({ kind: 'pglite', label: 'PGlite (embedded)', db, reused: false }));
		await client.close();
	}
	const url = process.env.BENCH_DATABASE_URL;
	if (only === 'pglite') return results;
	if (!url) {
		console.log('\nPostgreSQL: set BENCH_DATABASE_URL to a database of its own to compare.');
		return results;
	}
	const pool = new pg.Pool({ connectionString: url, max: 8 });
	const db = drizzlePg(pool, { schema }) as unknown as Db;
	const reused = process.env.BENCH_REUSE === '1';
	if (!reused) {
		await pool.query(EMPTY_SCHEMA);
		await migratePg(db as never, { migrationsFolder: MIGRATIONS_DIR });
	}
	try {
		results.push(await run({ kind: 'postgres', label: 'PostgreSQL', db, reused }));
	} finally {
		await pool.end();
	}
	return results;
}
