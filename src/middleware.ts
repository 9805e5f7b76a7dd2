import { defineMiddleware } from 'astro:middleware';
import { getRuntime } from './lib/api/runtime';
import { findViewerOfRequest } from './lib/auth/server/session';
import { honourGlobalPrivacyControl } from './lib/privacy/server/consents';
import { databaseUnavailablePage, pageErrorPage, unstorableTextPage } from './lib/site/server/unavailable';

/**
 * Who is signed in, for on-demand pages. Pre-rendered pages are plain files and never reach
 * this; guarded paths were already turned away in src/fetch.ts.
 */
export const onRequest = defineMiddleware(async (context, next) => {
	context.locals.viewer = null;
	if (context.isPrerendered) return next();
	let deps: Awaited<ReturnType<typeof getRuntime>>['deps'] | undefined;
	try {
		({ deps } = await getRuntime());
		context.locals.viewer = await findViewerOfRequest(deps, context.request);
		// A Global Privacy Control signal is an opt-out wherever the law makes it one; recorded once.
		if (context.locals.viewer && context.request.headers.get('sec-gpc')?.trim() === '1')
			await honourGlobalPrivacyControl(deps, context.locals.viewer.id);
		return await next();
	} catch (error) {
		// The page's own queries fail here too, before it streams: a database away is a 503, text it
		// cannot hold (a NUL in the address or a form) a 400, anything else a 500 logged through our
		// scrubbed logger rather than the framework's, which would print a query's parameters.
		const answer = databaseUnavailablePage(error) ?? unstorableTextPage(error);
		if (answer) return answer;
		if (!deps) throw error;
		return pageErrorPage(error, deps.logger, context.url.pathname);
	}
});
