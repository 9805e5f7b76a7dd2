// What the route pages read: the member's display settings, and a route to view, print, embed or
// open in the planner, after the same privacy decision as the API.

import { and, eq } from 'drizzle-orm';
import { users } from '../../auth/server/tables';
import { AppError } from '../../core/errors';
import { RoutePrivacy } from '../contract';
import { cumulativeDistances } from '../geo';
import { canEdit } from '../policy';
import {
	type Deps,
	decodePath,
	getOwnRoute,
	getVisibleRoute,
	type RouteWithOwner,
	type Viewer,
} from './access';
import { routeBookmarks } from './tables';

/** The member's display setting for distances, or null for visitors. */
export async function getMeasurementSystem(deps: Deps, viewer: Viewer): Promise<string | null> {
	if (!viewer) return null;
	const rows = await deps.db
		.select({ system: users.displayMeasurementSystem })
		.from(users)
		.where(eq(users.id, viewer.id))
		.limit(1);
	return rows[0]?.system ?? null;
}

/** The privacy the member chose for new routes (account settings); a copy starts with it. */
export async function getDefaultRoutePrivacy(deps: Deps, viewer: Viewer): Promise<number> {
	if (!viewer) return RoutePrivacy.private;
	const rows = await deps.db
		.select({ privacy: users.routePrivacy })
		.from(users)
		.where(eq(users.id, viewer.id))
		.limit(1);
	return rows[0]?.privacy ?? RoutePrivacy.private;
}

/**
 * A route to open in the planner: to edit, the member's own route; to copy, any route they may see (a link holder
 * with the token too). Null when there is none they may open, whether or not it exists.
 */
export async function findRouteForPlanner(
	deps: Deps,
	viewer: Viewer,
	id: number,
	kind: 'edit' | 'copy',
	token: string | null,
): Promise<RouteWithOwner | null> {
	try {
		return kind === 'edit'
			? await getOwnRoute(deps, viewer, id)
			: await getVisibleRoute(deps, viewer, id, token);
	} catch (error) {
		if (error instanceof AppError && error.code === 'not_found') return null;
		throw error;
	}
}

export type RouteForPage = {
	route: RouteWithOwner;
	path: [number, number][];
	distances: number[];
	isOwner: boolean;
	isBookmarked: boolean;
};

/**
 * What the view, print and embed pages show, after the same canView decision as the API; null
 * means "not found" to the page, whether the route is missing or hidden.
 */
export async function loadRouteForPage(
	deps: Deps,
	viewer: Viewer,
	id: number,
	token: string | null,
): Promise<RouteForPage | null> {
	let route: RouteWithOwner;
	try {
		route = await getVisibleRoute(deps, viewer, id, token);
	} catch (error) {
		if (error instanceof AppError && error.code === 'not_found') return null;
		throw error;
	}
	const path = decodePath(route);
	const bookmarked = viewer
		? await deps.db
				.select({ id: routeBookmarks.id })
				.from(routeBookmarks)
				.where(and(eq(routeBookmarks.userId, viewer.id), eq(routeBookmarks.routeId, id)))
				.limit(1)
		: [];
	return {
		route,
		path,
		distances: cumulativeDistances(path),
		isOwner: canEdit(viewer, route),
		isBookmarked: bookmarked.length > 0,
	};
}
