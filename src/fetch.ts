import { STATUS_CODES } from 'node:http';
import { serveStatic } from '@hono/node-server/serve-static';
import { astro } from 'astro/hono';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { compress } from 'hono/compress';
import { HTTPException } from 'hono/http-exception';
import { closeRuntime, getRuntime } from './lib/api/runtime';
import { applySecurityHeaders } from './lib/api/security-headers';
import { findViewerOfRequest } from './lib/auth/server/session';
import { authorizationServerMetadata } from './lib/connected-apps/server/service';
import { getConfig } from './lib/core/config';
import {
	DEFAULT_COOKIE_CHOICES,
	parseCookieChoices,
	serializeCookieChoices,
} from './lib/site/cookie-choices';
import { isGuardedPath, loginPathFor } from './lib/site/guards';
import { GEO_COOKIE } from './lib/site/privacy-request';
import { findRedirect } from './lib/site/redirects';
import { compressOnFirstRequest } from './lib/site/server/static-compression';
import { databaseUnavailablePage } from './lib/site/server/unavailable';

/**
 * The request pipeline: security headers → compression → static files → redirects → /api → Astro
 * pages. Static files are served here rather than by the adapter's own static handler, so
 * pre-rendered pages get the same headers and compression as everything else.
 */
const app = new Hono();

// A page that sets only its status (a private profile's 404) keeps Astro's "OK" as the reason
// phrase, and the status line reads "404 OK"; every answer gets the phrase of its own code.
app.use(async (c, next) => {
	await next();
	const reason = STATUS_CODES[c.res.status];
	if (reason && c.res.statusText !== reason)
		c.res = new Response(c.res.body, { status: c.res.status, statusText: reason, headers: c.res.headers });
});
app.use(applySecurityHeaders);
app.use(compress());
app.use(async (c, next) => {
	await next();
	if (!c.res.headers.get('content-type')?.startsWith('text/html')) return;
	// A Global Privacy Control signal is kept with the visitor's cookie choices, so their opt-out
	// holds on pages built in advance and carries into an account made later.
	if (c.req.header('sec-gpc')?.trim() === '1') {
		const choices = parseCookieChoices(c.req.header('cookie')) ?? DEFAULT_COOKIE_CHOICES;
		const secure = new URL(c.req.url).protocol === 'https:';
		if (!choices.gpc)
			c.header('Set-Cookie', serializeCookieChoices({ ...choices, gpc: true }, secure), { append: true });
	}
	// Pre-rendered pages learn the visitor's country and region from this readable cookie (the
	// footer's Privacy Request link); only a proxy we run may tell us where someone is.
	const config = getConfig();
	if (!config.trustedProxy) return;
	const country = c.req.header(config.geoHeaders.country)?.toUpperCase();
	const region = c.req.header(config.geoHeaders.region)?.toUpperCase();
	if (country && /^[A-Z]{2}$/.test(country)) {
		const value = region && /^[A-Z0-9]{1,3}$/.test(region) ? `${country}-${region}` : country;
		c.header('Set-Cookie', `${GEO_COOKIE}=${value}; Path=/; SameSite=Lax; Max-Age=86400`, { append: true });
	}
});

/** The API app, which sets its own headers and compresses its answers. */
async function fetchApi(request: Request, env: unknown): Promise<Response> {
	const { api } = await getRuntime();
	// env carries the Node socket, from which the API reads the caller's address.
	return api.fetch(request, env);
}

/** The base map's tiles, which set their own headers and are never compressed (PNG already is). */
async function fetchTiles(request: Request): Promise<Response> {
	const { tiles } = await getRuntime();
	return tiles.fetch(request);
}

const clientDir = process.env.MAPSTRIDE_CLIENT_DIR;
if (clientDir) {
	app.use('/_astro/*', async (c, next) => {
		await next();
		// File names carry a content hash, so a given URL never changes.
		if (c.res.ok) c.header('Cache-Control', 'public, max-age=31536000, immutable');
	});
	app.use(compressOnFirstRequest(clientDir));
	app.use(serveStatic({ root: clientDir, precompressed: true }));
}

app.use(async (c, next) => {
	const target = findRedirect(c.req.path);
	if (target) return c.redirect(target + new URL(c.req.url).search, 301);
	await next();
});

app.all('/api/*', (c) => fetchApi(c.req.raw, c.env));
// RFC 8414 puts the OAuth server's metadata at the root, not under /api.
app.get('/.well-known/oauth-authorization-server', (c) =>
	c.json(authorizationServerMetadata(getConfig().publicUrl), 200, {
		'Cache-Control': 'public, max-age=3600',
	}),
);
app.all('/tiles/*', (c) => fetchTiles(c.req.raw));

// Pages read their form posts whole, so a post is bounded before it is read: forms are small, and
// only the workout page's photo form carries files (several photos of up to 12 MB at once).
const pageFormLimit = bodyLimit({
	maxSize: 256 * 1024,
	onError: (c) => c.text('This form is larger than we accept.', 413),
});
const photoFormLimit = bodyLimit({
	maxSize: 40 * 1024 * 1024,
	onError: (c) => c.text('These photos are more than 40 MB together. Add fewer at once.', 413),
});
const PHOTO_FORM_PAGE = /^\/workout\/\d+\/?$/;
app.use(async (c, next) => {
	if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
	return (PHOTO_FORM_PAGE.test(c.req.path) ? photoFormLimit : pageFormLimit)(c, next);
});

// Guards run before page routing, so a guarded path redirects a visitor even before its page exists.
app.use(async (c, next) => {
	if (!isGuardedPath(c.req.path)) return next();
	const { deps } = await getRuntime();
	if (await findViewerOfRequest(deps, c.req.raw)) return next();
	const url = new URL(c.req.url);
	return c.redirect(loginPathFor(url), 302);
});

app.use(astro());

// The guard above reads the session from the database; while it is away that is a 503, not a 500.
app.onError((error, c) => {
	const unavailable = databaseUnavailablePage(error);
	if (unavailable) return unavailable;
	// Hono's own default for everything else.
	if (error instanceof HTTPException) return error.getResponse();
	console.error(error);
	return c.text('Internal Server Error', 500);
});

/**
 * scripts/start.mjs boots the runtime before listening, closes it on SIGTERM/SIGINT, and sends
 * /api requests straight to `fetchApi` and /tiles requests to `fetchTiles`: the page renderer adds
 * nothing they need.
 */
(globalThis as Record<symbol, unknown>)[Symbol.for('mapstride.lifecycle')] = {
	boot: getRuntime,
	shutdown: closeRuntime,
	fetchApi,
	fetchTiles,
};

export default app;
