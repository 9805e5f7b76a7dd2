import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { compress } from 'hono/compress';
import { requestId } from 'hono/request-id';
import { openAPIRouteHandler } from 'hono-openapi';
import { verifyAccessToken } from '../auth/server/access-token';
import { AppError } from '../core/errors';
import type { ApiEnv, AppDeps } from './context';
import { respondWithError } from './errors';
import { createHealthApi } from './health';
import type { SubApp } from './modules';
import { rateLimit } from './rate-limit';
import { apiSecurityHeaders } from './security-headers';

/** JSON bodies above this are refused before they are read; upload routes set their own limit. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
const PHOTO_BODY_LIMIT = 2 * 1024 * 1024;

export type ApiModules = {
	/** Sub-apps with paths relative to /api, mounted in this order. */
	routes: SubApp[];
};

/** The single API app, mounted at /api by src/fetch.ts and called directly by API tests. */
export function createApi(deps: AppDeps, modules: ApiModules = { routes: [] }): Hono<ApiEnv> {
	const api = new Hono<ApiEnv>().basePath('/api');

	api.use(apiSecurityHeaders(deps.config.env === 'production'));
	api.use(compress());
	api.use(requestId());
	api.use(async (c, next) => {
		c.set('deps', deps);
		c.set('viewer', null);
		c.set('clientIp', readClientIp(c.req.raw, deps.config.trustedProxy, readSocketAddress(c.env)));
		const started = performance.now();
		await next();
		deps.logger.info(
			{
				requestId: c.var.requestId,
				method: c.req.method,
				path: c.req.path,
				status: c.res.status,
				ms: Math.round((performance.now() - started) * 10) / 10,
			},
			'request',
		);
	});
	api.use(requireKnownBodyType);
	const defaultLimit = bodyLimit({
		maxSize: DEFAULT_BODY_LIMIT,
		onError: () => {
			throw new AppError('payload_too_large', `The request body is larger than ${DEFAULT_BODY_LIMIT} bytes`);
		},
	});
	// Photos may be up to 1,000,000 bytes plus multipart framing; the photo endpoint itself answers
	// 'too-big' past 1,000,000 bytes, so the member sees the product's own message.
	const photoLimit = bodyLimit({
		maxSize: PHOTO_BODY_LIMIT,
		onError: () => {
			throw new AppError('payload_too_large', 'The photo is larger than 1,000,000 bytes', {
				detail: 'too-big',
			});
		},
	});
	// Only methods that carry a body: the limit reads `raw.body`, which makes the Node adapter build a
	// full Request, a cost every GET would otherwise pay.
	api.use((c, next) => {
		if (!BODY_METHODS.has(c.req.method)) return next();
		return c.req.path.includes('/user_profile_photo/') ? photoLimit(c, next) : defaultLimit(c, next);
	});
	api.use(readBearerToken);
	api.use(rateLimit(deps.config.apiRateLimitPerMinute));
	api.onError((error, c) => respondWithError(error, c));
	api.notFound((c) =>
		respondWithError(new AppError('not_found', `No API endpoint at ${c.req.method} ${c.req.path}`), c),
	);

	api.route('/', createHealthApi());
	for (const routes of modules.routes) api.route('/', routes);

	api.get(
		'/openapi.json',
		openAPIRouteHandler(api, {
			documentation: {
				openapi: '3.1.0',
				info: {
					title: 'Mapstride API',
					version: '7.1',
					description:
						'Workouts, routes, routing and accounts. Datetimes are ISO 8601 with an explicit offset.',
				},
				servers: [{ url: deps.config.publicUrl }],
			},
		}),
	);
	return api;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const ACCEPTED_BODY_TYPES = ['application/json', 'multipart/form-data', 'application/x-www-form-urlencoded'];

/**
 * A body must say what it is. Refusing text/plain also closes the cross-site "simple request"
 * hole that Origin checks alone miss on JSON endpoints.
 */
const requireKnownBodyType: MiddlewareHandler<ApiEnv> = async (c, next) => {
	if (BODY_METHODS.has(c.req.method) && hasBody(c.req.raw)) {
		const type = (c.req.header('content-type') ?? '').split(';')[0].trim().toLowerCase();
		const isOctetUpload = type === 'application/octet-stream' && c.req.path.includes('/upload');
		if (!ACCEPTED_BODY_TYPES.includes(type) && !isOctetUpload) {
			throw new AppError(
				'unsupported_media_type',
				`Content-Type ${type || '(none)'} is not accepted; send application/json`,
			);
		}
	}
	await next();
};

function hasBody(request: Request): boolean {
	return request.body !== null && request.headers.get('content-length') !== '0';
}

const readBearerToken: MiddlewareHandler<ApiEnv> = async (c, next) => {
	const header = c.req.header('authorization');
	if (header?.startsWith('Bearer ')) {
		const viewer = await verifyAccessToken(
			header.slice(7).trim(),
			c.var.deps.config.sessionSecret,
			c.var.deps.clock(),
		);
		if (!viewer)
			throw new AppError('unauthenticated', 'The access token is invalid or expired', {
				detail: 'invalid_token',
			});
		c.set('viewer', viewer);
	}
	await next();
};

/** X-Forwarded-For is believed only behind a proxy we run; otherwise anyone could pick their address. */
export function readClientIp(
	request: Request,
	trustedProxy: boolean,
	socketAddress: string | undefined,
): string {
	if (trustedProxy) {
		const forwarded = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim();
		if (forwarded) return forwarded;
	}
	return socketAddress ?? 'unknown';
}

/** The peer address from @hono/node-server's bindings; absent for in-process app.request() calls. */
function readSocketAddress(env: unknown): string | undefined {
	return (env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket
		?.remoteAddress;
}

/** For endpoints that need a signed-in member. */
export const requireViewer: MiddlewareHandler<ApiEnv> = async (c, next) => {
	if (!c.var.viewer)
		throw new AppError('unauthenticated', 'Sign in to do this', { detail: 'unauthenticated' });
	await next();
};
