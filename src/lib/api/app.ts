import { type Context, Hono } from 'hono';
import { compress } from 'hono/compress';
import { routePath } from 'hono/route';
import { openAPIRouteHandler } from 'hono-openapi';
import { readBearerToken } from '../auth/server/middleware';
import { readAppToken } from '../connected-apps/server/scopes';
import { AppError } from '../core/errors';
import type { AppDeps } from '../core/server/deps';
import { limitBodySize, requireKnownBodyType } from './body';
// The domains' listeners and their parts of a member's export and deletion are in place wherever the API is.
import './listeners';
import './member-data';
import { type ApiEnv, presetHeaders, type SubApp } from './context';
import { respondWithError } from './errors';
import { createHealthApi } from './health';
import { rateLimit } from './rate-limit';
import { buildSecurityHeaders } from './security-headers';

export type ApiModules = {
	/** Sub-apps with paths relative to /api, mounted in this order. */
	routes: SubApp[];
};

/** The single API app, mounted at /api by src/fetch.ts and called directly by API tests. */
export function createApi(deps: AppDeps, modules: ApiModules = { routes: [] }): Hono<ApiEnv> {
	const api = new Hono<ApiEnv>().basePath('/api');

	// One middleware for what every call needs first, rather than a chain of small ones that each add
	// an async step to every call. Standing headers go on before the handler, so they ride on its answer.
	const standing: [string, string][] = [
		...Object.entries(buildSecurityHeaders('/api/', deps.config.env === 'production')),
		// Any answer may come compressed, so caches keep one copy per encoding.
		['Vary', 'Accept-Encoding'],
	];
	const compressor = compress();
	api.use(async (c, next) => {
		const id = forwardedRequestId(c) ?? crypto.randomUUID();
		presetHeaders(c, [...standing, ['X-Request-Id', id]]);
		c.set('requestId', id);
		c.set('deps', deps);
		c.set('viewer', null);
		c.set('sessionId', null);
		c.set('appAccess', null);
		c.set('clientIp', readClientIp(c.req.raw, deps.config.trustedProxy, readSocketAddress(c.env)));
		// Hono's compression reads the answer's headers after the handler, which copies a ready answer
		// into a stream (half of a small call's cost): callers that accept no encoding (health checks,
		// server-to-server clients) skip it.
		const answer = () =>
			ACCEPTS_COMPRESSION.test(c.req.header('accept-encoding') ?? '') ? compressor(c, next) : next();
		// The log record is built only when it will be written.
		if (!deps.logger.isLevelEnabled('info')) return answer();
		const started = performance.now();
		await answer();
		deps.logger.info(
			{
				requestId: id,
				method: c.req.method,
				// The route's pattern, not the address: addresses carry reset tokens and emails.
				path: routePath(c, -1),
				status: c.res.status,
				ms: Math.round((performance.now() - started) * 10) / 10,
			},
			'request',
		);
	});
	api.use(requireKnownBodyType);
	api.use(limitBodySize);
	api.use(readAppToken);
	api.use(readBearerToken);
	api.use(rateLimit(deps.db, deps.config.apiRateLimitPerMinute));
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

const ACCEPTS_COMPRESSION = /gzip|deflate|\*/i;

/** A caller's own X-Request-Id (a proxy's, to follow one request through both logs), when well formed. */
function forwardedRequestId(c: Context): string | undefined {
	const sent = c.req.header('x-request-id');
	return sent && sent.length <= 255 && !/[^\w\-=]/.test(sent) ? sent : undefined;
}

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
