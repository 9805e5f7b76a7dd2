// A route as a viewer may see it (canView, and nothing of what lies in its owner's privacy zones)
// or as its owner may change it: every read of a route for someone and every change starts here.

import polyline from '@mapbox/polyline';
import { eq } from 'drizzle-orm';
import { locationPrivacyOfMany } from '../../account/server/location-privacy';
import { users } from '../../auth/server/tables';
import { AppError } from '../../core/errors';
import type { AppDeps, Db } from '../../core/server/deps';
import { relationBetween } from '../../social/server/relations';
import { canEdit, canView } from '../policy';
import { hideRouteInZones } from '../zones';
import { routes } from './tables';

export type RouteRow = typeof routes.$inferSelect;
/** A route with what pages and the API show about its owner. */
export type RouteWithOwner = RouteRow & { ownerDisplayName: string; ownerUsername: string };
export type Viewer = { id: number } | null;
export type Deps = Pick<AppDeps, 'db' | 'clock'>;

export const ownerColumns = { ownerDisplayName: users.displayName, ownerUsername: users.username };

export async function findRoute(db: Db, id: number): Promise<RouteWithOwner | null> {
	const rows = await db
		.select({ route: routes, ...ownerColumns })
		.from(routes)
		.innerJoin(users, eq(users.id, routes.ownerId))
		.where(eq(routes.id, id))
		.limit(1);
	const row = rows[0];
	return row
		? { ...row.route, ownerDisplayName: row.ownerDisplayName, ownerUsername: row.ownerUsername }
		: null;
}

export const notFound = () => new AppError('not_found', 'No such route');

/** The route if the viewer may see it; otherwise 404, the same answer as for a route that does not exist. */
export async function getVisibleRoute(
	deps: Deps,
	viewer: Viewer,
	id: number,
	token?: string | null,
): Promise<RouteWithOwner> {
	const route = await findRoute(deps.db, id);
	if (!route) throw notFound();
	const relation = await relationBetween(deps.db, viewer, route.ownerId);
	if (!canView(viewer, route, { ...relation, token })) throw notFound();
	const [seen] = await routesAsSeenBy(deps, viewer, [route]);
	if (!seen) throw notFound();
	return seen;
}

/**
 * The routes as `viewer` may see them: others' routes without what lies in their owners' privacy
 * zones, and without those lying wholly inside them. Every read of a route for someone goes through here.
 */
export async function routesAsSeenBy<T extends RouteWithOwner>(
	deps: Deps,
	viewer: Viewer,
	found: T[],
): Promise<T[]> {
	const others = found.filter((route) => route.ownerId !== viewer?.id && route.path !== '');
	if (others.length === 0) return found;
	const privacy = await locationPrivacyOfMany(
		deps,
		others.map((route) => route.ownerId),
	);
	return found.flatMap((route) => {
		if (route.ownerId === viewer?.id) return [route];
		const seen = hideRouteInZones(route, privacy.get(route.ownerId)?.zones ?? []);
		return seen ? [seen] : [];
	});
}

export async function getOwnRoute(deps: Deps, viewer: Viewer, id: number): Promise<RouteWithOwner> {
	if (!viewer) throw new AppError('unauthenticated', 'Sign in to change a route');
	const route = await findRoute(deps.db, id);
	// Someone else's route answers 404 whether or not they could see it: no hint that it exists.
	if (!route || !canEdit(viewer, route)) throw notFound();
	return route;
}

export function decodePath(route: Pick<RouteRow, 'path'>): [number, number][] {
	return polyline.decode(route.path, 6);
}
