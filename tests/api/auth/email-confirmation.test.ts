import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { callApi, createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { type App, createAccountsApp, latestMail, signupMember } from './helpers';

let database: TestDatabase;
let deps: ReturnType<typeof createTestDeps>;
let app: App;

beforeAll(async () => {
	database = await openTestDb();
	deps = createTestDeps(database.db);
	app = createAccountsApp(deps);
});
beforeEach(() => database.reset());
afterAll(() => database.close());

const resend = (token?: string) => callApi(app, 'POST', '/api/auth/email/resend', { token });

describe('a new confirmation link', () => {
	test('goes to a signed-in member whose address is not confirmed, and the new link confirms it', async () => {
		const member = await signupMember(app);
		const first = await latestMail(deps, 'ada@example.test');
		const sent = await resend(member.token);
		expect(sent.status).toBe(200);
		expect(sent.json).toEqual({ status: 'sent' });
		const second = await latestMail(deps, 'ada@example.test');
		expect(second.row?.subject).toBe('Confirm your email address');
		expect(second.token).not.toBe(first.token);
		const confirmed = await callApi(app, 'POST', `/api/auth/email/confirm/${second.token}`);
		expect(confirmed.status).toBe(200);
		expect((await resend(member.token)).json).toEqual({ status: 'already_confirmed' });
	});

	test('needs a signed-in member and is limited to a few mails an hour', async () => {
		expect((await resend()).status).toBe(401);
		const member = await signupMember(app);
		for (let i = 0; i < 5; i++) expect((await resend(member.token)).status).toBe(200);
		const limited = await resend(member.token);
		expect(limited.status).toBe(429);
		expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
	});
});
