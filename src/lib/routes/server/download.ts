import type { APIRoute } from 'astro';
import { getRuntime } from '../../api/runtime';
import { AppError } from '../../core/errors';
import { readRoutePageAddress } from '../page-address';
import { exportRoute, type RouteExportFormat, routeFileHeaders } from './files';

/**
 * A page endpoint (`/routes/view/<format>/<id>`) that downloads a route for the browser session's
 * member or a link holder: the API's export, and the page's plain 404 for anything not visible.
 */
export function routeDownload(format: RouteExportFormat): APIRoute {
	return async ({ params, url, locals }) => {
		const { id, token } = readRoutePageAddress(params.id, url);
		if (id === null) return new Response('Not found', { status: 404 });
		const { deps } = await getRuntime();
		try {
			const file = await exportRoute(deps, locals.viewer, id, token, format);
			return new Response(file.body, { headers: routeFileHeaders(file) });
		} catch (error) {
			if (error instanceof AppError && error.code === 'not_found')
				return new Response('Not found', { status: 404 });
			throw error;
		}
	};
}
