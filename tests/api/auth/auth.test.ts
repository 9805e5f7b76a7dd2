import argon2 from 'argon2';
import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { ROTATED_COOKIE_GRACE_SECONDS } from '../../../src/lib/auth/server/session';
import { refreshTokens, users } from '../../../src/lib/auth/server/tables';
import { readConfig } from '../../../src/lib/core/config';
import { callApi, createTestDeps, signInAs } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import {
	type App,
	createAccountsApp,
	latestMail,
	PASSWORD,
	sessionCookie,
	signupBody,
	signupMember,
} from './helpers';

let database: TestDatabase;
let deps: ReturnType<typeof createTestDeps>;
let app: App;
/** The same API behind a proxy we trust, so X-Forwarded-For names the caller. */
let proxied: App;

beforeAll(async () => {
	database = await openTestDb();
	deps = createTestDeps(database.db);
	app = createAccountsApp(deps);
	proxied = createAccountsApp({
		...deps,
		config: readConfig({ NODE_ENV: 'test', PUBLIC_URL: 'http://localhost:4321', TRUSTED_PROXY: 'true' }),
	});
});
beforeEach(() => database.reset());
afterAll(() => database.close());

/**
 * Moves the test clock forward, and the system clock with it where a test fakes it: the login
 * throttle's counts (rate-limiter-flexible) lapse by Date.now().
 */
const advance = (seconds: number) => {
	(deps.clock as unknown as { advance: (s: number) => void }).advance(seconds);
	if (vi.isFakeTimers()) vi.setSystemTime(Date.now() + seconds * 1000);
};

const login = (target: App, email: string, password: string, headers: Record<string, string> = {}) =>
	callApi(target, 'POST', '/api/auth/login', { body: { email, password }, headers });

describe('signup', () => {
	test('creates the member, signs them in with an HttpOnly SameSite cookie and hashes with argon2id', async () => {
		const response = await callApi(app, 'POST', '/api/auth/signup', { body: signupBody() });
		expect(response.status).toBe(201);
		expect(response.json.user).toMatchObject({
			email: 'ada@example.test',
			first_name: 'Ada',
			last_name: 'Runner',
			gender: 'F',
			birthdate: '1990-04-12',
			display_measurement_system: 'metric',
			preferred_language: 'en-us',
			email_verified: false,
			location: { country: 'GB', locality: 'London' },
		});
		expect(response.json.user.date_joined).toMatch(/\+00:00$/);
		expect(response.json.expires_in).toBe(600);
		const cookie = response.headers.getSetCookie().find((line) => line.startsWith('ms_session='));
		expect(cookie).toMatch(/HttpOnly/);
		expect(cookie).toMatch(/SameSite=Strict/);
		expect(cookie).toMatch(/Path=\//);
		expect(cookie).not.toMatch(/Secure/);
		expect(response.headers.getSetCookie().some((line) => line.startsWith('ms_hint='))).toBe(true);
		const [row] = await deps.db.select().from(users).where(eq(users.email, 'ada@example.test'));
		expect(row.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$[A-Za-z0-9+/]{22}\$/);
		expect(row.signupConsents).toMatchObject({ consentMatrixVersion: '3', gdprIsoCode: 'GB' });
		const mail = await latestMail(deps, 'ada@example.test');
		expect(mail.row.subject).toBe('Confirm your email address');
		expect(mail.link).toMatch(/^http:\/\/localhost:4321\/verify_email\/[A-Za-z0-9_-]{43}$/);
	});

	test('sets the Secure __Host- cookie on an https site', async () => {
		const secure = createAccountsApp({
			...deps,
			config: readConfig({ NODE_ENV: 'test', PUBLIC_URL: 'https://mapstride.example' }),
		});
		const response = await callApi(secure, 'POST', '/api/auth/signup', { body: signupBody() });
		const cookie = response.headers.getSetCookie().find((line) => line.startsWith('__Host-ms_session='));
		expect(cookie).toMatch(/Secure/);
		expect(cookie).toMatch(/SameSite=Strict/);
	});

	test.each([
		['first_name', { first_name: '' }, 'blank_first_name', 'First name is required.'],
		['last_name', { last_name: ' ' }, 'blank_last_name', 'Last name is required.'],
		['email', { email: '' }, 'blank_email', 'Email is required.'],
		['email format', { email: 'ada@nowhere' }, 'email_invalid_format', 'Invalid email format'],
		['password', { password: '' }, 'blank_password', 'Password is required.'],
		['birthdate', { birthdate: '' }, 'blank_birthdate', 'Birthdate is required.'],
		['impossible birthdate', { birthdate: '1990-02-30' }, 'birthdate_invalid_format', 'Invalid date.'],
		['too young', { birthdate: '2024-01-01' }, 'birthdate_invalid_format', 'Invalid date.'],
		['too old', { birthdate: '1890-01-01' }, 'birthdate_invalid_format', 'Invalid date.'],
		['gender', { gender: '' }, 'blank_gender', 'Gender is required.'],
		['gender choice', { gender: 'X' }, 'gender_invalid_format', 'Select a valid choice.'],
		['country', { location: { country: '' } }, 'blank_country', 'Country is required.'],
		['wrong type', { first_name: 7 }, 'first_name_unknown_error', undefined],
	])('refuses a bad %s with its own code', async (_name, override, code, message) => {
		const response = await callApi(app, 'POST', '/api/auth/signup', { body: signupBody(override) });
		expect(response.status).toBe(400);
		expect(response.json.error).toBe(code);
		if (message) expect(response.json.message).toBe(message);
	});

	test('lists every failing field for the form', async () => {
		const response = await callApi(app, 'POST', '/api/auth/signup', { body: {} });
		expect(response.status).toBe(400);
		expect(response.json.error).toBe('blank_first_name');
		expect(response.json.fields.map((f: { code: string }) => f.code)).toEqual([
			'blank_first_name',
			'blank_last_name',
			'blank_email',
			'blank_password',
			'blank_birthdate',
			'blank_gender',
			'blank_country',
		]);
	});

	test.each([
		['7 characters', 'k9#Lm2q', 'password_invalid_format', /at least 8/],
		['a top common password', 'iloveyou1', 'password_unknown_error', /common/],
		['Password1! (on the common list)', 'Password1!', 'password_unknown_error', /common/],
		['qwertyuiop', 'qwertyuiop', 'password_unknown_error', /common/],
	])('refuses %s with a reason', async (_name, password, code, reason) => {
		const response = await callApi(app, 'POST', '/api/auth/signup', { body: signupBody({ password }) });
		expect(response.status).toBe(400);
		expect(response.json.error).toBe(code);
		expect(response.json.message).toMatch(reason);
	});

	test('accepts long Unicode passphrases and never truncates them', async () => {
		const passphrase = [...'ünïcødé-läufer-'.repeat(9)].slice(0, 128).join('');
		expect([...passphrase].length).toBe(128);
		expect(
			(await callApi(app, 'POST', '/api/auth/signup', { body: signupBody({ password: passphrase }) })).status,
		).toBe(201);
		const first = `${'x7Kq!'.repeat(15)}AAAAAAAA`;
		const second = `${'x7Kq!'.repeat(15)}BBBBBBBB`;
		expect(Buffer.byteLength(first)).toBe(83);
		await signupMember(app, { email: 'long@example.test', password: first });
		expect((await login(app, 'long@example.test', first)).status).toBe(200);
		expect((await login(app, 'long@example.test', second)).status).toBe(401);
	});

	test("answers 'email/used' for a taken address, whatever its case", async () => {
		await signupMember(app);
		const response = await callApi(app, 'POST', '/api/auth/signup', {
			body: signupBody({ email: 'ADA@Example.test' }),
		});
		expect(response.status).toBe(409);
		expect(response.json.error).toBe('email/used');
	});
});

describe('login', () => {
	test('signs in, answers the token and the member, and sets a fresh session cookie', async () => {
		const member = await signupMember(app);
		const response = await login(app, 'ada@example.test', PASSWORD);
		expect(response.status).toBe(200);
		expect(response.json.user.id).toBe(member.id);
		expect(response.json.token_type).toBe('Bearer');
		const cookie = sessionCookie(response.headers);
		expect(cookie).toBeDefined();
		expect(cookie).not.toBe(member.cookie);
		expect(response.headers.get('cache-control')).toBe('no-store');
		const self = await callApi(app, 'GET', '/api/v7.1/user/self/', { token: response.json.access_token });
		expect(self.json.email).toBe('ada@example.test');
	});

	test('answers a wrong password and an unknown email alike, for the same work', async () => {
		await signupMember(app);
		const wrong = await login(app, 'ada@example.test', 'not-the-password-1');
		const unknown = await login(app, 'nobody@example.test', 'not-the-password-1');
		expect(wrong.status).toBe(401);
		expect(unknown.status).toBe(401);
		expect(wrong.json).toEqual(unknown.json);
		expect(wrong.json.error).toBe('access_denied');
		// The work each answer costs is counted in CPU time, across all of this process's threads (the
		// password hash runs on libuv's): unlike the time on the clock, it does not grow when other
		// processes take the cores, so a busy machine cannot make the two kinds look different.
		const samples = { known: [] as number[], missing: [] as number[] };
		for (let i = 0; i < 7; i++) {
			for (const [kind, email] of [
				['known', 'ada@example.test'],
				['missing', 'nobody@example.test'],
			] as const) {
				const started = process.cpuUsage();
				await login(app, email, `wrong-password-${i}`);
				const used = process.cpuUsage(started);
				samples[kind].push(used.user + used.system);
			}
		}
		const median = (values: number[]) => values.sort((a, b) => a - b)[3];
		const known = median(samples.known);
		const missing = median(samples.missing);
		expect(missing / known).toBeGreaterThan(0.5);
		expect(missing / known).toBeLessThan(2);
	});

	test.each([
		[{ email: '', password: 'x' }, 'blank_email'],
		[{ email: 'ada', password: 'x' }, 'email_invalid_format'],
		[{ email: 'ada@example.test', password: '' }, 'blank_password'],
	])('validates %j', async (body, code) => {
		const response = await callApi(app, 'POST', '/api/auth/login', { body });
		expect(response.status).toBe(400);
		expect(response.json.error).toBe(code);
	});

	test('rehashes a password stored with weaker argon2 parameters', async () => {
		const member = await signupMember(app);
		const weak = await argon2.hash(PASSWORD, {
			type: argon2.argon2id,
			memoryCost: 4096,
			timeCost: 1,
			parallelism: 1,
		});
		await deps.db.update(users).set({ passwordHash: weak }).where(eq(users.id, member.id));
		expect((await login(app, 'ada@example.test', PASSWORD)).status).toBe(200);
		const [row] = await deps.db.select().from(users).where(eq(users.id, member.id));
		expect(row.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
		expect((await login(app, 'ada@example.test', PASSWORD)).status).toBe(200);
	});
});

describe('brute force', () => {
	beforeEach(() => {
		vi.useFakeTimers({ toFake: ['Date'] });
	});
	afterEach(() => {
		vi.useRealTimers();
	});

	test('10 failures for one account from one address give 429 with Retry-After, even for the right password', async () => {
		await signupMember(app);
		for (let i = 0; i < 10; i++)
			expect((await login(app, 'ada@example.test', `guess-${i}`)).status).toBe(401);
		const blocked = await login(app, 'ada@example.test', PASSWORD);
		expect(blocked.status).toBe(429);
		expect(blocked.json.error).toBe('too_many_attempts');
		expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
		expect(Number(blocked.headers.get('retry-after'))).toBeLessThanOrEqual(900);
		// The pause ends on its own.
		advance(901);
		expect((await login(app, 'ada@example.test', PASSWORD)).status).toBe(200);
	});

	test('40 wrong passwords at once: exactly 10 reach the password check, the rest get 429 with Retry-After', async () => {
		await signupMember(app);
		const answers = await Promise.all(
			Array.from({ length: 40 }, (_, i) => login(app, 'ada@example.test', `parallel-guess-${i}`)),
		);
		const statuses = answers.map((answer) => answer.status);
		expect(statuses.filter((status) => status === 401)).toHaveLength(10);
		expect(statuses.filter((status) => status === 429)).toHaveLength(30);
		for (const answer of answers.filter((a) => a.status === 429)) {
			expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
			expect(Number(answer.headers.get('retry-after'))).toBeLessThanOrEqual(900);
		}
		expect((await login(app, 'ada@example.test', PASSWORD)).status).toBe(429);
	}, 120_000);

	test('after a pause, one more try is let through; a wrong one starts the next pause', async () => {
		await signupMember(app);
		for (let i = 0; i < 10; i++) await login(app, 'ada@example.test', `guess-${i}`);
		advance(901);
		expect((await login(app, 'ada@example.test', 'guess-after-pause')).status).toBe(401);
		expect((await login(app, 'ada@example.test', PASSWORD)).status).toBe(429);
		advance(901);
		expect((await login(app, 'ada@example.test', PASSWORD)).status).toBe(200);
		// A success starts the count afresh.
		for (let i = 0; i < 9; i++) await login(app, 'ada@example.test', `again-${i}`);
		expect((await login(app, 'ada@example.test', PASSWORD)).status).toBe(200);
	});

	test('a spoofed X-Forwarded-For is ignored unless the proxy is trusted; other addresses still log in', async () => {
		await signupMember(app);
		const attacker = { 'x-forwarded-for': '203.0.113.9' };
		for (let i = 0; i < 10; i++) await login(proxied, 'ada@example.test', `guess-${i}`, attacker);
		expect((await login(proxied, 'ada@example.test', PASSWORD, attacker)).status).toBe(429);
		// The member, from their own address, is not locked out.
		expect(
			(await login(proxied, 'ada@example.test', PASSWORD, { 'x-forwarded-for': '198.51.100.7' })).status,
		).toBe(200);
		// Without a trusted proxy the header means nothing: rotating it does not reset the count.
		for (let i = 0; i < 10; i++)
			await login(app, 'ada@example.test', `guess-${i}`, { 'x-forwarded-for': `10.0.0.${i}` });
		expect((await login(app, 'ada@example.test', PASSWORD, { 'x-forwarded-for': '10.0.0.99' })).status).toBe(
			429,
		);
	});

	test('a password reset lifts the pause', async () => {
		await signupMember(app);
		for (let i = 0; i < 10; i++) await login(app, 'ada@example.test', `guess-${i}`);
		expect((await login(app, 'ada@example.test', PASSWORD)).status).toBe(429);
		await callApi(app, 'POST', '/api/auth/password-reset', { body: { email: 'ada@example.test' } });
		const { token } = await latestMail(deps, 'ada@example.test');
		const reset = await callApi(app, 'POST', `/api/auth/password/reset/${token}`, {
			body: { password: 'Green-Violin-Harbour-7' },
		});
		expect(reset.status).toBe(200);
		expect((await login(app, 'ada@example.test', 'Green-Violin-Harbour-7')).status).toBe(200);
	});

	test('one address is capped at 100 failures a day across any accounts, signups to used emails included', async () => {
		const from = { 'x-forwarded-for': '192.0.2.50' };
		await signupMember(proxied, { email: 'taken@example.test' });
		// A new member's signup spends nothing.
		const fresh = await callApi(proxied, 'POST', '/api/auth/signup', {
			body: signupBody({ email: 'fresh@example.test' }),
			headers: from,
		});
		expect(fresh.status).toBe(201);
		for (let i = 0; i < 20; i++) {
			const probe = await callApi(proxied, 'POST', '/api/auth/signup', {
				body: signupBody({ email: 'taken@example.test' }),
				headers: from,
			});
			expect(probe.status).toBe(409);
			expect(probe.json.error).toBe('email/used');
		}
		for (let i = 0; i < 80; i++) {
			const response = await login(proxied, `someone${i}@example.test`, 'wrong-password', from);
			expect(response.status).toBe(401);
		}
		const capped = await login(proxied, 'someone-else@example.test', 'wrong-password', from);
		expect(capped.status).toBe(429);
		expect(Number(capped.headers.get('retry-after'))).toBeGreaterThan(3600);
		const probe = await callApi(proxied, 'POST', '/api/auth/signup', {
			body: signupBody({ email: 'taken@example.test' }),
			headers: { ...from },
		});
		expect(probe.status).toBe(429);
		expect(Number(probe.headers.get('retry-after'))).toBeGreaterThan(3600);
		// Another address is unaffected.
		const elsewhere = await callApi(proxied, 'POST', '/api/auth/signup', {
			body: signupBody({ email: 'taken@example.test' }),
			headers: { 'x-forwarded-for': '198.51.100.60' },
		});
		expect(elsewhere.status).toBe(409);
	}, 180_000);
});

describe('sessions', () => {
	test('refresh rotates the cookie and answers a short-lived access token with the member', async () => {
		const member = await signupMember(app);
		const refreshed = await callApi(app, 'GET', '/api/auth/refresh-token', {
			headers: { cookie: member.cookie },
		});
		expect(refreshed.status).toBe(200);
		expect(refreshed.json).toMatchObject({ token_type: 'Bearer', expires_in: 600, user: { id: member.id } });
		const next = sessionCookie(refreshed.headers);
		expect(next).toBeDefined();
		expect(next).not.toBe(member.cookie);
		expect(
			(await callApi(app, 'GET', '/api/v7.1/user/self/', { token: refreshed.json.access_token })).status,
		).toBe(200);
	});

	test('a refresh token presented twice revokes its whole family', async () => {
		const member = await signupMember(app);
		const first = await callApi(app, 'GET', '/api/auth/refresh-token', {
			headers: { cookie: member.cookie },
		});
		const successor = sessionCookie(first.headers) as string;
		// Past the few seconds in which a lost answer or a second tab explains it (session-grace.test.ts).
		advance(ROTATED_COOKIE_GRACE_SECONDS + 1);
		const replay = await callApi(app, 'GET', '/api/auth/refresh-token', {
			headers: { cookie: member.cookie },
		});
		expect(replay.status).toBe(401);
		expect(replay.json.error).toBe('invalid_session');
		const honest = await callApi(app, 'GET', '/api/auth/refresh-token', { headers: { cookie: successor } });
		expect(honest.status).toBe(401);
	});

	test('a refused refresh deletes only the cookies it was sent, not a session set since', async () => {
		// A page opened signed out asks for a refresh; its 401 may arrive after the member signed in.
		const visitor = await callApi(app, 'GET', '/api/auth/refresh-token');
		expect(visitor.status).toBe(401);
		expect(visitor.headers.getSetCookie()).toEqual([]);
		const hintOnly = await callApi(app, 'GET', '/api/auth/refresh-token', {
			headers: { cookie: 'ms_hint=x' },
		});
		expect(hintOnly.headers.getSetCookie().map((line) => line.split('=')[0])).toEqual(['ms_hint']);
		const stale = await callApi(app, 'GET', '/api/auth/refresh-token', {
			headers: { cookie: 'ms_session=not-a-session' },
		});
		expect(stale.status).toBe(401);
		expect(stale.headers.getSetCookie().some((line) => /^ms_session=;.*Max-Age=0/.test(line))).toBe(true);
	});

	test('sessions end after their absolute lifetime however often refreshed', async () => {
		const member = await signupMember(app);
		let cookie = member.cookie;
		for (let day = 0; day < 3; day++) {
			advance(10 * 24 * 3600);
			const response = await callApi(app, 'GET', '/api/auth/refresh-token', { headers: { cookie } });
			if (day < 2) {
				expect(response.status).toBe(200);
				cookie = sessionCookie(response.headers) as string;
			} else expect(response.status).toBe(401);
		}
	});

	test('logout revokes the session server-side and clears the cookies', async () => {
		const member = await signupMember(app);
		const out = await callApi(app, 'GET', '/api/auth/logout', { headers: { cookie: member.cookie } });
		expect(out.status).toBe(200);
		expect(out.headers.getSetCookie().some((line) => /^ms_session=;.*Max-Age=0/.test(line))).toBe(true);
		expect(out.headers.getSetCookie().some((line) => /^ms_hint=;.*Max-Age=0/.test(line))).toBe(true);
		const after = await callApi(app, 'GET', '/api/auth/refresh-token', {
			headers: { cookie: member.cookie },
		});
		expect(after.status).toBe(401);
	});

	test('refuses forged or expired access tokens', async () => {
		const member = await signupMember(app);
		const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(
			JSON.stringify({ sub: String(member.id), username: 'x', iss: 'mapstride', aud: 'mapstride-api' }),
		).toString('base64url')}.`;
		expect((await callApi(app, 'GET', '/api/v7.1/user/self/', { token: none })).status).toBe(401);
		const otherKey = await new SignJWT({ username: 'x' })
			.setProtectedHeader({ alg: 'HS256' })
			.setSubject(String(member.id))
			.setIssuer('mapstride')
			.setAudience('mapstride-api')
			.setExpirationTime('5m')
			.sign(new TextEncoder().encode('some-other-secret-of-at-least-32-characters'));
		expect((await callApi(app, 'GET', '/api/v7.1/user/self/', { token: otherKey })).status).toBe(401);
		advance(601);
		expect((await callApi(app, 'GET', '/api/v7.1/user/self/', { token: member.token })).status).toBe(401);
	});

	test('refuses cross-site requests to cookie endpoints and unknown body types', async () => {
		const member = await signupMember(app);
		const evil = await callApi(app, 'POST', '/api/auth/login', {
			body: { email: 'ada@example.test', password: PASSWORD },
			headers: { origin: 'https://evil.test' },
		});
		expect(evil.status).toBe(403);
		const form = await app.request('/api/auth/login', {
			method: 'POST',
			headers: { origin: 'https://evil.test', 'content-type': 'application/x-www-form-urlencoded' },
			body: 'email=ada%40example.test',
		});
		expect(form.status).toBe(403);
		const crossRefresh = await callApi(app, 'GET', '/api/auth/refresh-token', {
			headers: { cookie: member.cookie, 'sec-fetch-site': 'cross-site' },
		});
		expect(crossRefresh.status).toBe(403);
		const crossLogout = await callApi(app, 'GET', '/api/auth/logout', {
			headers: { cookie: member.cookie, 'sec-fetch-site': 'cross-site' },
		});
		expect(crossLogout.status).toBe(403);
		// The session survived both attempts.
		expect(
			(await callApi(app, 'GET', '/api/auth/refresh-token', { headers: { cookie: member.cookie } })).status,
		).toBe(200);
		const plain = await callApi(app, 'POST', '/api/auth/login', {
			body: JSON.stringify({ email: 'ada@example.test', password: PASSWORD }),
			headers: { 'content-type': 'text/plain' },
		});
		expect(plain.status).toBe(415);
		const sameOrigin = await callApi(app, 'POST', '/api/auth/login', {
			body: { email: 'ada@example.test', password: PASSWORD },
			headers: { origin: 'http://localhost:4321', 'sec-fetch-site': 'same-origin' },
		});
		expect(sameOrigin.status).toBe(200);
	});
});

/** The old bearer token, tried on a read and on a write. */
async function bearerStatuses(target: App, member: { id: number }, token: string) {
	const read = await callApi(target, 'GET', '/api/v7.1/user/self/', { token });
	const write = await callApi(target, 'PUT', `/api/v7.1/user/${member.id}/`, {
		token,
		body: { first_name: 'Adah' },
	});
	return [read.status, write.status];
}

describe('access tokens end with their sign-in (ASVS 7.4)', () => {
	test("logout by cookie ends that sign-in's access tokens at once, and only those", async () => {
		const member = await signupMember(app);
		const other = await login(app, 'ada@example.test', PASSWORD);
		expect(await bearerStatuses(app, member, member.token)).toEqual([200, 200]);
		await callApi(app, 'GET', '/api/auth/logout', { headers: { cookie: member.cookie } });
		expect(await bearerStatuses(app, member, member.token)).toEqual([401, 401]);
		expect(await bearerStatuses(app, member, other.json.access_token)).toEqual([200, 200]);
	});

	test("logout with only a bearer token (an app) ends that token's sign-in", async () => {
		const member = await signupMember(app);
		expect((await callApi(app, 'GET', '/api/auth/logout', { token: member.token })).status).toBe(200);
		expect(await bearerStatuses(app, member, member.token)).toEqual([401, 401]);
		expect(
			(await callApi(app, 'GET', '/api/auth/refresh-token', { headers: { cookie: member.cookie } })).status,
		).toBe(401);
	});

	test('ending a session from "Where you\'re logged in" ends the other device\'s token at once', async () => {
		const member = await signupMember(app);
		const phone = await login(app, 'ada@example.test', PASSWORD, { 'user-agent': 'Phone browser' });
		const phoneToken = phone.json.access_token as string;
		expect(await bearerStatuses(app, member, phoneToken)).toEqual([200, 200]);
		const list = await callApi(app, 'GET', '/api/auth/sessions', { token: member.token });
		const phoneSession = list.json.sessions.find(
			(s: { user_agent: string }) => s.user_agent === 'Phone browser',
		);
		const ended = await app.request(`/api/auth/sessions/${phoneSession.id}`, {
			method: 'DELETE',
			headers: { authorization: `Bearer ${member.token}` },
		});
		expect(ended.status).toBe(200);
		expect(await bearerStatuses(app, member, phoneToken)).toEqual([401, 401]);
		expect(await bearerStatuses(app, member, member.token)).toEqual([200, 200]);
	});

	test('a password reset ends every access token of the member at once', async () => {
		const member = await signupMember(app);
		const second = await login(app, 'ada@example.test', PASSWORD);
		expect(await bearerStatuses(app, member, member.token)).toEqual([200, 200]);
		await callApi(app, 'POST', '/api/auth/password-reset', { body: { email: 'ada@example.test' } });
		const { token } = await latestMail(deps, 'ada@example.test');
		const reset = await callApi(app, 'POST', `/api/auth/password/reset/${token}`, {
			body: { password: 'Green-Violin-Harbour-7' },
		});
		expect(reset.status).toBe(200);
		expect(await bearerStatuses(app, member, member.token)).toEqual([401, 401]);
		expect(await bearerStatuses(app, member, second.json.access_token)).toEqual([401, 401]);
	});

	test('deleting the account ends its access tokens at once', async () => {
		const member = await signupMember(app);
		expect(await bearerStatuses(app, member, member.token)).toEqual([200, 200]);
		const deleted = await callApi(app, 'DELETE', `/api/auth/deletion-request/${member.id}`, {
			token: member.token,
			body: { password: PASSWORD },
		});
		expect(deleted.status).toBe(200);
		expect(await bearerStatuses(app, member, member.token)).toEqual([401, 401]);
	});

	test('a token whose sign-in another server process ended is refused within the cache time', async () => {
		const member = await signupMember(app);
		expect(await bearerStatuses(app, member, member.token)).toEqual([200, 200]);
		// Another process writes the revocation; this one has no chance to forget its cached answer.
		await deps.db
			.update(refreshTokens)
			.set({ revokedAt: deps.clock() })
			.where(eq(refreshTokens.userId, member.id));
		await new Promise((resolve) => setTimeout(resolve, 1100));
		expect(await bearerStatuses(app, member, member.token)).toEqual([401, 401]);
	});
});

describe('password reset', () => {
	test('answers known and unknown emails alike', async () => {
		await signupMember(app);
		const known = await callApi(app, 'POST', '/api/auth/password-reset', {
			body: { email: 'ada@example.test' },
		});
		const unknown = await callApi(app, 'POST', '/api/auth/password-reset', {
			body: { email: 'nobody@example.test' },
		});
		expect(known.status).toBe(200);
		expect(unknown.status).toBe(200);
		expect(known.json).toEqual(unknown.json);
		expect((await latestMail(deps, 'nobody@example.test')).row).toBeUndefined();
	});

	test.each([
		[{}, 'blank_email'],
		[{ email: 'not-an-email' }, 'email_invalid_format'],
	])('validates the email %j', async (body, code) => {
		const response = await callApi(app, 'POST', '/api/auth/password-reset', { body });
		expect(response.status).toBe(400);
		expect(response.json.error).toBe(code);
	});

	test('a link with a 256-bit token resets once, signs out everywhere and keeps only a local redirect', async () => {
		const member = await signupMember(app);
		await callApi(app, 'POST', '/api/auth/password-reset', {
			body: { email: 'ada@example.test', redirect_uri: '/dashboard' },
		});
		const { link, token } = await latestMail(deps, 'ada@example.test');
		expect(link).toMatch(/^http:\/\/localhost:4321\/password_reset\/[A-Za-z0-9_-]{43}$/);
		const check = await callApi(app, 'GET', `/api/auth/password/reset/${token}`);
		expect(check.json).toEqual({ status: 'valid', user_id: member.id });
		const weak = await callApi(app, 'POST', `/api/auth/password/reset/${token}`, {
			body: { password: 'password1' },
		});
		expect(weak.json.error).toBe('password_unknown_error');
		const short = await callApi(app, 'POST', `/api/auth/password/reset/${token}`, {
			body: { password: 'a1!' },
		});
		expect(short.json.error).toBe('password_invalid_format');
		const done = await callApi(app, 'POST', `/api/auth/password/reset/${token}`, {
			body: { password: 'Green-Violin-Harbour-7', recaptchaToken: 'x' },
		});
		expect(done.json).toEqual({ status: 'success', user_id: member.id, redirect_uri: '/dashboard' });
		expect(
			(await callApi(app, 'GET', '/api/auth/refresh-token', { headers: { cookie: member.cookie } })).status,
		).toBe(401);
		expect((await login(app, 'ada@example.test', PASSWORD)).status).toBe(401);
		expect((await login(app, 'ada@example.test', 'Green-Violin-Harbour-7')).status).toBe(200);
		const again = await callApi(app, 'POST', `/api/auth/password/reset/${token}`, {
			body: { password: 'Another-Fresh-Phrase-9' },
		});
		expect(again.status).toBe(400);
		expect(again.json.error).toBe('used_token');
	});

	test('refuses an open redirect', async () => {
		await signupMember(app);
		await callApi(app, 'POST', '/api/auth/password-reset', {
			body: { email: 'ada@example.test', redirect_uri: '//evil.test/x' },
		});
		const { token } = await latestMail(deps, 'ada@example.test');
		const done = await callApi(app, 'POST', `/api/auth/password/reset/${token}`, {
			body: { password: 'Green-Violin-Harbour-7' },
		});
		expect(done.json.redirect_uri).toBeNull();
	});

	test('a link dies after 60 minutes and when a newer one is sent', async () => {
		await signupMember(app);
		await callApi(app, 'POST', '/api/auth/password-reset', { body: { email: 'ada@example.test' } });
		const older = (await latestMail(deps, 'ada@example.test')).token;
		await callApi(app, 'POST', '/api/auth/password-reset', { body: { email: 'ada@example.test' } });
		const newer = (await latestMail(deps, 'ada@example.test')).token;
		expect(newer).not.toBe(older);
		const replaced = await callApi(app, 'GET', `/api/auth/password/reset/${older}`);
		expect(replaced.status).toBe(400);
		expect(replaced.json.error).toBe('used_token');
		expect((await callApi(app, 'GET', `/api/auth/password/reset/${newer}`)).status).toBe(200);
		advance(61 * 60);
		const late = await callApi(app, 'POST', `/api/auth/password/reset/${newer}`, {
			body: { password: 'Green-Violin-Harbour-7' },
		});
		expect(late.status).toBe(400);
		expect(late.json.error).toBe('expired_token');
		const unknown = await callApi(app, 'GET', '/api/auth/password/reset/not-a-real-token-at-all-000000');
		expect(unknown.status).toBe(400);
		expect(unknown.json.error).toBe('invalid_token');
	});
});

describe('email confirmation', () => {
	test('confirms once with the mailed link', async () => {
		const member = await signupMember(app);
		const { token } = await latestMail(deps, 'ada@example.test');
		const confirmed = await callApi(app, 'POST', `/api/auth/email/confirm/${token}`);
		expect(confirmed.json).toEqual({ status: 'confirmed', user_id: member.id });
		const self = await callApi(app, 'GET', '/api/v7.1/user/self/', { token: member.token });
		expect(self.json.email_verified).toBe(true);
		const again = await callApi(app, 'POST', `/api/auth/email/confirm/${token}`);
		expect(again.status).toBe(400);
		expect(again.json.error).toBe('used_token');
	});
});

describe('look-ups and small endpoints', () => {
	test('find-user-by-email tells anonymous callers nothing and respects email-search privacy', async () => {
		const ada = await signupMember(app);
		const bob = await signupMember(app, { email: 'bob@example.test', first_name: 'Bob' });
		expect((await callApi(app, 'GET', '/api/auth/find-user-by-email/ada@example.test')).status).toBe(401);
		expect((await callApi(app, 'GET', '/api/auth/find-user-by-email/nobody@example.test')).status).toBe(401);
		const hidden = await callApi(app, 'GET', '/api/auth/find-user-by-email/ada@example.test', {
			token: bob.token,
		});
		const missing = await callApi(app, 'GET', '/api/auth/find-user-by-email/nobody@example.test', {
			token: bob.token,
		});
		expect(hidden.status).toBe(404);
		expect(hidden.json).toEqual(missing.json);
		await callApi(app, 'PUT', `/api/v7.1/user/${ada.id}/`, {
			token: ada.token,
			body: { privacy: { email_search: 3 } },
		});
		const found = await callApi(app, 'GET', '/api/auth/find-user-by-email/ADA@example.test', {
			token: bob.token,
		});
		expect(found.status).toBe(200);
		expect(found.json.user.id).toBe(ada.id);
		expect(found.json.user.email).toBeUndefined();
	});

	test('geoip believes geo headers only from a trusted proxy', async () => {
		const headers = { 'x-geo-country': 'de', 'x-geo-region': 'BY' };
		expect((await callApi(app, 'GET', '/api/auth/geoip', { headers })).json).toEqual({
			country_code: 'US',
			region_code: null,
			source: 'default',
		});
		expect((await callApi(proxied, 'GET', '/api/auth/geoip', { headers })).json).toEqual({
			country_code: 'DE',
			region_code: 'BY',
			source: 'proxy',
		});
	});

	test('clear-legacy expires the old cookies', async () => {
		const response = await callApi(app, 'GET', '/api/auth/clear-legacy');
		expect(response.status).toBe(204);
		expect(response.headers.getSetCookie().some((line) => /^auth-token=;.*Max-Age=0/.test(line))).toBe(true);
	});

	test('access tokens are verified with the HS256 allow-list', async () => {
		const member = await signupMember(app);
		const token = await signInAs(deps, {
			id: member.id,
			username: member.user.username,
			displayName: 'Ada',
			isPremium: false,
		});
		expect((await callApi(app, 'GET', '/api/v7.1/user/self/', { token })).status).toBe(200);
	});
});

describe('session list', () => {
	test('a member sees their sign-ins and ends one; nobody else can', async () => {
		const member = await signupMember(app);
		const second = await callApi(app, 'POST', '/api/auth/login', {
			body: { email: 'ada@example.test', password: PASSWORD },
			headers: { 'user-agent': 'Phone browser' },
		});
		const list = await callApi(app, 'GET', '/api/auth/sessions', { token: member.token });
		expect(list.status).toBe(200);
		expect(list.json.sessions).toHaveLength(2);
		expect(list.json.sessions[0].created_datetime).toMatch(/\+00:00$/);
		const phone = list.json.sessions.find((s: { user_agent: string }) => s.user_agent === 'Phone browser');
		expect(phone.current).toBe(false);
		expect(list.json.sessions.find((s: { id: string }) => s.id !== phone.id).current).toBe(true);
		const bob = await signupMember(app, { email: 'bob@example.test' });
		expect(
			(await callApi(app, 'DELETE', `/api/auth/sessions/${phone.id}`, { token: bob.token })).status,
		).toBe(404);
		expect((await callApi(app, 'GET', '/api/auth/sessions')).status).toBe(401);
		expect(
			(await callApi(app, 'DELETE', `/api/auth/sessions/${phone.id}`, { token: member.token })).status,
		).toBe(200);
		const phoneCookie = sessionCookie(second.headers);
		expect(
			(await callApi(app, 'GET', '/api/auth/refresh-token', { headers: { cookie: phoneCookie as string } }))
				.status,
		).toBe(401);
		expect(
			(await callApi(app, 'GET', '/api/auth/refresh-token', { headers: { cookie: member.cookie } })).status,
		).toBe(200);
		expect(
			(await callApi(app, 'DELETE', '/api/auth/sessions/not-a-uuid', { token: member.token })).status,
		).toBe(400);
	});
});
