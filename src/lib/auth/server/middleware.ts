import type { MiddlewareHandler } from 'hono';
import type { ApiEnv } from '../../api/context';
import { AppError } from '../../core/errors';
import { verifyAccessToken } from './access-token';
import { isSessionLive } from './session';

/**
 * Knows the caller from `Authorization: Bearer …`. A token is believed only while the sign-in it
 * came from is live, so a logout or a revoked session ends it on the next request.
 */
export const readBearerToken: MiddlewareHandler<ApiEnv> = async (c, next) => {
	const header = c.req.header('authorization');
	// An app's token was already read (readAppToken); this one is the member's own sign-in.
	if (header?.startsWith('Bearer ') && !c.get('appAccess')) {
		const deps = c.get('deps');
		const claims = await verifyAccessToken(header.slice(7).trim(), deps.config.sessionSecret, deps.clock());
		if (!claims || !(await isSessionLive(deps, claims.viewer.id, claims.sessionId)))
			throw new AppError('unauthenticated', 'The access token is invalid or expired', {
				detail: 'invalid_token',
			});
		c.set('viewer', claims.viewer);
		c.set('sessionId', claims.sessionId);
	}
	await next();
};

/** For endpoints that need a signed-in member. */
export const requireViewer: MiddlewareHandler<ApiEnv> = async (c, next) => {
	if (!c.var.viewer)
		throw new AppError('unauthenticated', 'Sign in to do this', { detail: 'unauthenticated' });
	await next();
};
