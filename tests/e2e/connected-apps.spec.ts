import { createHash, randomBytes } from 'node:crypto';
import { type APIRequestContext, type Browser, expect, type Page, test } from './fixtures';
import { expectNoSeriousA11yIssues } from './helpers';

/**
 * A developer registers an app on the Developer page; a member allows it on the consent screen in
 * Chromium; the app trades the code with PKCE, calls /api/v7.1 with Api-Key and Bearer, refreshes,
 * replays an old refresh token (the grant dies); allowed again, the member revokes it on the
 * connected-apps page and its token stops working at once.
 */
const CALLBACK = 'https://tracker.example.test/callback';
const PASSWORD = 'Summit-Lantern-Brook-91';

async function signUpAndLogIn(request: APIRequestContext, label: string): Promise<void> {
	const email = `${label}-${Date.now()}-${randomBytes(3).toString('hex')}@example.test`;
	const signup = await request.post('/api/auth/signup', {
		data: {
			first_name: label,
			last_name: 'Tester',
			email,
			password: PASSWORD,
			birthdate: '1990-02-02',
			gender: 'F',
			location: { country: 'US' },
		},
	});
	expect(signup.status()).toBe(201);
	expect((await request.post('/api/auth/login', { data: { email, password: PASSWORD } })).ok()).toBe(true);
}

/** A browser context standing in for the app's own site: its callback page just says it got the answer. */
async function newPersonContext(browser: Browser, baseURL: string) {
	const context = await browser.newContext({ baseURL });
	await context.route(`${CALLBACK}**`, (route) =>
		route.fulfill({
			status: 200,
			contentType: 'text/html',
			body: '<!doctype html><title>Tracker</title><p>Back in the app.</p>',
		}),
	);
	return context;
}

function pkce() {
	const verifier = randomBytes(48).toString('base64url');
	return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The member opens the app's authorization link and presses Allow; the app reads the code at its callback. */
async function authorize(page: Page, clientId: string, scope: string) {
	const { verifier, challenge } = pkce();
	const state = randomBytes(16).toString('hex');
	const params = new URLSearchParams({
		response_type: 'code',
		client_id: clientId,
		redirect_uri: CALLBACK,
		scope,
		state,
		code_challenge: challenge,
		code_challenge_method: 'S256',
	});
	const consent = await page.goto(`/oauth2/authorize?${params}`);
	expect(consent?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
	await expect(page.getByTestId('consent-app-name')).toHaveText(
		'E2E Tracker would like to use your Mapstride account',
	);
	await expect(page.getByTestId('consent-scopes').getByRole('listitem')).toHaveCount(scope.split(' ').length);
	const answered = page.waitForResponse(
		(response) => response.url().includes('/oauth2/authorize') && response.request().method() === 'POST',
	);
	await page.getByTestId('consent-allow').click();
	expect((await answered).status()).toBe(303);
	await page.waitForURL(`${CALLBACK}**`);
	const back = new URL(page.url());
	expect(back.searchParams.get('state')).toBe(state);
	return { code: back.searchParams.get('code') as string, verifier };
}

test('an app registers, a member allows it, the app calls the API, refreshes, is caught replaying, and is revoked', async ({
	browser,
	baseURL,
}) => {
	test.setTimeout(120_000);
	const origin = baseURL as string;

	// The developer registers a confidential app and copies its id and secret (shown once).
	const developerContext = await newPersonContext(browser, origin);
	await signUpAndLogIn(developerContext.request, 'Dev');
	const dev = await developerContext.newPage();
	await dev.goto('/');
	await dev.getByRole('contentinfo').getByRole('link', { name: 'Developer / API' }).click();
	await expect(dev).toHaveURL(/\/developers$/);
	await dev.getByTestId('developer-apps-link').click();
	const form = dev.getByTestId('register-app');
	await form.getByLabel('App name').fill('E2E Tracker');
	await form.getByLabel('Redirect URIs, one per line').fill(CALLBACK);
	for (const scope of ['workouts:read', 'workouts:write', 'routes:read', 'routes:write'])
		await form.getByRole('checkbox', { name: new RegExp(`^${scope} —`) }).check();
	await dev.getByTestId('register-app-submit').click();
	await expect(dev.getByTestId('app-registered')).toBeVisible();
	const clientId = (await dev.getByTestId('new-client-id').textContent()) as string;
	const clientSecret = (await dev.getByTestId('new-client-secret').textContent()) as string;
	expect(clientId).toMatch(/^[0-9a-f]{32}$/);
	expect(clientSecret.length).toBeGreaterThanOrEqual(43);
	await expectNoSeriousA11yIssues(dev);
	await dev.reload();
	await expect(dev.getByTestId('developer-apps')).toContainText(clientId);
	await expect(dev.getByText(clientSecret)).toHaveCount(0);

	// The member allows it in the browser.
	const memberContext = await newPersonContext(browser, origin);
	await signUpAndLogIn(memberContext.request, 'Member');
	const page = await memberContext.newPage();
	const scope = 'profile:read workouts:read workouts:write routes:read routes:write';
	const first = await authorize(page, clientId, scope);

	// The app (a server, with its secret) trades the code and calls the API for the member.
	const app = await (await import('./fixtures')).request.newContext({ baseURL: origin });
	const basic = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
	const token = (form: Record<string, string>) =>
		app.post('/api/oauth2/token', { form, headers: { authorization: basic } });
	const exchanged = await token({
		grant_type: 'authorization_code',
		code: first.code,
		redirect_uri: CALLBACK,
		code_verifier: first.verifier,
	});
	expect(exchanged.status()).toBe(200);
	const tokens = await exchanged.json();
	expect(tokens.scope).toBe(scope);
	const call = (method: 'get' | 'post', path: string, accessToken: string, data?: unknown) =>
		app[method](path, { data, headers: { 'api-key': clientId, authorization: `Bearer ${accessToken}` } });

	const self = await call('get', '/api/v7.1/user/self/', tokens.access_token);
	expect(self.status()).toBe(200);
	const me = await self.json();
	expect(me.first_name).toBe('Member');
	const route = await call('post', '/api/v7.1/route/', tokens.access_token, {
		name: 'Loop from the tracker',
		privacy: 0,
		distance: 1,
		points: [
			{ lat: 40.27, lng: -76.88 },
			{ lat: 40.28, lng: -76.88 },
		],
	});
	expect(route.status()).toBe(201);
	expect((await route.json()).distance).toBeGreaterThan(1000);
	const routes = await call('get', `/api/v7.1/route/?user=${me.id}`, tokens.access_token);
	expect((await routes.json())._embedded.routes.map((r: { name: string }) => r.name)).toContain(
		'Loop from the tracker',
	);
	const workout = await call('post', '/api/v7.1/workout/', tokens.access_token, {
		name: 'Tracked run',
		start_datetime: '2026-05-20T06:00:00+00:00',
		activity_type: 16,
		aggregates: { distance_total: 5000, active_time_total: 1500, elapsed_time_total: 1500 },
	});
	expect(workout.status()).toBe(201);
	const workouts = await call('get', `/api/v7.1/workout/?user=${me.id}`, tokens.access_token);
	expect((await workouts.json())._embedded.workouts.map((w: { name: string }) => w.name)).toContain(
		'Tracked run',
	);
	// Its token opens nothing the member did not let it: not their sessions.
	expect((await call('get', '/api/auth/sessions', tokens.access_token)).status()).toBe(403);

	// Refresh rotates; the old refresh token shown again ends the grant.
	const refreshed = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
	expect(refreshed.status()).toBe(200);
	const next = await refreshed.json();
	expect((await call('get', '/api/v7.1/user/self/', next.access_token)).status()).toBe(200);
	const replay = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
	expect(replay.status()).toBe(400);
	expect((await replay.json()).error).toBe('invalid_grant');
	expect((await call('get', '/api/v7.1/user/self/', next.access_token)).status()).toBe(401);
	expect((await token({ grant_type: 'refresh_token', refresh_token: next.refresh_token })).status()).toBe(
		400,
	);

	// Allowed again, then revoked by the member on the connected-apps page: dead at once.
	const second = await authorize(page, clientId, 'profile:read routes:read');
	const again = await (
		await token({
			grant_type: 'authorization_code',
			code: second.code,
			redirect_uri: CALLBACK,
			code_verifier: second.verifier,
		})
	).json();
	expect((await call('get', '/api/v7.1/user/self/', again.access_token)).status()).toBe(200);
	await page.goto('/account/connected_apps');
	const listed = page.getByTestId('connected-apps');
	await expect(listed.getByRole('heading', { name: 'E2E Tracker' })).toBeVisible();
	await expect(listed).toContainText('See your routes and where they go');
	await expect(listed).toContainText('last used');
	// The routes and workouts the app read are in the member's data-access log.
	await expect(page.getByTestId('app-data-access')).toContainText(
		'E2E Tracker · GET /v7.1/route/ with routes:read',
	);
	await expect(page.getByTestId('app-data-access')).toContainText('GET /v7.1/workout/ with workouts:read');
	await expectNoSeriousA11yIssues(page);
	// The privacy centre's access log names the app's reads beside our own features'.
	await page.goto('/privacy_center/manage');
	await expect(
		page
			.getByTestId('access-log')
			.getByRole('row', { name: /E2E Tracker/ })
			.first(),
	).toContainText('Connected app: GET /v7.1/');
	await page.goto('/account/connected_apps');
	await page.getByRole('button', { name: 'Revoke access for E2E Tracker' }).click();
	await expect(page.getByTestId('connected-apps-notice')).toHaveText('E2E Tracker no longer has access.');
	await expect(page.getByTestId('connected-apps')).toHaveText('No apps are connected to your account.');
	const afterRevoke = await call('get', '/api/v7.1/user/self/', again.access_token);
	expect(afterRevoke.status()).toBe(401);
	expect((await afterRevoke.json()).error).toBe('invalid_token');
	expect((await token({ grant_type: 'refresh_token', refresh_token: again.refresh_token })).status()).toBe(
		400,
	);

	await app.dispose();
	await developerContext.close();
	await memberContext.close();
});

test('the consent screen refuses a cross-site answer and an unregistered return address', async ({
	browser,
	baseURL,
}) => {
	const context = await newPersonContext(browser, baseURL as string);
	await signUpAndLogIn(context.request, 'Wary');
	const page = await context.newPage();
	await page.goto(
		'/oauth2/authorize?response_type=code&client_id=unknown&redirect_uri=https%3A%2F%2Fevil.test%2F&state=s',
	);
	await expect(page.getByTestId('consent-error')).toHaveText('This app is not registered with Mapstride.');
	const forged = await context.request.post('/oauth2/authorize', {
		form: { request: 'x.y', decision: 'allow' },
		headers: { origin: 'https://evil.test' },
		maxRedirects: 0,
	});
	expect(forged.status()).toBe(403);
	const metadata = await context.request.get('/.well-known/oauth-authorization-server');
	expect(await metadata.json()).toMatchObject({
		issuer: baseURL,
		code_challenge_methods_supported: ['S256'],
		grant_types_supported: ['authorization_code', 'refresh_token'],
	});
	await context.close();
});
