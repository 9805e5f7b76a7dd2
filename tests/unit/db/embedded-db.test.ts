import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, test } from 'vitest';
import { DatabaseInUseError, openDb } from '../../../src/lib/db/client';

const folders: string[] = [];
function newDataDir() {
	const folder = mkdtempSync(path.join(tmpdir(), 'mapstride-db-'));
	folders.push(folder);
	return folder;
}
afterEach(() => {
	for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

// Each case runs initdb on disk, which takes seconds (more on a busy machine).
describe('the embedded database', { timeout: 180_000 }, () => {
	test('is created, migrated, locked to one process and reopened with its data', async () => {
		const dataDir = newDataDir();
		const first = await openDb({ dataDir, log: () => {} });
		await first.db.execute(
			sql`insert into users (username, email, password_hash) values ('ana', 'ana@example.com', 'x')`,
		);
		expect(readdirSync(dataDir).sort()).toEqual(['db', 'db.lock']);

		// A live process holding the lock: the parent of this test process stands in for a second server.
		writeFileSync(path.join(dataDir, 'db.lock'), String(process.ppid));
		await expect(openDb({ dataDir, log: () => {} })).rejects.toThrow(DatabaseInUseError);
		await expect(openDb({ dataDir, log: () => {} })).rejects.toThrow(`in use by pid ${process.ppid}`);
		writeFileSync(path.join(dataDir, 'db.lock'), String(process.pid));

		await first.close();
		expect(existsSync(path.join(dataDir, 'db.lock'))).toBe(false);

		const again = await openDb({ dataDir, log: () => {} });
		const result = await again.db.execute(sql`select count(*)::int as n from users`);
		expect((result as unknown as { rows: { n: number }[] }).rows[0].n).toBe(1);
		await again.close();
	});

	test('takes over a lock left by a process that died', async () => {
		const dataDir = newDataDir();
		writeFileSync(path.join(dataDir, 'db.lock'), '999999');
		const handle = await openDb({ dataDir, log: () => {} });
		await handle.close();
	});

	test('moves a half-initialised folder aside, never deleting it, and starts fresh', async () => {
		const dataDir = newDataDir();
		mkdirSync(path.join(dataDir, 'db.initialising'));
		writeFileSync(path.join(dataDir, 'db.initialising', 'partial'), 'left by a killed first boot');
		mkdirSync(path.join(dataDir, 'db'));
		const messages: string[] = [];
		const handle = await openDb({ dataDir, log: (message) => messages.push(message) });
		await handle.close();
		const broken = readdirSync(dataDir).filter((name) => name.includes('.broken-'));
		expect(broken).toHaveLength(2);
		expect(messages.join('\n')).toMatch(/moved to .*Nothing was deleted/);
		const moved = broken.flatMap((name) => readdirSync(path.join(dataDir, name)));
		expect(moved).toContain('partial');
	});
});
