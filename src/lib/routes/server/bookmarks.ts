// A member's bookmarks of routes they can find: listed, added and removed. Bookmarks are private to
// their member.

import { and, desc, eq, sql } from 'drizzle-orm';
import { users } from '../../auth/server/tables';
import { AppError } from '../../core/errors';
import { ROUTE_SEARCH_PAGE_SIZE } from '../contract';
import { type Deps, notFound, ownerColumns, type RouteRow, type RouteWithOwner, type Viewer } from './access';
import { EMPTY_HEAVY_COLUMNS, getRoutesByIds, listableCondition, summaryColumns } from './lists';
import { routeBookmarks, routes } from './tables';

export type BookmarkRow = { id: number; userId: number; routeId: number; createdAt: Date };

export async function listBookmarks(
	deps: Deps,
	viewer: Viewer,
	query: { limit?: number; offset?: number; user?: number },
): Promise<{
	bookmarks: (BookmarkRow & { route: RouteWithOwner })[];
	totalCount: number;
	limit: number;
	offset: number;
}> {
	if (!viewer) throw new AppError('unauthenticated', 'Sign in to see your bookmarks');
	// Bookmarks are private to their member.
	if (query.user !== undefined && query.user !== viewer.id)
		throw new AppError('forbidden', 'You can only list your own bookmarks');
	const limit = query.limit ?? ROUTE_SEARCH_PAGE_SIZE;
	const offset = query.offset ?? 0;
	// A bookmarked route that is no longer visible drops out until it is again.
	const where = and(eq(routeBookmarks.userId, viewer.id), listableCondition(viewer));
	const [rows, counted] = await Promise.all([
		deps.db
			.select({ bookmark: routeBookmarks, route: summaryColumns, ...ownerColumns })
			.from(routeBookmarks)
			.innerJoin(routes, eq(routes.id, routeBookmarks.routeId))
			.innerJoin(users, eq(users.id, routes.ownerId))
			.where(where)
			.orderBy(desc(routeBookmarks.createdAt), desc(routeBookmarks.id))
			.limit(limit)
			.offset(offset),
		deps.db
			.select({ count: sql<number>`count(*)::int` })
			.from(routeBookmarks)
			.innerJoin(routes, eq(routes.id, routeBookmarks.routeId))
			.where(where),
	]);
	return {
		bookmarks: rows.map((row) => ({
			...row.bookmark,
			route: {
				...EMPTY_HEAVY_COLUMNS,
				...(row.route as Partial<RouteRow>),
				ownerDisplayName: row.ownerDisplayName,
				ownerUsername: row.ownerUsername,
			} as RouteWithOwner,
		})),
		totalCount: Number(counted[0]?.count ?? 0),
		limit,
		offset,
	};
}

/** Bookmarks a route the member can find in lists; answers the existing bookmark when there is one. */
export async function createBookmark(
	deps: Deps,
	viewer: Viewer,
	routeId: number,
	userId: number | undefined,
): Promise<{ bookmark: BookmarkRow; created: boolean }> {
	if (!viewer) throw new AppError('unauthenticated', 'Sign in to bookmark a route');
	if (userId !== undefined && userId !== viewer.id)
		throw new AppError('forbidden', 'You can only bookmark routes for yourself');
	const [visible] = await getRoutesByIds(deps, viewer, [routeId]);
	if (!visible) throw notFound();
	const inserted = await deps.db
		.insert(routeBookmarks)
		.values({ userId: viewer.id, routeId, createdAt: deps.clock() })
		.onConflictDoNothing()
		.returning();
	if (inserted[0]) return { bookmark: inserted[0], created: true };
	const [existing] = await deps.db
		.select()
		.from(routeBookmarks)
		.where(and(eq(routeBookmarks.userId, viewer.id), eq(routeBookmarks.routeId, routeId)));
	return { bookmark: existing, created: false };
}

export async function deleteBookmark(deps: Deps, viewer: Viewer, id: number): Promise<void> {
	if (!viewer) throw new AppError('unauthenticated', 'Sign in to remove a bookmark');
	const deleted = await deps.db
		.delete(routeBookmarks)
		.where(and(eq(routeBookmarks.id, id), eq(routeBookmarks.userId, viewer.id)))
		.returning({ id: routeBookmarks.id });
	if (deleted.length === 0) throw new AppError('not_found', 'No such bookmark');
}

/** Removes the viewer's bookmark of a route, if there is one (the view page's toggle). */
export async function deleteBookmarkOfRoute(deps: Deps, viewer: Viewer, routeId: number): Promise<void> {
	if (!viewer) throw new AppError('unauthenticated', 'Sign in to remove a bookmark');
	await deps.db
		.delete(routeBookmarks)
		.where(and(eq(routeBookmarks.userId, viewer.id), eq(routeBookmarks.routeId, routeId)));
}
