import { defineMiddleware } from 'astro:middleware';
import { getRuntime } from './lib/api/runtime';
import { findViewerBySessionCookie } from './lib/auth/server/session';

/**
 * Who is signed in, for on-demand pages. Pre-rendered pages are plain files and never reach
 * this; guarded paths were already turned away in src/fetch.ts.
 */
export const onRequest = defineMiddleware(async (context, next) => {
	context.locals.viewer = null;
	if (context.isPrerendered) return next();
	const { deps } = await getRuntime();
	context.locals.viewer = await findViewerBySessionCookie(deps, context.request.headers.get('cookie'));
	return next();
});
