import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { housekeepingJobs } from '../../../src/lib/jobs/server/housekeeping';
import { createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';

let database: TestDatabase;
beforeAll(async () => {
	database = await openTestDb();
});
afterAll(async () => {
	await database.db.execute(sql`drop table if exists planner_probe`);
	await database.close();
});

async function estimatedRows(): Promise<number> {
	const result = await database.db.execute(
		sql`select reltuples from pg_class where relname = 'planner_probe'`,
	);
	return Number((result as unknown as { rows: { reltuples: number }[] }).rows[0].reltuples);
}

test('the hourly job teaches the embedded database how big its tables have grown', async () => {
	await database.db.execute(sql`create table planner_probe (n integer)`);
	await database.db.execute(sql`insert into planner_probe select generate_series(1, 5000)`);
	// Never analysed: the planner would plan this table as empty.
	expect(await estimatedRows()).toBe(-1);
	await housekeepingJobs['db.analyze'].run({}, createTestDeps(database.db), { id: 1, attempt: 1 });
	if (database.kind === 'pglite') expect(await estimatedRows()).toBe(5000);
	// PostgreSQL's autovacuum keeps its statistics; the job leaves them to it.
	else expect(await estimatedRows()).toBe(-1);
});
