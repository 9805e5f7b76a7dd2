import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { photoFolder } from '../../../src/lib/account/server/service';
import { DEMO_MEMBER, seedDemoMember } from '../../../src/lib/auth/server/seed';
import { callApi, createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { createAccountsApp } from './helpers';

let database: TestDatabase;
let dataDir: string;

beforeAll(async () => {
	database = await openTestDb();
	dataDir = mkdtempSync(path.join(tmpdir(), 'mapstride-seed-'));
});
afterAll(async () => {
	await database.close();
	rmSync(dataDir, { recursive: true, force: true });
});

test('the demo member can log in, has a public profile with a photo, and seeding twice changes nothing', async () => {
	const base = createTestDeps(database.db);
	const deps = { ...base, config: { ...base.config, dataDir } };
	const first = await seedDemoMember(deps);
	const second = await seedDemoMember(deps);
	expect(first.created).toBe(true);
	expect(second).toMatchObject({ id: first.id, created: false });
	expect(readdirSync(photoFolder(deps.config))).toHaveLength(2);
	const app = createAccountsApp(deps);
	const login = await callApi(app, 'POST', '/api/auth/login', {
		body: { email: DEMO_MEMBER.email, password: DEMO_MEMBER.password },
	});
	expect(login.status).toBe(200);
	expect(login.json.user).toMatchObject({ email_verified: true, display_name: 'Dana Demo' });
	expect((await callApi(app, 'GET', `/api/v7.1/user/${first.id}/`)).status).toBe(200);
});
