import type { AppDeps } from '../../api/context';
import { truncateText } from '../../core/text';
import { MAX_ROUTE_NAME } from '../contract';
import { readRoutePageAddress } from '../page-address';
import type { OpenedRoute } from '../planner';
import { representForPlanner } from './represent';
import { findRouteForPlanner, getDefaultRoutePrivacy } from './service';

type Deps = Pick<AppDeps, 'db' | 'clock'>;

/**
 * The route an edit or copy page opens in the planner, or null when the viewer may not open it (the page is then
 * the not-found page). A copy is the viewer's from the start: "Copy of …", with their default privacy.
 */
export async function openRouteForPlanner(
	deps: Deps,
	viewer: { id: number },
	kind: 'edit' | 'copy',
	idParam: string | undefined,
	url: URL,
): Promise<{ opened: OpenedRoute; sourceName: string } | null> {
	const { id, token } = readRoutePageAddress(idParam, url);
	const route = id === null ? null : await findRouteForPlanner(deps, viewer, id, kind, token);
	if (!route) return null;
	const saved = representForPlanner(route, viewer);
	if (kind === 'edit')
		return { opened: { kind, routeId: route.id, token: null, route: saved }, sourceName: route.name };
	return {
		opened: {
			kind,
			routeId: route.id,
			token,
			route: {
				...saved,
				name: truncateText(`Copy of ${route.name}`, MAX_ROUTE_NAME),
				privacy: await getDefaultRoutePrivacy(deps, viewer),
			},
		},
		sourceName: route.name,
	};
}
