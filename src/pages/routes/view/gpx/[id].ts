import type { APIRoute } from 'astro';
import { getRuntime } from '../../../../lib/api/runtime';
import { AppError } from '../../../../lib/core/errors';
import { exportRouteGpx } from '../../../../lib/routes/server/service';

export const prerender = false;

/**
 * The view page's "Download GPX": the same export as the API, for the signed-in member of the
 * browser session (a friends-only route downloads for a friend) or a link holder.
 */
export const GET: APIRoute = async ({ params, url, locals }) => {
	const { deps } = await getRuntime();
	if (!/^\d{1,9}$/.test(params.id ?? '')) return new Response('Not found', { status: 404 });
	const token = url.searchParams.get('token')?.slice(0, 100) || null;
	try {
		const { fileName, body } = await exportRouteGpx(deps, locals.viewer, Number(params.id), token);
		return new Response(body, {
			headers: {
				'Content-Type': 'application/gpx+xml; charset=utf-8',
				'Content-Disposition': `attachment; filename="${fileName}"`,
				'Cache-Control': 'private, no-store',
			},
		});
	} catch (error) {
		if (error instanceof AppError && error.code === 'not_found')
			return new Response('Not found', { status: 404 });
		throw error;
	}
};
