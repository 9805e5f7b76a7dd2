import { createHash } from 'node:crypto';
import type { AppDeps } from '../../core/server/deps';
import { truncateText } from '../../core/text';
import {
	DEFAULT_COOKIE_CHOICES,
	MAP_TYPE_STORAGE_KEY,
	MAP_VIEW_STORAGE_KEY,
	parseCookieChoices,
} from '../../site/cookie-choices';
import { getRolloutVariant, type Rollout, rolloutsFor } from '../../site/rollouts';
import { MAX_ROUTE_NAME } from '../contract';
import { readRoutePageAddress } from '../page-address';
import { type LatLng, type OpenedRoute, planFromSavedRoute } from '../planner';
import {
	DEFAULT_PLANNER_VIEW,
	FRAME_MAX_ZOOM,
	FRAME_PADDING_PX,
	type Frame,
	plannerPreviewScript,
} from '../planner-preview';
import { findRouteForPlanner, getDefaultRoutePrivacy } from './pages';
import { representForPlanner } from './represent';

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

type PageContext = {
	cookie: string | null;
	csp: { insertScriptHash(hash: `sha256-${string}`): void } | undefined;
};

/**
 * What an edit or copy page renders: the route opened (null: the page is the not-found page), the member's
 * rollouts, and the first paint framing the route as the planner will.
 */
export async function openPlannerPage(
	deps: Deps & Pick<AppDeps, 'config'>,
	viewer: { id: number; username?: string; isPremium?: boolean },
	kind: 'edit' | 'copy',
	page: PageContext & { id: string | undefined; url: URL },
) {
	const found = await openRouteForPlanner(deps, viewer, kind, page.id, page.url);
	const rollouts = rolloutsFor(viewer, deps.config.rollouts);
	const preview = found
		? plannerPreviewFor(deps.config, rollouts, page, planFromSavedRoute(found.opened.route).state.waypoints)
		: null;
	return { found, rollouts, preview };
}

/**
 * The inline script of a planner page's first paint (routes/planner-preview.ts), its hash added to the page's
 * script policy; null for members on the vector map, who get no raster tiles they would not use. Called from the
 * page's frontmatter: the policy is sent before the page's components render.
 */
export function plannerPreviewFor(
	config: Pick<AppDeps['config'], 'mapLayers'>,
	rollouts: readonly Rollout[],
	page: PageContext,
	framed?: readonly LatLng[],
): string | null {
	if (getRolloutVariant(rollouts, 'alternate_maps_type') === 'enabled' || config.mapLayers.length === 0)
		return null;
	// The browser reads the same cookie to decide whether preferences are kept.
	const choices = parseCookieChoices(page.cookie) ?? DEFAULT_COOKIE_CHOICES;
	const script = plannerPreviewScript({
		layers: config.mapLayers.map(({ type, url, maxZoom }) => ({ type, url, maxZoom })),
		remembered: choices.preferences,
		viewKey: MAP_VIEW_STORAGE_KEY,
		typeKey: MAP_TYPE_STORAGE_KEY,
		fallback: DEFAULT_PLANNER_VIEW,
		frame: framed && framed.length > 0 ? frameOf(framed) : undefined,
	});
	page.csp?.insertScriptHash(`sha256-${createHash('sha256').update(script).digest('base64')}`);
	return script;
}

function frameOf(points: readonly LatLng[]): Frame {
	const frame = {
		south: Number.POSITIVE_INFINITY,
		west: Number.POSITIVE_INFINITY,
		north: Number.NEGATIVE_INFINITY,
		east: Number.NEGATIVE_INFINITY,
	};
	for (const { lat, lng } of points) {
		frame.south = Math.min(frame.south, lat);
		frame.north = Math.max(frame.north, lat);
		frame.west = Math.min(frame.west, lng);
		frame.east = Math.max(frame.east, lng);
	}
	return { ...frame, padding: FRAME_PADDING_PX, maxZoom: FRAME_MAX_ZOOM };
}
