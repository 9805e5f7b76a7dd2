import { serveStatic } from '@hono/node-server/serve-static';
import { astro } from 'astro/hono';
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { closeRuntime, getRuntime } from './lib/api/runtime';
import { applySecurityHeaders } from './lib/api/security-headers';
import { findRedirect } from './lib/site/redirects';

/**
 * The request pipeline: security headers → compression → static files → redirects → /api → Astro
 * pages. Static files are served here rather than by the adapter's own static handler, so
 * pre-rendered pages get the same headers and compression as everything else.
 */
const app = new Hono();

app.use(applySecurityHeaders);
app.use(compress());

/** The API behind the same headers and compression; scripts/start.mjs also calls it directly. */
async function fetchApi(request: Request): Promise<Response> {
	const { api } = await getRuntime();
	return api.fetch(request);
}
const apiEdge = new Hono().use(applySecurityHeaders).use(compress());
apiEdge.all('/api/*', (c) => fetchApi(c.req.raw));

const clientDir = process.env.MAPSTRIDE_CLIENT_DIR;
if (clientDir) {
	app.use('/_astro/*', async (c, next) => {
		await next();
		// File names carry a content hash, so a given URL never changes.
		if (c.res.ok) c.header('Cache-Control', 'public, max-age=31536000, immutable');
	});
	app.use(serveStatic({ root: clientDir, precompressed: true }));
}

app.use(async (c, next) => {
	const target = findRedirect(c.req.path);
	if (target) return c.redirect(target + new URL(c.req.url).search, 301);
	await next();
});

app.all('/api/*', (c) => fetchApi(c.req.raw));

app.use(astro());

/**
 * scripts/start.mjs boots the runtime before listening, closes it on SIGTERM/SIGINT, and sends
 * /api requests straight to `fetchApi`: the page renderer adds nothing an API call needs.
 */
(globalThis as Record<symbol, unknown>)[Symbol.for('mapstride.lifecycle')] = {
	boot: getRuntime,
	shutdown: closeRuntime,
	fetchApi: (request: Request) => apiEdge.fetch(request),
};

export default app;
