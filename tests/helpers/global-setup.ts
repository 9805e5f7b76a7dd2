import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { MIGRATIONS_DIR } from '../../src/lib/db/client';
import { workerDatabaseUrl } from './worker-database';

/**
 * initdb costs seconds, so the migrated embedded database is made once per run and every test
 * file starts from a copy of it. With TEST_DATABASE_URL, the real PostgreSQL is migrated once and
 * copied for each worker, so PostgreSQL suites run side by side without sharing rows.
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
		const workerUrls = await copyPerWorker(url, project.globalConfig.maxWorkers);
		return async () => {
			await dropDatabases(url, workerUrls);
			rmSync(folder, { recursive: true, force: true });
		};
	}
	return () => rmSync(folder, { recursive: true, force: true });
}

/** The database each worker (VITEST_POOL_ID 1…n) uses; see workerDatabaseUrl in db.ts. */
async function copyPerWorker(url: string, workers: number): Promise<string[]> {
	const admin = new pg.Client({ connectionString: url });
	await admin.connect();
	const urls: string[] = [];
	try {
		for (let poolId = 1; poolId <= workers; poolId++) {
			const workerUrl = workerDatabaseUrl(url, String(poolId));
			const name = new URL(workerUrl).pathname.slice(1);
			const template = new URL(url).pathname.slice(1);
			await admin.query(`drop database if exists "${name}" with (force)`);
			await admin.query(`create database "${name}" template "${template}"`);
			urls.push(workerUrl);
		}
	} finally {
		await admin.end();
	}
	return urls;
}

async function dropDatabases(url: string, urls: string[]) {
	const admin = new pg.Client({ connectionString: url });
	await admin.connect();
	try {
		for (const workerUrl of urls)
			await admin.query(`drop database if exists "${new URL(workerUrl).pathname.slice(1)}" with (force)`);
	} finally {
		await admin.end();
	}
}

declare module 'vitest' {
	export interface ProvidedContext {
		pgliteDump: string;
	}
}
