import { createHash, randomBytes } from 'node:crypto';
import { createAccountApi } from '../../../src/lib/account/server/api';
import { createAuthApi } from '../../../src/lib/auth/server/api';
import type { AppScope } from '../../../src/lib/connected-apps/contract';
import { createConnectedAppsApi } from '../../../src/lib/connected-apps/server/api';
import {
	checkAuthorizationRequest,
	decideAuthorization,
	registerApp,
	signConsentRequest,
} from '../../../src/lib/connected-apps/server/service';
import type { AppDeps } from '../../../src/lib/core/server/deps';
import { createRoutesApi } from '../../../src/lib/routes/server/api';
import { createSocialApi } from '../../../src/lib/social/server/api';
import { createWorkoutsApi } from '../../../src/lib/workouts/server/api';
import { createWorkoutDetailApi } from '../../../src/lib/workouts/server/detail-api';
import { createTestApi, createTestDeps } from '../../helpers/app';
import type { TestDatabase } from '../../helpers/db';
import type { Member } from '../routes/helpers';

export { addMember, type Member } from '../routes/helpers';

export function createConnectedAppsTestApp(database: TestDatabase) {
	const deps = createTestDeps(database.db);
	const app = createTestApi(deps, {
		routes: [
			createAuthApi(),
			createAccountApi(),
			createRoutesApi(),
			createWorkoutsApi(),
			createWorkoutDetailApi(),
			createSocialApi(),
			createConnectedAppsApi(),
		],
	});
	return { deps, app };
}

export type TestApp = ReturnType<typeof createConnectedAppsTestApp>['app'];

export const REDIRECT = 'https://app.test/cb';

export async function registerTestApp(
	deps: AppDeps,
	owner: Member,
	options: { scopes?: AppScope[]; confidential?: boolean; redirectUris?: string[] } = {},
) {
	const { app, clientSecret } = await registerApp(deps, owner, {
		name: 'Trail Buddy',
		redirect_uris: options.redirectUris ?? [REDIRECT],
		scopes: options.scopes ?? ['profile:read', 'workouts:read', 'routes:read', 'routes:write'],
		confidential: options.confidential ?? true,
	});
	return { clientId: app.clientId, clientSecret };
}

export function pkcePair() {
	const verifier = randomBytes(32).toString('base64url');
	return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function authorizeParams(
	clientId: string,
	challenge: string,
	overrides: Record<string, string | null> = {},
) {
	const base: Record<string, string | null> = {
		response_type: 'code',
		client_id: clientId,
		redirect_uri: REDIRECT,
		scope: 'profile:read workouts:read',
		state: 'xyz-state',
		code_challenge: challenge,
		code_challenge_method: 'S256',
		...overrides,
	};
	const params = new URLSearchParams();
	for (const [name, value] of Object.entries(base)) if (value !== null) params.set(name, value);
	return params;
}

/** What the consent screen does: check the request, the member presses Allow, the app gets a code. */
export async function authorizeCode(
	deps: AppDeps,
	member: Member,
	clientId: string,
	overrides: Record<string, string | null> = {},
) {
	const { verifier, challenge } = pkcePair();
	const check = await checkAuthorizationRequest(deps, authorizeParams(clientId, challenge, overrides));
	if (check.kind !== 'ask') throw new Error(`authorization refused: ${JSON.stringify(check)}`);
	const location = new URL(
		await decideAuthorization(deps, member, signConsentRequest(deps, member, check.request), true),
	);
	const code = location.searchParams.get('code');
	if (!code) throw new Error(`no code in ${location.href}`);
	return { code, verifier, location, redirectUri: check.request.redirectUri };
}

/** A form POST as an app sends it to /api/oauth2/*, with HTTP Basic when it has a secret. */
export async function postForm(
	app: TestApp,
	path: string,
	fields: Record<string, string>,
	client?: { clientId: string; clientSecret: string | null },
) {
	const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
	const body = new URLSearchParams(fields);
	if (client?.clientSecret)
		headers.authorization = `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`;
	else if (client) body.set('client_id', client.clientId);
	const response = await app.request(path, { method: 'POST', headers, body: body.toString() });
	const text = await response.text();
	// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by assertions, not types
	const json: Record<string, any> = text ? JSON.parse(text) : {};
	return { status: response.status, headers: response.headers, json };
}

export async function exchangeCode(
	app: TestApp,
	client: { clientId: string; clientSecret: string | null },
	grant: { code: string; verifier: string; redirectUri?: string },
) {
	return postForm(
		app,
		'/api/oauth2/token',
		{
			grant_type: 'authorization_code',
			code: grant.code,
			redirect_uri: grant.redirectUri ?? REDIRECT,
			code_verifier: grant.verifier,
		},
		client,
	);
}

/** An app's API call: its access token as Bearer, its client id as Api-Key. */
export function appHeaders(clientId: string, accessToken: string) {
	return { authorization: `Bearer ${accessToken}`, 'api-key': clientId };
}
