// Lists of routes: search and a member's own, batch reads by id, and every route a member owns
// for their data export. Link-only routes of others never appear in a list.

import { and, asc, desc, eq, getTableColumns, inArray, or, type SQL, sql } from 'drizzle-orm';
import { privacyZones } from '../../account/server/tables';
import { users } from '../../auth/server/tables';
import { notBlockedWith } from '../../social/server/relations';
import { friendships } from '../../social/server/tables';
import {
	DEFAULT_SEARCH_RADIUS_M,
	firstWord,
	MAX_DISTANCE_AT_LEAST_M,
	MY_ROUTES_TEXT_SEARCH_PAGE_SIZE,
	ROUTE_SEARCH_PAGE_SIZE,
	type RouteListQuery,
	type RouteOrder,
} from '../contract';
import { boundingBox } from '../geo';
import {
	type Deps,
	ownerColumns,
	type RouteRow,
	type RouteWithOwner,
	routesAsSeenBy,
	type Viewer,
} from './access';
import { routes } from './tables';

/** Every column but the heavy ones, for summaries. */
const {
	path: _path,
	elevations: _elevations,
	segments: _segments,
	cues: _cues,
	markers: _markers,
	travelModes: _modes,
	...summaryColumns
} = getTableColumns(routes);

export { summaryColumns };
export const EMPTY_HEAVY_COLUMNS = {
	path: '',
	elevations: null,
	segments: [],
	cues: [],
	markers: [],
	travelModes: [],
};

/**
 * The SQL twin of `canList`: own routes, public ones, and friends-only routes of accepted friends,
 * none of a member blocked either way. Link-only routes of others never appear in a list, count or
 * search.
 */
export function listableCondition(viewer: Viewer): SQL {
	if (!viewer) return eq(routes.privacy, 3);
	const friendOfOwner = sql`exists (select 1 from ${friendships} where ${friendships.status} = 'active' and ((${friendships.fromUserId} = ${viewer.id} and ${friendships.toUserId} = ${routes.ownerId}) or (${friendships.toUserId} = ${viewer.id} and ${friendships.fromUserId} = ${routes.ownerId})))`;
	return or(
		eq(routes.ownerId, viewer.id),
		and(
			notBlockedWith(viewer.id, routes.ownerId),
			or(eq(routes.privacy, 3), and(eq(routes.privacy, 1), friendOfOwner)),
		),
	) as SQL;
}

function escapeLike(text: string): string {
	return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export type RoutePage = {
	routes: RouteWithOwner[];
	totalCount: number;
	limit: number;
	offset: number;
	orderBy: RouteOrder;
};

/**
 * List and search. Searching one's own routes by text pages by 40 ordered by match;
 * everything else by 20, newest first. The name filter uses only the first word.
 */
export async function listRoutes(deps: Deps, viewer: Viewer, query: RouteListQuery): Promise<RoutePage> {
	const detailed = query.field_set === 'detailed' || query.field_set === 'detailed_internal';
	const word = firstWord(query.text_search);
	const myTextSearch = word !== '' && viewer !== null && query.user === viewer.id;
	const limit = query.limit ?? (myTextSearch ? MY_ROUTES_TEXT_SEARCH_PAGE_SIZE : ROUTE_SEARCH_PAGE_SIZE);
	const offset = query.offset ?? 0;
	let orderBy: RouteOrder = query.order_by ?? (myTextSearch ? '-text_match' : '-date_created');
	if (orderBy === '-text_match' && !word) orderBy = '-date_created';

	const conditions: SQL[] = [];
	// A member listing their own routes sees all of them; everyone else what canList allows.
	if (!(viewer && query.user === viewer.id)) conditions.push(listableCondition(viewer));
	if (query.user !== undefined) conditions.push(eq(routes.ownerId, query.user));
	if (word) conditions.push(sql`${routes.name} ilike ${`%${escapeLike(word)}%`}`);
	if (query.activity_type !== undefined) conditions.push(eq(routes.activityTypeId, query.activity_type));
	if (query.minimum_distance !== undefined)
		conditions.push(sql`${routes.distanceM} >= ${query.minimum_distance}`);
	if (query.maximum_distance !== undefined && query.maximum_distance < MAX_DISTANCE_AT_LEAST_M)
		conditions.push(sql`${routes.distanceM} <= ${query.maximum_distance}`);
	if (query.close_to_location) {
		const [lat, lng] = query.close_to_location;
		const radius = query.search_radius ?? DEFAULT_SEARCH_RADIUS_M;
		const box = boundingBox(lat, lng, radius);
		conditions.push(sql`${routes.startLat} between ${box.minLat} and ${box.maxLat}`);
		if (box.minLng !== null) conditions.push(sql`${routes.startLng} between ${box.minLng} and ${box.maxLng}`);
		conditions.push(
			sql`2 * 6371000 * asin(least(1, sqrt(power(sin(radians(${routes.startLat} - ${lat}::float8) / 2), 2) + cos(radians(${lat}::float8)) * cos(radians(${routes.startLat})) * power(sin(radians(${routes.startLng} - ${lng}::float8) / 2), 2)))) <= ${radius}::float8`,
		);
		// A start inside its owner's privacy zone is no place to find someone else's route by.
		conditions.push(
			sql`(${routes.ownerId} = ${viewer?.id ?? 0} or not exists (select 1 from ${privacyZones} where ${privacyZones.ownerId} = ${routes.ownerId} and 2 * 6371000 * asin(least(1, sqrt(power(sin(radians(${routes.startLat} - ${privacyZones.lat}) / 2), 2) + cos(radians(${privacyZones.lat})) * cos(radians(${routes.startLat})) * power(sin(radians(${routes.startLng} - ${privacyZones.lng}) / 2), 2)))) <= ${privacyZones.radiusM}))`,
		);
	}
	const where = and(...conditions);

	const order: SQL[] = (() => {
		switch (orderBy) {
			case 'date_created':
				return [asc(routes.createdAt), asc(routes.id)];
			case '-distance':
				return [desc(routes.distanceM), desc(routes.id)];
			case 'distance':
				return [asc(routes.distanceM), asc(routes.id)];
			case '-total_ascent':
				return [sql`${routes.ascentM} desc nulls last`, desc(routes.id)];
			case 'total_ascent':
				return [sql`${routes.ascentM} asc nulls last`, asc(routes.id)];
			case '-text_match': {
				const lower = word.toLowerCase();
				return [
					sql`case when lower(${routes.name}) = ${lower} then 3 when lower(${routes.name}) like ${`${escapeLike(lower)}%`} then 2 else 1 end desc`,
					desc(routes.createdAt),
					desc(routes.id),
				];
			}
			default:
				return [desc(routes.createdAt), desc(routes.id)];
		}
	})();

	// Lists without points leave the heavy columns (heights, segments, cues) in the table; the line
	// comes along, as each item's preview line is drawn from it.
	const columns = detailed ? routes : { ...summaryColumns, path: routes.path };
	const counted = sql<number>`count(*) over ()`.mapWith(Number);
	const rows = await deps.db
		.select({ route: columns, ...ownerColumns, totalCount: counted })
		.from(routes)
		.innerJoin(users, eq(users.id, routes.ownerId))
		.where(where)
		.orderBy(...order)
		.limit(limit)
		.offset(offset);
	// One query gives the page and the count; a page past the end needs the count on its own.
	let totalCount = rows[0]?.totalCount ?? 0;
	if (rows.length === 0 && offset > 0) {
		const [row] = await deps.db.select({ count: sql<number>`count(*)::int` }).from(routes).where(where);
		totalCount = Number(row?.count ?? 0);
	}
	const found = rows.map((row) => ({
		...EMPTY_HEAVY_COLUMNS,
		...(row.route as Partial<RouteRow>),
		ownerDisplayName: row.ownerDisplayName,
		ownerUsername: row.ownerUsername,
	})) as RouteWithOwner[];
	const seen = await routesAsSeenBy(deps, viewer, found);
	return {
		routes: seen,
		totalCount: totalCount - (found.length - seen.length),
		limit,
		offset,
		orderBy,
	};
}

/** Batch read by ids: the visible ones, in the order asked; hidden and missing ones are left out. */
export async function getRoutesByIds(deps: Deps, viewer: Viewer, ids: number[]): Promise<RouteWithOwner[]> {
	if (ids.length === 0) return [];
	const rows = await deps.db
		.select({ route: routes, ...ownerColumns })
		.from(routes)
		.innerJoin(users, eq(users.id, routes.ownerId))
		.where(and(inArray(routes.id, ids), listableCondition(viewer)));
	const seen = await routesAsSeenBy(
		deps,
		viewer,
		rows.map((row) => ({
			...row.route,
			ownerDisplayName: row.ownerDisplayName,
			ownerUsername: row.ownerUsername,
		})),
	);
	const byId = new Map(seen.map((route) => [route.id, route]));
	return ids.flatMap((id) => {
		const route = byId.get(id);
		return route ? [route] : [];
	});
}

/** Every route a member owns, oldest first, whole rows: what their data export holds. */
export async function listOwnRoutes(deps: Deps, ownerId: number): Promise<RouteRow[]> {
	return deps.db.select().from(routes).where(eq(routes.ownerId, ownerId)).orderBy(asc(routes.id));
}
