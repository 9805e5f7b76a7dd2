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

const request = (email: string) => callApi(app, 'POST', '/api/auth/email/request', { body: { email } });

describe('a new confirmation link asked for by address', () => {
	test('goes to an unconfirmed member, and the answer is the same for anyone', async () => {
		await signupMember(app);
		const first = await latestMail(deps, 'ada@example.test');
		const sent = await request('ada@example.test');
		const stranger = await request('nobody@example.test');
		expect(sent.status).toBe(200);
		expect(stranger.json).toEqual(sent.json);
		const second = await latestMail(deps, 'ada@example.test');
		expect(second.token).not.toBe(first.token);
		// Only the newest link works, and it says the older one was replaced, not that it never existed.
		expect((await callApi(app, 'POST', `/api/auth/email/confirm/${first.token}`)).json.error).toBe(
			'used_token',
		);
		expect((await callApi(app, 'POST', `/api/auth/email/confirm/${second.token}`)).status).toBe(200);
		// A confirmed address gets no more links.
		await request('ada@example.test');
		expect((await latestMail(deps, 'ada@example.test')).token).toBe(second.token);
	});

	test('is refused for a missing address and limited per requester', async () => {
		expect((await request('not an address')).status).toBe(400);
		for (let i = 0; i < 30; i++) expect((await request(`x${i}@example.test`)).status).toBe(200);
		expect((await request('x@example.test')).status).toBe(429);
	});
});

describe('a confirmation link that no longer works says why', () => {
	test('not valid, used and expired are told apart', async () => {
		await signupMember(app);
		const { token } = await latestMail(deps, 'ada@example.test');
		const confirm = (value: string) => callApi(app, 'POST', `/api/auth/email/confirm/${value}`);
		expect((await confirm('x'.repeat(43))).json.error).toBe('invalid_token');
		(deps.clock as unknown as { advance: (s: number) => void }).advance(7 * 24 * 3600 + 1);
		expect((await confirm(token as string)).json.error).toBe('expired_token');
	});
});
