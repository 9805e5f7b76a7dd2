import type { APIRoute } from 'astro';
import { getRuntime } from '../../lib/api/runtime';
import { SESSION_HINT_COOKIE } from '../../lib/auth/hint';
import { logout } from '../../lib/auth/server/service';
import { readCookie, sessionCookieName } from '../../lib/auth/server/session';

export const prerender = false;

/**
 * The profile menu's "Logout" link: ends the session server-side and clears both cookies. Only
 * a same-site navigation may do it, so another site cannot log members out.
 */
export const GET: APIRoute = async ({ request, cookies, redirect }) => {
	const site = request.headers.get('sec-fetch-site');
	if (site === 'cross-site') return redirect('/', 303);
	const { deps } = await getRuntime();
	const name = sessionCookieName(deps.config);
	await logout(deps, readCookie(request.headers.get('cookie'), name), null);
	cookies.delete(name, { path: '/' });
	cookies.delete(SESSION_HINT_COOKIE, { path: '/' });
	return redirect('/', 303);
};
