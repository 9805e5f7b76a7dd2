import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { MIGRATIONS_DIR } from '../../src/lib/db/client';

/**
 * initdb costs seconds, so the migrated embedded database is made once per run and every test
 * file starts from a copy of it. With TEST_DATABASE_URL, the real PostgreSQL is migrated once too.
 */
export default async function setup(project: TestProject) {
	const folder = mkdtempSync(path.join(tmpdir(), 'mapstride-test-'));
	const client = await PGlite.create();
	await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_DIR });
	const dump = await client.dumpDataDir('none');
	await client.close();
	const dumpFile = path.join(folder, 'migrated.tar');
	writeFileSync(dumpFile, Buffer.from(await dump.arrayBuffer()));
	project.provide('pgliteDump', dumpFile);

	const url = process.env.TEST_DATABASE_URL;
	if (url) {
		const pool = new pg.Pool({ connectionString: url });
		await pool.query(
			'drop schema if exists public cascade; drop schema if exists drizzle cascade; create schema public;',
		);
		const { drizzle: drizzlePg } = await import('drizzle-orm/node-postgres');
		const { migrate: migratePg } = await import('drizzle-orm/node-postgres/migrator');
		await migratePg(drizzlePg(pool), { migrationsFolder: MIGRATIONS_DIR });
		await pool.end();
	}
	return () => rmSync(folder, { recursive: true, force: true });
}

declare module 'vitest' {
	export interface ProvidedContext {
		pgliteDump: string;
	}
}
