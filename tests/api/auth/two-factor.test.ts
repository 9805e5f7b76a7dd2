import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { memberAuthenticators, recoveryCodes } from '../../../src/lib/auth/server/tables';
import { callApi, createTestClock, createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { type App, createAccountsApp, latestMail, PASSWORD, sessionCookie, signupMember } from './helpers';

/**
 * Security test 16: a member turns on an authenticator app (TOTP, RFC 6238); a code works once;
 * recovery codes are shown once and kept hashed; sign-in then needs the code unless this device was
 * remembered; turning it off needs the password and a code; a reset by e-mail leaves it on; wrong codes
 * are counted like wrong passwords. Codes here come from the otpauth library as an app would make them.
 */
let database: TestDatabase;
let deps: ReturnType<typeof createTestDeps>;
let clock: ReturnType<typeof createTestClock>;
let app: App;

beforeAll(async () => {
	database = await openTestDb();
	clock = createTestClock();
	deps = createTestDeps(database.db, { clock });
	app = createAccountsApp(deps);
});
beforeEach(() => database.reset());
afterAll(() => database.close());

const EMAIL = 'ada@example.test';
const login = (headers: Record<string, string> = {}) =>
	callApi(app, 'POST', '/api/auth/login', { body: { email: EMAIL, password: PASSWORD }, headers });
const secondStep = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
	callApi(app, 'POST', '/api/auth/login/second_factor', { body, headers });
/** The code the member's app shows now (or `offsetS` seconds from now). */
const codeOf = (secret: string, offsetS = 0) =>
	new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
		timestamp: clock().getTime() + offsetS * 1000,
	});

/** Signs Ada up and turns her second factor on; answers her secret and recovery codes. */
async function withTwoFactor() {
	const member = await signupMember(app);
	const setup = await callApi(app, 'POST', '/api/auth/two_factor/setup', {
		token: member.token,
		body: { password: PASSWORD },
	});
	expect(setup.status).toBe(200);
	const secret = setup.json.secret as string;
	const confirmed = await callApi(app, 'POST', '/api/auth/two_factor/confirm', {
		token: member.token,
		body: { code: codeOf(secret) },
	});
	expect(confirmed.status).toBe(200);
	clock.advance(30);
	return { member, secret, recoveryCodes: confirmed.json.recovery_codes as string[] };
}

describe('two-step sign-in', () => {
	test('setting it up gives a QR code and secret; the first right code turns it on and shows recovery codes once', async () => {
		const member = await signupMember(app);
		const status = () => callApi(app, 'GET', '/api/auth/two_factor', { token: member.token });
		expect((await status()).json).toEqual({ enabled: false, recovery_codes_left: 0 });
		expect(
			(
				await callApi(app, 'POST', '/api/auth/two_factor/setup', {
					token: member.token,
					body: { password: 'wrong-one' },
				})
			).status,
		).toBe(403);
		const setup = await callApi(app, 'POST', '/api/auth/two_factor/setup', {
			token: member.token,
			body: { password: PASSWORD },
		});
		expect(setup.json.otpauth_uri).toMatch(
			/^otpauth:\/\/totp\/Mapstride:ada%40example\.test\?.*secret=[A-Z2-7]+/,
		);
		expect(setup.json.otpauth_uri).toContain(`secret=${setup.json.secret}`);
		expect(setup.json.qr_svg).toMatch(/^<svg [^>]*viewBox/);
		// Until a code confirms it, nothing changes: the password alone still signs in.
		expect((await status()).json.enabled).toBe(false);
		expect((await login()).status).toBe(200);
		// The secret is not stored as given.
		const [stored] = await deps.db.select().from(memberAuthenticators);
		expect(stored.sealedSecret).not.toContain(setup.json.secret);

		const wrong = await callApi(app, 'POST', '/api/auth/two_factor/confirm', {
			token: member.token,
			body: { code: '000000' === codeOf(setup.json.secret) ? '111111' : '000000' },
		});
		expect(wrong.status).toBe(401);
		expect(wrong.json.error).toBe('invalid_code');
		const confirmed = await callApi(app, 'POST', '/api/auth/two_factor/confirm', {
			token: member.token,
			body: { code: codeOf(setup.json.secret) },
		});
		expect(confirmed.status).toBe(200);
		const codes = confirmed.json.recovery_codes as string[];
		expect(codes).toHaveLength(10);
		expect(new Set(codes).size).toBe(10);
		for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
		expect((await status()).json).toEqual({ enabled: true, recovery_codes_left: 10 });
		// Kept only as hashes.
		const hashes = await deps.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, member.id));
		expect(hashes).toHaveLength(10);
		for (const row of hashes) expect(codes.join(' ')).not.toContain(row.codeHash.slice(0, 10));
		expect((await latestMail(deps, EMAIL)).row?.subject).toBe('Two-step sign-in is on');
	});

	test('the password alone then gets a challenge, not a session; a right code, once, signs in', async () => {
		const { secret } = await withTwoFactor();
		const first = await login();
		expect(first.status).toBe(401);
		expect(first.json).toMatchObject({ error: 'second_factor_required' });
		expect(first.json.access_token).toBeUndefined();
		expect(sessionCookie(first.headers)).toBeUndefined();

		const code = codeOf(secret);
		const wrong = await secondStep({
			challenge: first.json.challenge,
			code: code === '123456' ? '654321' : '123456',
		});
		expect(wrong.status).toBe(401);
		const signedIn = await secondStep({ challenge: first.json.challenge, code });
		expect(signedIn.status).toBe(200);
		expect(signedIn.json.access_token).toEqual(expect.any(String));
		expect(sessionCookie(signedIn.headers)).toBeDefined();
		// The challenge is spent, and the same code does not work a second time, even with a new challenge.
		expect((await secondStep({ challenge: first.json.challenge, code })).json.error).toBe(
			'challenge_expired',
		);
		const again = await login();
		expect((await secondStep({ challenge: again.json.challenge, code })).status).toBe(401);
		clock.advance(30);
		expect((await secondStep({ challenge: again.json.challenge, code: codeOf(secret) })).status).toBe(200);
	});

	test('a challenge runs out after five minutes', async () => {
		const { secret } = await withTwoFactor();
		const first = await login();
		clock.advance(5 * 60 + 1);
		const late = await secondStep({ challenge: first.json.challenge, code: codeOf(secret) });
		expect(late.status).toBe(401);
		expect(late.json.error).toBe('challenge_expired');
	});

	test('a recovery code works once in place of the app', async () => {
		const { recoveryCodes: codes, member } = await withTwoFactor();
		const first = await login();
		expect((await secondStep({ challenge: first.json.challenge, code: codes[3].toUpperCase() })).status).toBe(
			200,
		);
		const second = await login();
		expect((await secondStep({ challenge: second.json.challenge, code: codes[3] })).status).toBe(401);
		expect(
			(await secondStep({ challenge: second.json.challenge, code: codes[4].replace('-', '') })).status,
		).toBe(200);
		const status = await callApi(app, 'GET', '/api/auth/two_factor', { token: member.token });
		expect(status.json.recovery_codes_left).toBe(8);
	});

	test('a remembered device skips the code for 30 days, and only for that member', async () => {
		const { secret } = await withTwoFactor();
		const first = await login();
		const signedIn = await secondStep({
			challenge: first.json.challenge,
			code: codeOf(secret),
			remember_device: true,
		});
		const cookieLine = signedIn.headers.getSetCookie().find((line) => line.startsWith('mapstride_device='));
		expect(cookieLine).toMatch(/HttpOnly/i);
		expect(cookieLine).toMatch(/Path=\/api\/auth\//);
		const device = (cookieLine as string).split(';')[0];
		expect((await login({ cookie: device })).status).toBe(200);
		// A forged or altered cookie counts for nothing.
		expect((await login({ cookie: `${device.slice(0, -3)}abc` })).status).toBe(401);
		clock.advance(31 * 24 * 3600);
		expect((await login({ cookie: device })).status).toBe(401);
	});

	test('wrong codes are counted like wrong passwords: ten in a row pause the account from that address', async () => {
		const { secret } = await withTwoFactor();
		const first = await login();
		const right = codeOf(secret);
		const wrongCode = right === '000001' ? '000002' : '000001';
		for (let i = 0; i < 10; i++)
			expect((await secondStep({ challenge: first.json.challenge, code: wrongCode })).status).toBe(401);
		const paused = await secondStep({ challenge: first.json.challenge, code: right });
		expect(paused.status).toBe(429);
	});

	test('turning it off needs the password and a code; a password reset by e-mail leaves it on', async () => {
		const { member, secret } = await withTwoFactor();
		const disable = (body: Record<string, unknown>) =>
			callApi(app, 'POST', '/api/auth/two_factor/disable', { token: member.token, body });
		expect((await disable({ password: 'not-it', code: codeOf(secret) })).status).toBe(403);
		expect(
			(await disable({ password: PASSWORD, code: codeOf(secret) === '000000' ? '111111' : '000000' })).status,
		).toBe(401);

		const reset = await callApi(app, 'POST', '/api/auth/password-reset', { body: { email: EMAIL } });
		expect(reset.status).toBeLessThan(300);
		const { link } = await latestMail(deps, EMAIL);
		const token = (link as string).split('/').filter(Boolean).at(-1) as string;
		const NEW_PASSWORD = 'Copper-Meadow-Lantern-58';
		const done = await callApi(app, 'POST', `/api/auth/password/reset/${token}`, {
			body: { password: NEW_PASSWORD },
		});
		expect(done.status).toBeLessThan(300);
		const afterReset = await callApi(app, 'POST', '/api/auth/login', {
			body: { email: EMAIL, password: NEW_PASSWORD },
		});
		expect(afterReset.status).toBe(401);
		expect(afterReset.json.error).toBe('second_factor_required');

		// The reset ended every session: Ada signs in again, with her new password and a code.
		const again = await secondStep({ challenge: afterReset.json.challenge, code: codeOf(secret) });
		expect(again.status).toBe(200);
		clock.advance(30);
		const off = await callApi(app, 'POST', '/api/auth/two_factor/disable', {
			token: again.json.access_token,
			body: { password: NEW_PASSWORD, code: codeOf(secret) },
		});
		expect(off.status).toBe(200);
		const status = await callApi(app, 'GET', '/api/auth/two_factor', { token: again.json.access_token });
		expect(status.json).toEqual({ enabled: false, recovery_codes_left: 0 });
		expect(await deps.db.select().from(recoveryCodes)).toHaveLength(0);
		expect((await latestMail(deps, EMAIL)).row?.subject).toBe('Two-step sign-in is off');
		expect(
			(await callApi(app, 'POST', '/api/auth/login', { body: { email: EMAIL, password: NEW_PASSWORD } }))
				.status,
		).toBe(200);
	});

	test('nobody signed out reaches the settings, and bad input is refused by name', async () => {
		expect((await callApi(app, 'GET', '/api/auth/two_factor')).status).toBe(401);
		expect(
			(await callApi(app, 'POST', '/api/auth/two_factor/setup', { body: { password: PASSWORD } })).status,
		).toBe(401);
		const refused = await secondStep({ challenge: 'x'.repeat(30), code: 'not a code at all' });
		expect(refused.status).toBe(400);
		expect(refused.json.fields[0].field).toBe('code');
	});
});
