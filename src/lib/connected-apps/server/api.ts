import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import * as v from 'valibot';
import type { ApiEnv } from '../../api/context';
import { validate } from '../../api/validate';
import { requireViewer } from '../../auth/server/middleware';
import { AppError } from '../../core/errors';
import { idText } from '../../core/integers';
import { singleLineText } from '../../core/text';
import {
	exchangeToken,
	findAppName,
	introspectToken,
	listConnectedApps,
	oauthError,
	revokeConnectedApp,
	revokeToken,
} from './service';

const Field = v.optional(singleLineText('A field', 2000));
/** The form an app posts (RFC 6749 §4.1.3, §6; RFC 7009; RFC 7662); which fields matter depends on grant_type. */
const TokenFormSchema = v.object({
	grant_type: Field,
	code: Field,
	redirect_uri: Field,
	code_verifier: Field,
	refresh_token: Field,
	scope: Field,
	client_id: Field,
	client_secret: Field,
	token: Field,
	token_type_hint: Field,
});

const asInvalidRequest = () =>
	oauthError('invalid_request', 'The form holds a field that is not acceptable.');
const ClientIdParam = v.object({
	id: v.pipe(v.string(), v.regex(/^[\w-]{1,100}$/, 'id must be a client id.')),
});
const UserIdParam = v.object({ id: idText('id must be a user id.') });
const ExternalTokenQuery = v.object({
	client_id: v.pipe(v.string(), v.regex(/^[\w-]{1,100}$/, 'client_id must be a client id.')),
	token_id: v.optional(v.pipe(v.string(), v.maxLength(200))),
});

/** The OAuth 2.1 endpoints apps call, and the member's external tokens (their connected apps). */
export function createConnectedAppsApi(): Hono<ApiEnv> {
	const app = new Hono<ApiEnv>();

	app.post(
		'/oauth2/token',
		describeRoute({
			summary: 'Trade an authorization code (with its PKCE verifier) or a refresh token for tokens',
		}),
		validate('form', TokenFormSchema, asInvalidRequest),
		async (c) => {
			const tokens = await exchangeToken(c.var.deps, c.req.valid('form'), c.req.header('authorization'));
			c.header('Cache-Control', 'no-store');
			return c.json(tokens);
		},
	);

	app.post(
		'/oauth2/revoke',
		describeRoute({ summary: 'Revoke an access or refresh token (RFC 7009)' }),
		validate('form', TokenFormSchema, asInvalidRequest),
		async (c) => {
			await revokeToken(c.var.deps, c.req.valid('form'), c.req.header('authorization'));
			return c.body(null, 200);
		},
	);

	app.post(
		'/oauth2/introspect',
		describeRoute({ summary: 'Whether a token of the calling app is active, and for what (RFC 7662)' }),
		validate('form', TokenFormSchema, asInvalidRequest),
		async (c) => {
			c.header('Cache-Control', 'no-store');
			return c.json(await introspectToken(c.var.deps, c.req.valid('form'), c.req.header('authorization')));
		},
	);

	// The consent screen's title comes from here in the MapMyFitness web client (oAuthClientName).
	for (const path of ['/auth/internal/oauth2/clientName/:id', '/auth/internal/oauth2/clientName/:id/']) {
		app.get(path, validate('param', ClientIdParam), async (c) => {
			const name = await findAppName(c.var.deps, c.req.valid('param').id);
			if (name === null)
				throw new AppError('not_found', 'No app has this client id.', { detail: 'client_not_found' });
			return c.json({ clientName: name });
		});
	}

	// A member's external tokens: the apps holding access to their account, and taking it back.
	for (const path of ['/internal/externaltokens/:id/', '/internal/externaltokens/:id']) {
		app.get(path, requireViewer, validate('param', UserIdParam), async (c) => {
			const viewer = c.var.viewer as NonNullable<typeof c.var.viewer>;
			if (Number(c.req.valid('param').id) !== viewer.id)
				throw new AppError('not_found', 'No such member’s tokens.');
			const apps = await listConnectedApps(c.var.deps, viewer.id);
			return c.json({
				_embedded: {
					external_tokens: apps.map((entry) => ({
						client_id: entry.clientId,
						client_name: entry.name,
						scope: entry.scopes.join(' '),
						created_datetime: entry.authorizedAt,
						last_used_datetime: entry.lastUsedAt,
					})),
				},
				total_count: apps.length,
			});
		});
	}
	for (const path of ['/internal/externaltokens/', '/internal/externaltokens']) {
		app.delete(path, requireViewer, validate('query', ExternalTokenQuery), async (c) => {
			const viewer = c.var.viewer as NonNullable<typeof c.var.viewer>;
			await revokeConnectedApp(c.var.deps, viewer.id, c.req.valid('query').client_id);
			return c.body(null, 204);
		});
	}
	return app;
}
