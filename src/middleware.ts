import { defineMiddleware } from 'astro:middleware';
import { getRuntime } from './lib/api/runtime';
import { findViewerBySessionCookie } from './lib/auth/server/session';
import { isGuardedPath } from './lib/site/guards';

/**
 * On on-demand pages: who is signed in, and a redirect to the login page for guarded paths.
 * Pre-rendered pages are plain files and never reach this.
 */
export const onRequest = defineMiddleware(async (context, next) => {
	context.locals.viewer = null;
	if (context.isPrerendered) return next();
	const { deps } = await getRuntime();
	context.locals.viewer = await findViewerBySessionCookie(deps, context.request.headers.get('cookie'));
	const { pathname, search } = context.url;
	if (!context.locals.viewer && isGuardedPath(pathname)) {
		return context.redirect(`/auth/login?next=${encodeURIComponent(pathname + search)}`, 302);
	}
	return next();
});
