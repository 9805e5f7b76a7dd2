import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { callApi, createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { type App, createAccountsApp, latestMail, PASSWORD, sessionCookie, signupMember } from './helpers';

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

const NEW_PASSWORD = 'Copper-Meadow-Lantern-58';

const login = (email: string, password: string) =>
	callApi(app, 'POST', '/api/auth/login', { body: { email, password } });

const change = (token: string, cookie: string | undefined, body: unknown) =>
	callApi(app, 'POST', '/api/auth/password/change', {
		token,
		body,
		headers: cookie ? { cookie } : {},
	});

const refresh = (cookie: string) => callApi(app, 'GET', '/api/auth/refresh-token', { headers: { cookie } });

describe('changing the password while signed in', () => {
	test('takes the new password, ends the other sign-ins and keeps this one', async () => {
		const here = await signupMember(app);
		const phone = await login('ada@example.test', PASSWORD);
		expect(phone.status).toBe(200);
		const phoneCookie = sessionCookie(phone.headers) as string;

		const changed = await change(here.token, here.cookie, {
			current_password: PASSWORD,
			new_password: NEW_PASSWORD,
		});
		expect(changed.status).toBe(200);
		expect(changed.json).toEqual({ status: 'changed', ended_sessions: 1 });

		expect((await refresh(here.cookie)).status).toBe(200);
		expect((await refresh(phoneCookie)).status).toBe(401);
		expect((await login('ada@example.test', PASSWORD)).status).toBe(401);
		expect((await login('ada@example.test', NEW_PASSWORD)).status).toBe(200);
		expect((await latestMail(deps, 'ada@example.test')).row?.subject).toBe('Your password was changed');
	});

	test('a wrong current password is refused clearly and changes nothing', async () => {
		const member = await signupMember(app);
		const refused = await change(member.token, member.cookie, {
			current_password: 'not-my-password-at-all',
			new_password: NEW_PASSWORD,
		});
		expect(refused.status).toBe(403);
		expect(refused.json).toMatchObject({
			error: 'access_denied',
			message: 'Your current password is not right.',
			fields: [{ field: 'current_password' }],
		});
		expect((await login('ada@example.test', PASSWORD)).status).toBe(200);
		expect((await refresh(member.cookie)).status).toBe(200);
	});

	test('the new password follows the signup rules', async () => {
		const member = await signupMember(app);
		const cases: [unknown, number, string][] = [
			[{ new_password: NEW_PASSWORD }, 400, 'blank_current_password'],
			[{ current_password: PASSWORD }, 400, 'blank_new_password'],
			[{ current_password: PASSWORD, new_password: 'short' }, 400, 'new_password_invalid_format'],
			[{ current_password: PASSWORD, new_password: 'password123' }, 400, 'new_password_unknown_error'],
			[{ current_password: PASSWORD, new_password: PASSWORD }, 400, 'new_password_invalid_format'],
			[{ current_password: 7, new_password: NEW_PASSWORD }, 400, 'current_password_unknown_error'],
		];
		for (const [body, status, error] of cases) {
			const answer = await change(member.token, member.cookie, body);
			expect(answer.status, JSON.stringify(body)).toBe(status);
			expect(answer.json.error, JSON.stringify(body)).toBe(error);
		}
		expect((await login('ada@example.test', PASSWORD)).status).toBe(200);
	});

	test('needs a signed-in member', async () => {
		const answer = await callApi(app, 'POST', '/api/auth/password/change', {
			body: { current_password: PASSWORD, new_password: NEW_PASSWORD },
		});
		expect(answer.status).toBe(401);
	});

	test('guessing the current password is throttled like login', async () => {
		const member = await signupMember(app);
		for (let i = 0; i < 10; i++) {
			const wrong = await change(member.token, member.cookie, {
				current_password: `guess-${i}`,
				new_password: NEW_PASSWORD,
			});
			expect(wrong.status).toBe(403);
		}
		const blocked = await change(member.token, member.cookie, {
			current_password: PASSWORD,
			new_password: NEW_PASSWORD,
		});
		expect(blocked.status).toBe(429);
		expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
	});
});
