import type { APIRoute } from 'astro';
import { getRuntime } from '../../lib/api/runtime';
import { listNotifications } from '../../lib/social/server/notifications';

export const prerender = false;

/** How many of the member's latest notifications are new, for the header's bell on every page. */
export const GET: APIRoute = async ({ locals }) => {
	const headers = { 'content-type': 'application/json', 'cache-control': 'private, no-store' };
	if (!locals.viewer) return new Response(JSON.stringify({ unread: 0 }), { status: 401, headers });
	const { deps } = await getRuntime();
	const { unread } = await listNotifications(deps, locals.viewer, 10);
	return new Response(JSON.stringify({ unread }), { headers });
};
