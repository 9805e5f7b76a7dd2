import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Viewer } from '../../auth/contract';
import { findViewerById } from '../../auth/server/session';
import { formatApiDateTime } from '../../core/dates';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../../core/server/deps';
import {
	APP_ACCESS_TOKEN_SECONDS,
	APP_SCOPES,
	type AppDataAccess,
	type AppRegistrationInput,
	type AppScope,
	CODE_SECONDS,
	type ConnectedApp,
	type DeveloperApp,
	GRANT_ABSOLUTE_SECONDS,
	isAppScope,
	isLoopbackHost,
	parseScopeList,
} from '../contract';
import { appDataAccessLog, oauthClients, oauthCodes, oauthGrants, oauthTokens } from './tables';

type Deps = Pick<AppDeps, 'db' | 'clock'>;
type ClientRow = typeof oauthClients.$inferSelect;

const ACCESS_PREFIX = 'msa_';
const REFRESH_PREFIX = 'msr_';
/** The consent form's signed request is good for this long: a member reads, then decides. */
const CONSENT_REQUEST_SECONDS = 10 * 60;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const opaque = (prefix: string) => prefix + randomBytes(32).toString('base64url');

/** Strings of equal meaning compared in constant time, so a secret is not guessed byte by byte. */
function sameText(a: string, b: string): boolean {
	const left = Buffer.from(a);
	const right = Buffer.from(b);
	return left.length === right.length && timingSafeEqual(left, right);
}

/** An RFC 6749 error: the API's error mapper answers `{ error, error_description }` for /oauth2/. */
export function oauthError(error: string, description: string): AppError {
	const code = error === 'invalid_client' ? 'unauthenticated' : 'bad_request';
	return new AppError(code, description, {
		detail: error,
		headers: error === 'invalid_client' ? { 'WWW-Authenticate': 'Basic realm="mapstride"' } : undefined,
	});
}

function toDeveloperApp(row: ClientRow): DeveloperApp {
	return {
		clientId: row.clientId,
		name: row.name,
		redirectUris: row.redirectUris,
		scopes: row.scopes.filter(isAppScope),
		confidential: row.secretHash !== null,
		createdAt: formatApiDateTime(row.createdAt),
	};
}

// ——— Developer apps ———

/** Registers an app for its developer. The secret is returned here only; we keep its hash. */
export async function registerApp(
	deps: Deps,
	viewer: { id: number },
	input: AppRegistrationInput,
): Promise<{ app: DeveloperApp; clientSecret: string | null }> {
	const owned = await deps.db
		.select({ id: oauthClients.id })
		.from(oauthClients)
		.where(eq(oauthClients.ownerUserId, viewer.id));
	if (owned.length >= 20) throw new AppError('conflict', 'You have registered 20 apps; delete one first.');
	const clientSecret = input.confidential ? randomBytes(32).toString('base64url') : null;
	const [row] = await deps.db
		.insert(oauthClients)
		.values({
			clientId: randomBytes(16).toString('hex'),
			ownerUserId: viewer.id,
			name: input.name,
			redirectUris: [...new Set(input.redirect_uris)],
			scopes: APP_SCOPES.filter((scope) => input.scopes.includes(scope)),
			secretHash: clientSecret ? sha256(clientSecret) : null,
			createdAt: deps.clock(),
		})
		.returning();
	return { app: toDeveloperApp(row), clientSecret };
}

export async function listDeveloperApps(deps: Deps, viewer: { id: number }): Promise<DeveloperApp[]> {
	const rows = await deps.db
		.select()
		.from(oauthClients)
		.where(eq(oauthClients.ownerUserId, viewer.id))
		.orderBy(desc(oauthClients.createdAt), desc(oauthClients.id));
	return rows.map(toDeveloperApp);
}

/** Deleting an app ends every member's grant to it and every token it holds. */
export async function deleteDeveloperApp(
	deps: Deps,
	viewer: { id: number },
	clientId: string,
): Promise<void> {
	const deleted = await deps.db
		.delete(oauthClients)
		.where(and(eq(oauthClients.clientId, clientId), eq(oauthClients.ownerUserId, viewer.id)))
		.returning({ id: oauthClients.id });
	if (deleted.length === 0) throw new AppError('not_found', 'No such app of yours.');
}

/** The name the consent screen shows for an app (the auth API's `clientName`). */
export async function findAppName(deps: Deps, clientId: string): Promise<string | null> {
	const client = await findClient(deps, clientId);
	return client?.name ?? null;
}

async function findClient(deps: Deps, clientId: string): Promise<ClientRow | undefined> {
	if (!/^[\w-]{1,100}$/.test(clientId)) return undefined;
	const [row] = await deps.db.select().from(oauthClients).where(eq(oauthClients.clientId, clientId));
	return row;
}

// ——— The authorization request and the consent screen ———

/**
 * Exact string match, except that an app registered with a loopback URI may use any port on it
 * (a native app listens wherever the system lets it, RFC 8252 §7.3).
 */
export function matchesRegisteredRedirect(registered: string[], requested: string): boolean {
	if (registered.includes(requested)) return true;
	let asked: URL;
	try {
		asked = new URL(requested);
	} catch {
		return false;
	}
	if (asked.href !== requested || asked.protocol !== 'http:' || !isLoopbackHost(asked.hostname)) return false;
	return registered.some((uri) => {
		const known = new URL(uri);
		return (
			known.protocol === 'http:' &&
			known.hostname === asked.hostname &&
			known.pathname === asked.pathname &&
			known.search === asked.search
		);
	});
}

export type AuthorizationRequest = {
	clientId: string;
	appName: string;
	redirectUri: string;
	scopes: AppScope[];
	state: string;
	codeChallenge: string;
};

export type AuthorizationCheck =
	/** The app or its redirect URI is not trusted: say so on our own page and send nobody anywhere. */
	| { kind: 'refuse'; message: string }
	/** A trusted redirect URI but a bad request: tell the app there. */
	| { kind: 'redirect'; location: string }
	| { kind: 'ask'; request: AuthorizationRequest };

const AUTHORIZE_PARAMS = [
	'response_type',
	'client_id',
	'redirect_uri',
	'scope',
	'state',
	'code_challenge',
	'code_challenge_method',
];

/** Checks a GET /oauth2/authorize the way RFC 6749 §4.1.2.1 and RFC 9700 say, in their order. */
export async function checkAuthorizationRequest(
	deps: Deps & Pick<AppDeps, 'config'>,
	params: URLSearchParams,
): Promise<AuthorizationCheck> {
	const repeated = AUTHORIZE_PARAMS.find((name) => params.getAll(name).length > 1);
	const clientId = params.get('client_id') ?? '';
	const client = clientId ? await findClient(deps, clientId) : undefined;
	if (!client) return { kind: 'refuse', message: 'This app is not registered with Mapstride.' };
	const redirectUri = params.get('redirect_uri') ?? '';
	if (
		params.getAll('redirect_uri').length !== 1 ||
		!matchesRegisteredRedirect(client.redirectUris, redirectUri)
	)
		return {
			kind: 'refuse',
			message: `The address ${client.name} asked to return to is not one it registered, so we are not sending you there.`,
		};
	const state = params.get('state') ?? '';
	const fail = (error: string, description: string) => ({
		kind: 'redirect' as const,
		location: authorizationResponse(deps.config.publicUrl, redirectUri, {
			error,
			error_description: description,
			state: params.getAll('state').length === 1 ? state : '',
		}),
	});
	if (repeated) return fail('invalid_request', `${repeated} appears more than once.`);
	const responseType = params.get('response_type');
	if (!responseType) return fail('invalid_request', 'response_type is required.');
	if (responseType !== 'code')
		return fail('unsupported_response_type', 'Only response_type=code is supported.');
	if (!state || state.length > 500)
		return fail('invalid_request', 'state is required (at most 500 characters).');
	const challenge = params.get('code_challenge');
	if (!challenge) return fail('invalid_request', 'code_challenge is required (PKCE).');
	if (params.get('code_challenge_method') !== 'S256')
		return fail('invalid_request', 'code_challenge_method must be S256.');
	if (!/^[A-Za-z0-9_-]{43}$/.test(challenge))
		return fail('invalid_request', 'code_challenge must be the base64url SHA-256 of the verifier.');
	const asked = params.has('scope') ? parseScopeList(params.get('scope') ?? '') : client.scopes;
	if (asked.length === 0 || asked.some((scope) => !isAppScope(scope) || !client.scopes.includes(scope)))
		return fail('invalid_scope', 'The scope asks for more than the app registered.');
	return {
		kind: 'ask',
		request: {
			clientId: client.clientId,
			appName: client.name,
			redirectUri,
			scopes: APP_SCOPES.filter((scope) => asked.includes(scope)),
			state,
			codeChallenge: challenge,
		},
	};
}

function authorizationResponse(issuer: string, redirectUri: string, values: Record<string, string>): string {
	const url = new URL(redirectUri);
	for (const [name, value] of Object.entries(values)) if (value) url.searchParams.set(name, value);
	// RFC 9207: the app can tell which server answered, against mix-up attacks.
	url.searchParams.set('iss', issuer);
	return url.href;
}

type SignedConsent = AuthorizationRequest & { userId: number; expiresAt: number };

function consentSignature(secret: string, payload: string): string {
	return createHmac('sha256', secret).update(`oauth-consent:${payload}`).digest('base64url');
}

/**
 * The consent form carries the checked request, signed for the member who saw it and for ten
 * minutes: a form posted from elsewhere, for someone else, or with changed scopes is refused.
 */
export function signConsentRequest(
	deps: Pick<AppDeps, 'config' | 'clock'>,
	viewer: { id: number },
	request: AuthorizationRequest,
): string {
	const payload = Buffer.from(
		JSON.stringify({
			...request,
			userId: viewer.id,
			expiresAt: deps.clock().getTime() + CONSENT_REQUEST_SECONDS * 1000,
		} satisfies SignedConsent),
	).toString('base64url');
	return `${payload}.${consentSignature(deps.config.sessionSecret, payload)}`;
}

function readConsentRequest(
	deps: Pick<AppDeps, 'config' | 'clock'>,
	viewer: { id: number },
	signed: string,
): SignedConsent | null {
	const [payload, signature, extra] = signed.split('.');
	if (!payload || !signature || extra !== undefined) return null;
	if (!sameText(signature, consentSignature(deps.config.sessionSecret, payload))) return null;
	try {
		const consent = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as SignedConsent;
		if (consent.userId !== viewer.id || consent.expiresAt < deps.clock().getTime()) return null;
		return consent;
	} catch {
		return null;
	}
}

/**
 * The member's answer on the consent screen. "Allow" records the grant and sends a one-minute,
 * single-use code to the app; "Deny" tells the app access_denied. Either way: where to go next.
 */
export async function decideAuthorization(
	deps: Deps & Pick<AppDeps, 'config'>,
	viewer: { id: number },
	signed: string,
	allow: boolean,
): Promise<string> {
	const consent = readConsentRequest(deps, viewer, signed);
	if (!consent)
		throw new AppError('bad_request', 'This request has expired. Go back to the app and try again.');
	const client = await findClient(deps, consent.clientId);
	if (!client || !matchesRegisteredRedirect(client.redirectUris, consent.redirectUri))
		throw new AppError('not_found', 'This app is no longer registered.');
	const issuer = deps.config.publicUrl;
	if (!allow)
		return authorizationResponse(issuer, consent.redirectUri, {
			error: 'access_denied',
			error_description: 'The member did not allow access.',
			state: consent.state,
		});
	const now = deps.clock();
	const code = randomBytes(32).toString('base64url');
	await deps.db.transaction(async (tx) => {
		const [grant] = await tx
			.insert(oauthGrants)
			.values({
				clientId: client.id,
				userId: viewer.id,
				scopes: consent.scopes.filter((scope) => client.scopes.includes(scope)),
				createdAt: now,
				expiresAt: new Date(now.getTime() + GRANT_ABSOLUTE_SECONDS * 1000),
			})
			.returning({ id: oauthGrants.id });
		await tx.insert(oauthCodes).values({
			grantId: grant.id,
			codeHash: sha256(code),
			redirectUri: consent.redirectUri,
			codeChallenge: consent.codeChallenge,
			expiresAt: new Date(now.getTime() + CODE_SECONDS * 1000),
		});
	});
	return authorizationResponse(issuer, consent.redirectUri, { code, state: consent.state });
}

// ——— The token, revocation and introspection endpoints ———

/** The form fields an app posts to /oauth2/token, /revoke and /introspect. */
export type TokenForm = Record<string, string | undefined>;

/**
 * Who is calling: HTTP Basic or `client_secret` in the form for confidential apps, `client_id`
 * alone for public ones. A confidential app without its secret is `invalid_client`.
 */
export async function authenticateClient(
	deps: Deps,
	form: TokenForm,
	authorization: string | undefined,
): Promise<ClientRow> {
	let clientId = form.client_id;
	let secret = form.client_secret;
	if (authorization?.startsWith('Basic ')) {
		const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
		const colon = decoded.indexOf(':');
		if (colon < 0) throw oauthError('invalid_client', 'The Basic credentials are malformed.');
		const basicId = formDecode(decoded.slice(0, colon));
		const basicSecret = formDecode(decoded.slice(colon + 1));
		if (basicId === null || basicSecret === null)
			throw oauthError('invalid_client', 'The Basic credentials are malformed.');
		if (clientId && clientId !== basicId) throw oauthError('invalid_client', 'Two different client ids.');
		clientId = basicId;
		secret = basicSecret;
	}
	const client = clientId ? await findClient(deps, clientId) : undefined;
	if (!client) throw oauthError('invalid_client', 'Unknown client.');
	if (client.secretHash === null) {
		if (secret) throw oauthError('invalid_client', 'This app is public and has no secret.');
		return client;
	}
	if (!secret || !sameText(sha256(secret), client.secretHash))
		throw oauthError('invalid_client', 'The client secret is missing or wrong.');
	return client;
}

/** RFC 6749 §2.3.1: Basic credentials are form-encoded first; a broken escape is no credential. */
function formDecode(text: string): string | null {
	try {
		return decodeURIComponent(text.replaceAll('+', ' '));
	} catch {
		return null;
	}
}

export type TokenAnswer = {
	access_token: string;
	token_type: 'Bearer';
	expires_in: number;
	refresh_token: string;
	scope: string;
};

type Tx = Parameters<Parameters<Deps['db']['transaction']>[0]>[0];

async function issueTokens(
	tx: Tx,
	grant: { id: number; scopes: string[]; expiresAt: Date },
	now: Date,
): Promise<TokenAnswer> {
	const accessToken = opaque(ACCESS_PREFIX);
	const refreshToken = opaque(REFRESH_PREFIX);
	const accessExpires = new Date(
		Math.min(now.getTime() + APP_ACCESS_TOKEN_SECONDS * 1000, grant.expiresAt.getTime()),
	);
	await tx.insert(oauthTokens).values([
		{
			grantId: grant.id,
			kind: 'access',
			tokenHash: sha256(accessToken),
			createdAt: now,
			expiresAt: accessExpires,
		},
		{
			grantId: grant.id,
			kind: 'refresh',
			tokenHash: sha256(refreshToken),
			createdAt: now,
			expiresAt: grant.expiresAt,
		},
	]);
	return {
		access_token: accessToken,
		token_type: 'Bearer',
		expires_in: Math.round((accessExpires.getTime() - now.getTime()) / 1000),
		refresh_token: refreshToken,
		scope: grant.scopes.join(' '),
	};
}

async function revokeGrant(tx: Tx | Deps['db'], grantId: number, now: Date, reason: string): Promise<void> {
	await tx
		.update(oauthGrants)
		.set({ revokedAt: now, revokedReason: reason })
		.where(and(eq(oauthGrants.id, grantId), isNull(oauthGrants.revokedAt)));
}

/** The S256 transform of RFC 7636 §4.2. */
export function pkceChallengeOf(verifier: string): string {
	return createHash('sha256').update(verifier).digest('base64url');
}

const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/**
 * POST /oauth2/token. A replayed code or a refresh token shown after it was rotated means a copy
 * exists: the grant it came from is revoked with every token in it (RFC 6749 §4.1.2, RFC 9700 §4.14).
 * An honest app that refreshes twice at once loses its grant the same way; it signs in again.
 */
export async function exchangeToken(
	deps: Deps,
	form: TokenForm,
	authorization: string | undefined,
): Promise<TokenAnswer> {
	const grantType = form.grant_type;
	if (!grantType) throw oauthError('invalid_request', 'grant_type is required.');
	const client = await authenticateClient(deps, form, authorization);
	if (grantType === 'authorization_code') return redeemCode(deps, client, form);
	if (grantType === 'refresh_token') return rotateRefreshToken(deps, client, form);
	if (grantType === 'client_credentials')
		throw oauthError('unauthorized_client', 'Apps act for members here; client_credentials is not allowed.');
	throw oauthError('unsupported_grant_type', 'Use authorization_code or refresh_token.');
}

async function redeemCode(deps: Deps, client: ClientRow, form: TokenForm): Promise<TokenAnswer> {
	const { code, redirect_uri: redirectUri, code_verifier: verifier } = form;
	if (!code || !redirectUri) throw oauthError('invalid_request', 'code and redirect_uri are required.');
	if (!verifier) throw oauthError('invalid_request', 'code_verifier is required (PKCE).');
	const now = deps.clock();
	const outcome = await deps.db.transaction(async (tx) => {
		const [row] = await tx
			.select({ code: oauthCodes, grant: oauthGrants })
			.from(oauthCodes)
			.innerJoin(oauthGrants, eq(oauthGrants.id, oauthCodes.grantId))
			.where(eq(oauthCodes.codeHash, sha256(code)))
			.for('update');
		if (!row) return { error: 'The code is unknown.' } as const;
		if (row.code.usedAt) {
			await revokeGrant(tx, row.grant.id, now, 'code_replayed');
			return { error: 'The code was already used; the tokens issued for it are revoked.' } as const;
		}
		// Whatever happens next, this code is spent: a wrong guess does not get a second try.
		await tx.update(oauthCodes).set({ usedAt: now }).where(eq(oauthCodes.id, row.code.id));
		if (row.grant.clientId !== client.id) return { error: 'The code was issued to another app.' } as const;
		if (row.code.expiresAt <= now) return { error: 'The code has expired.' } as const;
		if (row.code.redirectUri !== redirectUri)
			return { error: 'redirect_uri differs from the authorization request.' } as const;
		if (!VERIFIER.test(verifier) || !sameText(pkceChallengeOf(verifier), row.code.codeChallenge))
			return { error: 'The code_verifier does not match the code_challenge.' } as const;
		if (row.grant.revokedAt) return { error: 'The grant was revoked.' } as const;
		return { tokens: await issueTokens(tx, row.grant, now) } as const;
	});
	if (outcome.tokens) return outcome.tokens;
	throw oauthError('invalid_grant', outcome.error ?? 'The code is not valid.');
}

async function rotateRefreshToken(deps: Deps, client: ClientRow, form: TokenForm): Promise<TokenAnswer> {
	const token = form.refresh_token;
	if (!token) throw oauthError('invalid_request', 'refresh_token is required.');
	const now = deps.clock();
	const outcome = await deps.db.transaction(async (tx) => {
		const [row] = await tx
			.select({ token: oauthTokens, grant: oauthGrants })
			.from(oauthTokens)
			.innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
			.where(and(eq(oauthTokens.tokenHash, sha256(token)), eq(oauthTokens.kind, 'refresh')))
			.for('update');
		if (!row || row.grant.clientId !== client.id) return { error: 'The refresh token is unknown.' } as const;
		if (row.grant.revokedAt || row.token.revokedAt) return { error: 'The grant was revoked.' } as const;
		if (row.token.rotatedAt) {
			await revokeGrant(tx, row.grant.id, now, 'refresh_reused');
			return { error: 'The refresh token was already used; the whole grant is revoked.' } as const;
		}
		if (row.grant.expiresAt <= now) return { error: 'The grant has expired; ask the member again.' } as const;
		if (form.scope !== undefined) {
			const asked = parseScopeList(form.scope);
			if (asked.some((scope) => !row.grant.scopes.includes(scope)))
				return { scopeError: 'A refresh cannot widen the scope.' } as const;
		}
		await tx.update(oauthTokens).set({ rotatedAt: now }).where(eq(oauthTokens.id, row.token.id));
		return { tokens: await issueTokens(tx, row.grant, now) } as const;
	});
	if (outcome.tokens) return outcome.tokens;
	if (outcome.scopeError) throw oauthError('invalid_scope', outcome.scopeError);
	throw oauthError('invalid_grant', outcome.error ?? 'The refresh token is not valid.');
}

async function findClientToken(deps: Deps, client: ClientRow, token: string) {
	const [row] = await deps.db
		.select({ token: oauthTokens, grant: oauthGrants })
		.from(oauthTokens)
		.innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
		.where(and(eq(oauthTokens.tokenHash, sha256(token)), eq(oauthGrants.clientId, client.id)));
	return row;
}

/**
 * RFC 7009. Revoking a refresh token ends its grant (and so its access tokens); revoking an access
 * token ends that token. An unknown token, or another app's, is answered the same: done.
 */
export async function revokeToken(
	deps: Deps,
	form: TokenForm,
	authorization: string | undefined,
): Promise<void> {
	const client = await authenticateClient(deps, form, authorization);
	if (!form.token) throw oauthError('invalid_request', 'token is required.');
	const row = await findClientToken(deps, client, form.token);
	if (!row) return;
	const now = deps.clock();
	if (row.token.kind === 'refresh') await revokeGrant(deps.db, row.grant.id, now, 'app_revoked');
	else await deps.db.update(oauthTokens).set({ revokedAt: now }).where(eq(oauthTokens.id, row.token.id));
}

export type Introspection =
	| { active: false }
	| {
			active: true;
			scope: string;
			client_id: string;
			username: string;
			sub: string;
			token_type: 'Bearer' | 'refresh_token';
			exp: number;
			iat: number;
	  };

/** RFC 7662, for the app's own tokens only: anything else is `{ active: false }`. */
export async function introspectToken(
	deps: Deps,
	form: TokenForm,
	authorization: string | undefined,
): Promise<Introspection> {
	const client = await authenticateClient(deps, form, authorization);
	if (!form.token) throw oauthError('invalid_request', 'token is required.');
	const row = await findClientToken(deps, client, form.token);
	const now = deps.clock();
	if (
		!row ||
		row.grant.revokedAt ||
		row.token.revokedAt ||
		row.token.rotatedAt ||
		row.token.expiresAt <= now ||
		row.grant.expiresAt <= now
	)
		return { active: false };
	const viewer = await findViewerById(deps, row.grant.userId);
	if (!viewer) return { active: false };
	return {
		active: true,
		scope: row.grant.scopes.join(' '),
		client_id: client.clientId,
		username: viewer.username,
		sub: String(viewer.id),
		token_type: row.token.kind === 'access' ? 'Bearer' : 'refresh_token',
		exp: Math.floor(row.token.expiresAt.getTime() / 1000),
		iat: Math.floor(row.token.createdAt.getTime() / 1000),
	};
}

/** RFC 8414 metadata, served at /.well-known/oauth-authorization-server. */
export function authorizationServerMetadata(publicUrl: string) {
	return {
		issuer: publicUrl,
		authorization_endpoint: `${publicUrl}/oauth2/authorize`,
		token_endpoint: `${publicUrl}/api/oauth2/token`,
		revocation_endpoint: `${publicUrl}/api/oauth2/revoke`,
		introspection_endpoint: `${publicUrl}/api/oauth2/introspect`,
		scopes_supported: [...APP_SCOPES],
		response_types_supported: ['code'],
		response_modes_supported: ['query'],
		grant_types_supported: ['authorization_code', 'refresh_token'],
		code_challenge_methods_supported: ['S256'],
		token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
		revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
		introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
		authorization_response_iss_parameter_supported: true,
		service_documentation: `${publicUrl}/developers`,
	};
}

// ——— App calls to the API ———

export type AppAccess = {
	viewer: Viewer;
	/** The app's public id, and its row id for the access log. */
	clientId: string;
	clientRowId: number;
	grantId: number;
	scopes: AppScope[];
};

export function isAppAccessToken(token: string): boolean {
	return token.startsWith(ACCESS_PREFIX);
}

/**
 * The member and scopes behind an app's access token, or null when the token is unknown, expired,
 * revoked (by the member, the app or a replay), or sent with another app's Api-Key.
 */
export async function authenticateAppToken(
	deps: Deps,
	token: string,
	apiKey: string | undefined,
): Promise<AppAccess | null> {
	const now = deps.clock();
	const [row] = await deps.db
		.select({ grant: oauthGrants, clientId: oauthClients.clientId })
		.from(oauthTokens)
		.innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
		.innerJoin(oauthClients, eq(oauthClients.id, oauthGrants.clientId))
		.where(
			and(
				eq(oauthTokens.tokenHash, sha256(token)),
				eq(oauthTokens.kind, 'access'),
				isNull(oauthTokens.revokedAt),
				gt(oauthTokens.expiresAt, now),
				isNull(oauthGrants.revokedAt),
			),
		);
	if (!row || !apiKey || !sameText(apiKey, row.clientId)) return null;
	const viewer = await findViewerById(deps, row.grant.userId);
	if (!viewer) return null;
	// "Last used" to the minute is enough, and spares a write on every call.
	await deps.db
		.update(oauthGrants)
		.set({ lastUsedAt: now })
		.where(
			and(
				eq(oauthGrants.id, row.grant.id),
				or(isNull(oauthGrants.lastUsedAt), lt(oauthGrants.lastUsedAt, new Date(now.getTime() - 60_000))),
			),
		);
	return {
		viewer,
		clientId: row.clientId,
		clientRowId: row.grant.clientId,
		grantId: row.grant.id,
		scopes: row.grant.scopes.filter(isAppScope),
	};
}

export async function logAppDataAccess(
	deps: Deps,
	access: AppAccess,
	entry: { scope: AppScope; method: string; path: string },
): Promise<void> {
	await deps.db.insert(appDataAccessLog).values({
		userId: access.viewer.id,
		clientId: access.clientRowId,
		scope: entry.scope,
		method: entry.method,
		path: entry.path,
		at: deps.clock(),
	});
}

/** What apps read of the member's location and health data, newest first (the privacy centre's log). */
export async function listAppDataAccess(deps: Deps, userId: number, limit = 200): Promise<AppDataAccess[]> {
	const rows = await deps.db
		.select({ log: appDataAccessLog, clientId: oauthClients.clientId, appName: oauthClients.name })
		.from(appDataAccessLog)
		.innerJoin(oauthClients, eq(oauthClients.id, appDataAccessLog.clientId))
		.where(eq(appDataAccessLog.userId, userId))
		.orderBy(desc(appDataAccessLog.at), desc(appDataAccessLog.id))
		.limit(limit);
	return rows.map((row) => ({
		clientId: row.clientId,
		appName: row.appName,
		scope: row.log.scope as AppScope,
		method: row.log.method,
		path: row.log.path,
		at: formatApiDateTime(row.log.at),
	}));
}

// ——— The member's connected apps ———

/** Apps holding a live grant from the member, one line per app. */
export async function listConnectedApps(deps: Deps, userId: number): Promise<ConnectedApp[]> {
	const now = deps.clock();
	const rows = await deps.db
		.select({
			clientId: oauthClients.clientId,
			name: oauthClients.name,
			scopes: sql<string[]>`jsonb_agg(${oauthGrants.scopes})`,
			authorizedAt: sql<Date>`min(${oauthGrants.createdAt})`.mapWith(oauthGrants.createdAt),
			lastUsedAt: sql<Date | null>`max(${oauthGrants.lastUsedAt})`.mapWith(oauthGrants.lastUsedAt),
		})
		.from(oauthGrants)
		.innerJoin(oauthClients, eq(oauthClients.id, oauthGrants.clientId))
		.where(and(eq(oauthGrants.userId, userId), isNull(oauthGrants.revokedAt), gt(oauthGrants.expiresAt, now)))
		.groupBy(oauthClients.id)
		.orderBy(oauthClients.name);
	return rows.map((row) => {
		const granted = new Set((row.scopes as unknown as string[][]).flat());
		return {
			clientId: row.clientId,
			name: row.name,
			scopes: APP_SCOPES.filter((scope) => granted.has(scope)),
			authorizedAt: formatApiDateTime(new Date(row.authorizedAt)),
			lastUsedAt: row.lastUsedAt ? formatApiDateTime(new Date(row.lastUsedAt)) : null,
		};
	});
}

/** The member takes an app's access away: every grant, code and token it holds for them ends now. */
export async function revokeConnectedApp(deps: Deps, userId: number, clientId: string): Promise<void> {
	const client = await findClient(deps, clientId);
	const grants = client
		? await deps.db
				.update(oauthGrants)
				.set({ revokedAt: deps.clock(), revokedReason: 'member_revoked' })
				.where(
					and(
						eq(oauthGrants.userId, userId),
						eq(oauthGrants.clientId, client.id),
						isNull(oauthGrants.revokedAt),
					),
				)
				.returning({ id: oauthGrants.id })
		: [];
	if (grants.length === 0) throw new AppError('not_found', 'That app is not connected to your account.');
}
