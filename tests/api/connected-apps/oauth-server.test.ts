import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { buildSecurityHeaders } from '../../../src/lib/api/security-headers';
import { readAppRegistrationForm } from '../../../src/lib/connected-apps/server/forms';
import {
	checkAuthorizationRequest,
	decideAuthorization,
	deleteDeveloperApp,
	listDeveloperApps,
	registerApp,
	revokeConnectedApp,
	signConsentRequest,
} from '../../../src/lib/connected-apps/server/service';
import { oauthClients } from '../../../src/lib/connected-apps/server/tables';
import { callApi, createTestClock } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import {
	addMember,
	appHeaders,
	authorizeCode,
	authorizeParams,
	createConnectedAppsTestApp,
	exchangeCode,
	type Member,
	pkcePair,
	postForm,
	REDIRECT,
	registerTestApp,
} from './helpers';

let database: TestDatabase;
let made: ReturnType<typeof createConnectedAppsTestApp>;
let developer: Member;
let ana: Member;
let client: { clientId: string; clientSecret: string | null };

beforeAll(async () => {
	database = await openTestDb();
});
beforeEach(async () => {
	await database.reset();
	made = createConnectedAppsTestApp(database);
	made.deps.clock = createTestClock();
	developer = await addMember(made.deps, 'dev');
	ana = await addMember(made.deps, 'ana');
	client = await registerTestApp(made.deps, developer);
});
afterAll(async () => {
	await database.close();
});

const self = (accessToken: string, clientId = client.clientId) =>
	callApi(made.app, 'GET', '/api/v7.1/user/self/', { headers: appHeaders(clientId, accessToken) });

async function tokensFor(member: Member, scope = 'profile:read workouts:read') {
	const grant = await authorizeCode(made.deps, member, client.clientId, { scope });
	const answer = await exchangeCode(made.app, client, grant);
	expect(answer.status).toBe(200);
	return answer.json as { access_token: string; refresh_token: string; scope: string; expires_in: number };
}

describe('registering an app', () => {
	const form = (fields: Record<string, string | string[]>) => {
		const data = new FormData();
		for (const [name, value] of Object.entries(fields))
			for (const one of Array.isArray(value) ? value : [value]) data.append(name, one);
		return data;
	};

	test.each([
		['https://app.test/cb#frag', 'fragment'],
		['http://app.test/cb', 'plain http off loopback'],
		['https://user:pw@app.test/cb', 'userinfo'],
		['https://app.test/a/../cb', 'a path that is not in its plain form'],
		['javascript:alert(1)', 'another scheme'],
	])('refuses %s (%s)', (uri) => {
		const read = readAppRegistrationForm(form({ name: 'X', redirect_uris: uri, scopes: 'profile:read' }));
		expect(read.input).toBeNull();
	});

	test('keeps only the hash of a secret, and lists apps to their developer only', async () => {
		const read = readAppRegistrationForm(
			form({
				name: ' Route Printer ',
				redirect_uris: 'https://printer.test/cb\nhttp://127.0.0.1/cb',
				scopes: ['routes:read', 'admin'],
			}),
		);
		expect(read.input).toBeNull();
		const ok = readAppRegistrationForm(
			form({
				name: ' Route Printer ',
				redirect_uris: 'https://printer.test/cb\nhttp://127.0.0.1/cb',
				scopes: ['routes:read'],
			}),
		);
		if (!ok.input) throw new Error(JSON.stringify(ok.errors));
		expect(ok.input.name).toBe('Route Printer');
		const { app, clientSecret } = await registerApp(made.deps, developer, ok.input);
		expect(clientSecret).toMatch(/^[\w-]{43}$/);
		const [row] = await made.deps.db
			.select()
			.from(oauthClients)
			.where(eq(oauthClients.clientId, app.clientId));
		expect(row.secretHash).not.toContain(clientSecret as string);
		expect(JSON.stringify(await listDeveloperApps(made.deps, developer))).not.toContain(
			clientSecret as string,
		);
		expect((await listDeveloperApps(made.deps, developer)).map((entry) => entry.name)).toContain(
			'Route Printer',
		);
		expect(await listDeveloperApps(made.deps, ana)).toEqual([]);
		await expect(deleteDeveloperApp(made.deps, ana, app.clientId)).rejects.toThrow(/No such app/);
	});
});

describe('1. redirect URIs match exactly', () => {
	test.each([
		'https://app.test/cb/',
		'https://app.test/cb?x=1',
		'https://app.test/CB',
		'https://app.test.evil/cb',
		'https://app.test/cb/../x',
		'https://user@app.test/cb',
		'https://app.test:8443/cb',
		'http://app.test/cb',
	])('%s is refused on our own page, with no redirect and no code', async (redirectUri) => {
		const { challenge } = pkcePair();
		const check = await checkAuthorizationRequest(
			made.deps,
			authorizeParams(client.clientId, challenge, { redirect_uri: redirectUri }),
		);
		expect(check.kind).toBe('refuse');
	});

	test('an unknown client or a missing redirect_uri is refused without a redirect', async () => {
		const { challenge } = pkcePair();
		expect((await checkAuthorizationRequest(made.deps, authorizeParams('nope', challenge))).kind).toBe(
			'refuse',
		);
		expect(
			(
				await checkAuthorizationRequest(
					made.deps,
					authorizeParams(client.clientId, challenge, { redirect_uri: null }),
				)
			).kind,
		).toBe('refuse');
	});

	test('a loopback URI may use any port, but only for an app registered with loopback', async () => {
		const native = await registerTestApp(made.deps, developer, {
			redirectUris: ['http://127.0.0.1/callback'],
			confidential: false,
		});
		const { challenge } = pkcePair();
		const onPort = await checkAuthorizationRequest(
			made.deps,
			authorizeParams(native.clientId, challenge, { redirect_uri: 'http://127.0.0.1:51234/callback' }),
		);
		expect(onPort.kind).toBe('ask');
		const otherPath = await checkAuthorizationRequest(
			made.deps,
			authorizeParams(native.clientId, challenge, { redirect_uri: 'http://127.0.0.1:51234/other' }),
		);
		expect(otherPath.kind).toBe('refuse');
		const webApp = await checkAuthorizationRequest(
			made.deps,
			authorizeParams(client.clientId, challenge, { redirect_uri: 'http://127.0.0.1:51234/cb' }),
		);
		expect(webApp.kind).toBe('refuse');
	});
});

describe('2. PKCE S256 is required', () => {
	const errorOf = async (overrides: Record<string, string | null>) => {
		const { challenge } = pkcePair();
		const check = await checkAuthorizationRequest(
			made.deps,
			authorizeParams(client.clientId, challenge, overrides),
		);
		if (check.kind !== 'redirect') throw new Error(`expected an error redirect, got ${check.kind}`);
		const location = new URL(check.location);
		expect(location.origin + location.pathname).toBe(REDIRECT);
		expect(location.searchParams.get('code')).toBeNull();
		return location.searchParams;
	};

	test('no code_challenge, or method plain, is invalid_request sent back to the app with its state', async () => {
		const missing = await errorOf({ code_challenge: null });
		expect(missing.get('error')).toBe('invalid_request');
		expect(missing.get('state')).toBe('xyz-state');
		expect((await errorOf({ code_challenge_method: 'plain' })).get('error')).toBe('invalid_request');
		expect((await errorOf({ code_challenge_method: null })).get('error')).toBe('invalid_request');
	});

	test('state is required', async () => {
		expect((await errorOf({ state: null })).get('error')).toBe('invalid_request');
	});

	test('a wrong or missing verifier is invalid_grant / invalid_request, and spends the code', async () => {
		const grant = await authorizeCode(made.deps, ana, client.clientId);
		const wrong = await exchangeCode(made.app, client, { ...grant, verifier: pkcePair().verifier });
		expect(wrong.status).toBe(400);
		expect(wrong.json.error).toBe('invalid_grant');
		// The right verifier afterwards is too late: a code gets one try.
		expect((await exchangeCode(made.app, client, grant)).json.error).toBe('invalid_grant');

		const other = await authorizeCode(made.deps, ana, client.clientId);
		const missing = await postForm(
			made.app,
			'/api/oauth2/token',
			{ grant_type: 'authorization_code', code: other.code, redirect_uri: REDIRECT },
			client,
		);
		expect(missing.status).toBe(400);
		expect(missing.json.error).toBe('invalid_request');
	});

	test('the right verifier gets tokens that work', async () => {
		const tokens = await tokensFor(ana);
		expect(tokens.scope).toBe('profile:read workouts:read');
		const answer = await self(tokens.access_token);
		expect(answer.status).toBe(200);
		expect(answer.json.username).toBe('ana');
	});
});

describe('3. codes are single-use and bound to the app and redirect URI', () => {
	test('a replayed code is invalid_grant and kills the tokens of the first exchange', async () => {
		const grant = await authorizeCode(made.deps, ana, client.clientId);
		const first = await exchangeCode(made.app, client, grant);
		expect(first.status).toBe(200);
		expect((await self(first.json.access_token)).status).toBe(200);

		const replay = await exchangeCode(made.app, client, grant);
		expect(replay.status).toBe(400);
		expect(replay.json.error).toBe('invalid_grant');
		expect((await self(first.json.access_token)).status).toBe(401);
		const refresh = await postForm(
			made.app,
			'/api/oauth2/token',
			{ grant_type: 'refresh_token', refresh_token: first.json.refresh_token },
			client,
		);
		expect(refresh.json.error).toBe('invalid_grant');
	});

	test('another app or another redirect_uri cannot redeem the code', async () => {
		const thief = await registerTestApp(made.deps, developer, {
			redirectUris: [REDIRECT, 'https://app.test/other'],
		});
		const grant = await authorizeCode(made.deps, ana, client.clientId);
		expect((await exchangeCode(made.app, thief, grant)).json.error).toBe('invalid_grant');

		const second = await authorizeCode(made.deps, ana, client.clientId);
		const elsewhere = await exchangeCode(made.app, client, {
			...second,
			redirectUri: 'https://app.test/other',
		});
		expect(elsewhere.json.error).toBe('invalid_grant');
	});
});

describe('4. codes expire within a minute', () => {
	test('a code redeemed 11 minutes later, or 61 seconds later, is invalid_grant', async () => {
		const clock = made.deps.clock as ReturnType<typeof createTestClock>;
		const late = await authorizeCode(made.deps, ana, client.clientId);
		clock.advance(11 * 60);
		expect((await exchangeCode(made.app, client, late)).json.error).toBe('invalid_grant');

		const justLate = await authorizeCode(made.deps, ana, client.clientId);
		clock.advance(61);
		expect((await exchangeCode(made.app, client, justLate)).json.error).toBe('invalid_grant');

		const inTime = await authorizeCode(made.deps, ana, client.clientId);
		clock.advance(50);
		expect((await exchangeCode(made.app, client, inTime)).status).toBe(200);
	});
});

describe('5. refresh tokens rotate, and a reused one kills the grant', () => {
	const refresh = (token: string) =>
		postForm(made.app, '/api/oauth2/token', { grant_type: 'refresh_token', refresh_token: token }, client);

	test('RT1 → RT2; RT1 again revokes RT2 and every access token of the grant', async () => {
		const first = await tokensFor(ana);
		const second = await refresh(first.refresh_token);
		expect(second.status).toBe(200);
		expect(second.json.refresh_token).not.toBe(first.refresh_token);
		expect((await self(second.json.access_token)).status).toBe(200);

		const reuse = await refresh(first.refresh_token);
		expect(reuse.status).toBe(400);
		expect(reuse.json.error).toBe('invalid_grant');
		expect((await refresh(second.json.refresh_token)).json.error).toBe('invalid_grant');
		expect((await self(second.json.access_token)).status).toBe(401);
		expect((await self(first.access_token)).status).toBe(401);
	});

	test('another grant of the same member survives the reuse', async () => {
		const doomed = await tokensFor(ana);
		const other = await tokensFor(ana);
		await refresh(doomed.refresh_token);
		await refresh(doomed.refresh_token);
		expect((await self(other.access_token)).status).toBe(200);
	});

	test('the grant has an absolute lifetime that rotation never extends', async () => {
		const clock = made.deps.clock as ReturnType<typeof createTestClock>;
		let tokens = await tokensFor(ana);
		for (let step = 0; step < 3; step++) {
			clock.advance(31 * 24 * 3600);
			const next = await refresh(tokens.refresh_token);
			if (step < 2) {
				expect(next.status).toBe(200);
				tokens = next.json as typeof tokens;
			} else expect(next.json.error).toBe('invalid_grant');
		}
	});

	test('a refresh cannot widen the scope', async () => {
		const tokens = await tokensFor(ana, 'profile:read');
		const wider = await postForm(
			made.app,
			'/api/oauth2/token',
			{
				grant_type: 'refresh_token',
				refresh_token: tokens.refresh_token,
				scope: 'profile:read routes:write',
			},
			client,
		);
		expect(wider.json.error).toBe('invalid_scope');
	});
});

describe('6. only the code flow, only the registered scopes', () => {
	test('response_type=token is unsupported_response_type; a scope wider than registered is invalid_scope', async () => {
		const { challenge } = pkcePair();
		const implicit = await checkAuthorizationRequest(
			made.deps,
			authorizeParams(client.clientId, challenge, { response_type: 'token' }),
		);
		expect(implicit.kind === 'redirect' && new URL(implicit.location).searchParams.get('error')).toBe(
			'unsupported_response_type',
		);
		const wider = await checkAuthorizationRequest(
			made.deps,
			authorizeParams(client.clientId, challenge, { scope: 'profile:read workouts:write' }),
		);
		expect(wider.kind === 'redirect' && new URL(wider.location).searchParams.get('error')).toBe(
			'invalid_scope',
		);
		const unknown = await checkAuthorizationRequest(
			made.deps,
			authorizeParams(client.clientId, challenge, { scope: 'admin' }),
		);
		expect(unknown.kind === 'redirect' && new URL(unknown.location).searchParams.get('error')).toBe(
			'invalid_scope',
		);
	});

	test('grant_type=password is unsupported_grant_type; client_credentials is unauthorized_client', async () => {
		const password = await postForm(
			made.app,
			'/api/oauth2/token',
			{ grant_type: 'password', username: 'ana', password: 'secret' },
			client,
		);
		expect(password.status).toBe(400);
		expect(password.json.error).toBe('unsupported_grant_type');
		const credentials = await postForm(
			made.app,
			'/api/oauth2/token',
			{ grant_type: 'client_credentials' },
			client,
		);
		expect(credentials.json.error).toBe('unauthorized_client');
	});
});

describe('7. the consent screen', () => {
	test('cannot be framed', () => {
		const headers = buildSecurityHeaders('/oauth2/authorize', true);
		expect(headers['Content-Security-Policy']).toContain("frame-ancestors 'none'");
		expect(headers['X-Frame-Options']).toBe('DENY');
	});

	test('a consent form made for one member, changed, or too old is refused', async () => {
		const { challenge } = pkcePair();
		const check = await checkAuthorizationRequest(made.deps, authorizeParams(client.clientId, challenge));
		if (check.kind !== 'ask') throw new Error('expected the consent screen');
		const signed = signConsentRequest(made.deps, ana, check.request);
		await expect(decideAuthorization(made.deps, developer, signed, true)).rejects.toThrow(/expired/);
		const [payload, signature] = signed.split('.');
		const widened = Buffer.from(
			JSON.stringify({
				...JSON.parse(Buffer.from(payload, 'base64url').toString()),
				scopes: ['routes:write'],
			}),
		).toString('base64url');
		await expect(decideAuthorization(made.deps, ana, `${widened}.${signature}`, true)).rejects.toThrow(
			/expired/,
		);
		(made.deps.clock as ReturnType<typeof createTestClock>).advance(11 * 60);
		await expect(decideAuthorization(made.deps, ana, signed, true)).rejects.toThrow(/expired/);
	});

	test('Deny sends access_denied and the state back, and records nothing', async () => {
		const { challenge } = pkcePair();
		const check = await checkAuthorizationRequest(made.deps, authorizeParams(client.clientId, challenge));
		if (check.kind !== 'ask') throw new Error('expected the consent screen');
		expect(check.request.appName).toBe('Trail Buddy');
		const location = new URL(
			await decideAuthorization(made.deps, ana, signConsentRequest(made.deps, ana, check.request), false),
		);
		expect(location.searchParams.get('error')).toBe('access_denied');
		expect(location.searchParams.get('state')).toBe('xyz-state');
		expect(location.searchParams.get('iss')).toBe(made.deps.config.publicUrl);
	});
});

describe('8. scopes, revocation and client authentication', () => {
	test('a workouts:read token on write endpoints is 403 insufficient_scope', async () => {
		const tokens = await tokensFor(ana, 'workouts:read');
		const write = await callApi(made.app, 'POST', '/api/v7.1/workout/', {
			headers: appHeaders(client.clientId, tokens.access_token),
			body: { name: 'x', start_datetime: '2026-05-01T10:00:00+00:00', activity_type: 16 },
		});
		expect(write.status).toBe(403);
		expect(write.json.error).toBe('insufficient_scope');
		expect(write.headers.get('www-authenticate')).toContain('insufficient_scope');
		// Without profile:read even the member's own record is closed.
		expect((await self(tokens.access_token)).status).toBe(403);
	});

	test('after the member revokes the app, its access and refresh tokens are dead at once', async () => {
		const tokens = await tokensFor(ana);
		await revokeConnectedApp(made.deps, ana.id, client.clientId);
		const answer = await self(tokens.access_token);
		expect(answer.status).toBe(401);
		expect(answer.json.error).toBe('invalid_token');
		const refresh = await postForm(
			made.app,
			'/api/oauth2/token',
			{ grant_type: 'refresh_token', refresh_token: tokens.refresh_token },
			client,
		);
		expect(refresh.json.error).toBe('invalid_grant');
	});

	test('RFC 7009: an unknown token is 200; revoking a refresh token ends the grant', async () => {
		expect((await postForm(made.app, '/api/oauth2/revoke', { token: 'msr_unknown' }, client)).status).toBe(
			200,
		);
		const tokens = await tokensFor(ana);
		expect(
			(await postForm(made.app, '/api/oauth2/revoke', { token: tokens.refresh_token }, client)).status,
		).toBe(200);
		expect((await self(tokens.access_token)).status).toBe(401);
	});

	test('a confidential app without its secret is 401 invalid_client at /token, /revoke and /introspect', async () => {
		const grant = await authorizeCode(made.deps, ana, client.clientId);
		for (const path of ['/api/oauth2/token', '/api/oauth2/revoke', '/api/oauth2/introspect']) {
			const answer = await postForm(
				made.app,
				path,
				{
					grant_type: 'authorization_code',
					code: grant.code,
					code_verifier: grant.verifier,
					redirect_uri: REDIRECT,
					token: 'x',
				},
				{ clientId: client.clientId, clientSecret: null },
			);
			expect(answer.status).toBe(401);
			expect(answer.json.error).toBe('invalid_client');
			const wrong = await postForm(
				made.app,
				path,
				{ token: 'x', grant_type: 'refresh_token' },
				{ ...client, clientSecret: 'guess' },
			);
			expect(wrong.status).toBe(401);
		}
		const broken = await made.app.request('/api/oauth2/token', {
			method: 'POST',
			headers: {
				'content-type': 'application/x-www-form-urlencoded',
				authorization: `Basic ${Buffer.from(`${client.clientId}:%E0%A4%A`).toString('base64')}`,
			},
			body: 'grant_type=refresh_token&refresh_token=x',
		});
		expect(broken.status).toBe(401);
		// The code was never spent by those attempts.
		expect((await exchangeCode(made.app, client, grant)).status).toBe(200);
	});

	test('RFC 7662: introspection tells the app about its own live tokens only', async () => {
		const tokens = await tokensFor(ana);
		const live = await postForm(made.app, '/api/oauth2/introspect', { token: tokens.access_token }, client);
		expect(live.json).toMatchObject({
			active: true,
			scope: 'profile:read workouts:read',
			username: 'ana',
			client_id: client.clientId,
		});
		const other = await registerTestApp(made.deps, developer);
		expect(
			(await postForm(made.app, '/api/oauth2/introspect', { token: tokens.access_token }, other)).json,
		).toEqual({
			active: false,
		});
		await revokeConnectedApp(made.deps, ana.id, client.clientId);
		expect(
			(await postForm(made.app, '/api/oauth2/introspect', { token: tokens.access_token }, client)).json,
		).toEqual({
			active: false,
		});
	});

	test('a public app authenticates with its client_id alone, and may not send a secret', async () => {
		const mobile = await registerTestApp(made.deps, developer, { confidential: false });
		expect(mobile.clientSecret).toBeNull();
		const grant = await authorizeCode(made.deps, ana, mobile.clientId);
		const tokens = await exchangeCode(made.app, mobile, grant);
		expect(tokens.status).toBe(200);
		const withSecret = await postForm(made.app, '/api/oauth2/revoke', {
			token: tokens.json.access_token,
			client_id: mobile.clientId,
			client_secret: 'anything',
		});
		expect(withSecret.status).toBe(401);
	});
});
