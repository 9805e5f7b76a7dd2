import { randomBytes } from 'node:crypto';
import polyline from '@mapbox/polyline';
import { and, asc, desc, eq, getTableColumns, inArray, or, type SQL, sql } from 'drizzle-orm';
import { locationPrivacyOfMany } from '../../account/server/location-privacy';
import { privacyZones } from '../../account/server/tables';
import { users } from '../../auth/server/tables';
import { AppError, versionRequired } from '../../core/errors';
import type { AppDeps, Db } from '../../core/server/deps';
import { attachmentDisposition } from '../../core/server/downloads';
import { truncateText } from '../../core/text';
import { notBlockedWith, relationBetween } from '../../social/server/relations';
import { friendships } from '../../social/server/tables';
import {
	ActivityTypeId,
	computeWorkoutElevationChange,
	isWorkoutFileError,
	type NormalisedWorkout,
	simplifyOffroadSegment,
	writeFitCourse,
	writeGpx,
} from '../../workout-files';
import { simplifyDouglasPeucker } from '../../workout-files/route-tools';
import { sharedParsePool, uploadRefusal } from '../../workout-files/server/parse-pool';
import {
	CUSTOM_NOTE_ICON_ID,
	DEFAULT_SEARCH_RADIUS_M,
	firstWord,
	MAX_DISTANCE_AT_LEAST_M,
	MAX_ROUTE_NAME,
	MAX_ROUTE_POINTS,
	MY_ROUTES_TEXT_SEARCH_PAGE_SIZE,
	parseNotesString,
	ROUTE_SEARCH_PAGE_SIZE,
	type RouteCue,
	type RouteListQuery,
	type RouteOrder,
	RoutePrivacy,
	type RouteSaveInput,
	type RouteUpdateInput,
	type TravelModeRun,
} from '../contract';
import { boundingBox, cumulativeDistances, nearestPointIndex, summariseElevation } from '../geo';
import { canEdit, canView } from '../policy';
import { hideRouteInZones } from '../zones';
import demoRoutes from './demo/demo-routes.json' with { type: 'json' };
import type { DemoRoute } from './demo/types';
import { routeBookmarks, routes } from './tables';

export type RouteRow = typeof routes.$inferSelect;
/** A route with what pages and the API show about its owner. */
export type RouteWithOwner = RouteRow & { ownerDisplayName: string; ownerUsername: string };
type Viewer = { id: number } | null;
type Deps = Pick<AppDeps, 'db' | 'clock'>;

const ownerColumns = { ownerDisplayName: users.displayName, ownerUsername: users.username };

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
const EMPTY_HEAVY_COLUMNS = {
	path: '',
	elevations: null,
	segments: [],
	cues: [],
	markers: [],
	travelModes: [],
};

export function newLinkToken(): string {
	return randomBytes(32).toString('base64url');
}

/**
 * The one rule for every way privacy changes (a save, the privacy toggle): a route that becomes
 * link-only gets a new link token, so a link handed out before it left link-only stays dead.
 */
function linkTokenForPrivacyChange(from: number, to: number): { linkToken?: string } {
	return to === RoutePrivacy.accessible && from !== RoutePrivacy.accessible
		? { linkToken: newLinkToken() }
		: {};
}

/** Everything stored about a route that follows from the save payload. */
export function deriveRoute(input: RouteSaveInput) {
	const ordered = input.points
		.map((point, index) => ({ point, index }))
		.sort((a, b) => (a.point.order ?? a.index) - (b.point.order ?? b.index) || a.index - b.index)
		.map(({ point }) => point);
	const path = ordered.map((point) => [point.lat, point.lng] as [number, number]);
	const distances = cumulativeDistances(path);
	const elevations = ordered.map((point) => point.ele ?? null);
	const hasElevation = elevations.some((value) => value !== null);
	const elevation = summariseElevation(elevations);
	const travelModes: TravelModeRun[] = [];
	ordered.forEach((point, index) => {
		const mode = point.travel_mode ?? travelModes.at(-1)?.mode ?? 'WALKING';
		if (travelModes.at(-1)?.mode !== mode) travelModes.push({ start: index, mode });
	});
	let cues: RouteCue[];
	try {
		cues = parseNotesString(input.notes);
	} catch (error) {
		throw new AppError('validation_failed', 'The notes are not valid', {
			failures: [{ field: 'notes', message: (error as Error).message }],
		});
	}
	for (const marker of input.markers) {
		if (marker.icon_id !== CUSTOM_NOTE_ICON_ID) continue;
		const at = nearestPointIndex(path, marker.lat, marker.lng);
		cues.push({
			instructions: marker.text,
			lat: marker.lat,
			lng: marker.lng,
			distance: Math.round(distances[at] * 100) / 100,
			isCustomNote: true,
		});
	}
	cues.sort((a, b) => a.distance - b.distance);
	return {
		name: input.name,
		description: input.description,
		activityTypeId: input.activity_type,
		privacy: input.privacy,
		distanceM: Math.round(distances[distances.length - 1] * 100) / 100,
		ascentM: elevation.ascentM,
		descentM: elevation.descentM,
		minElevationM: elevation.minM,
		maxElevationM: elevation.maxM,
		path: polyline.encode(path, 6),
		pointCount: path.length,
		elevations: hasElevation ? elevations : null,
		travelModes,
		segments: input.segments,
		cues,
		markers: input.markers,
		startLat: path[0][0],
		startLng: path[0][1],
		city: input.city,
		region: input.state,
		country: input.country.toUpperCase(),
	};
}

export async function createRoute(
	deps: Deps,
	viewer: Viewer,
	input: RouteSaveInput,
	/** A climb measured on more than the saved points (a file's every height and segment), kept instead. */
	climb?: { ascentM: number; descentM: number },
): Promise<RouteWithOwner> {
	if (!viewer) throw new AppError('unauthenticated', 'Sign in to save a route');
	const now = deps.clock();
	const [row] = await deps.db
		.insert(routes)
		.values({
			...deriveRoute(input),
			...(climb ?? {}),
			ownerId: viewer.id,
			linkToken: newLinkToken(),
			createdAt: now,
			updatedAt: now,
		})
		.returning({ id: routes.id });
	return (await findRoute(deps.db, row.id)) as RouteWithOwner;
}

async function findRoute(db: Db, id: number): Promise<RouteWithOwner | null> {
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

const notFound = () => new AppError('not_found', 'No such route');

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

async function getOwnRoute(deps: Deps, viewer: Viewer, id: number): Promise<RouteWithOwner> {
	if (!viewer) throw new AppError('unauthenticated', 'Sign in to change a route');
	const route = await findRoute(deps.db, id);
	// Someone else's route answers 404 whether or not they could see it: no hint that it exists.
	if (!route || !canEdit(viewer, route)) throw notFound();
	return route;
}

export type UpdateOutcome = { ok: true; route: RouteWithOwner } | { ok: false; current: RouteWithOwner };

/**
 * Replaces a route, only if nobody saved it since the expected version (If-Match or the body's
 * `version`), which the owner must send; otherwise the caller gets the server copy to merge.
 */
export async function updateRoute(
	deps: Deps,
	viewer: Viewer,
	id: number,
	update: RouteUpdateInput,
	expectedVersion: number | null,
): Promise<UpdateOutcome> {
	const current = await getOwnRoute(deps, viewer, id);
	if (expectedVersion === null) throw versionRequired('route');
	const input: RouteSaveInput = {
		...update,
		privacy: update.privacy ?? (current.privacy as RouteSaveInput['privacy']),
		activity_type: update.activity_type ?? current.activityTypeId,
	};
	const conditions = [
		eq(routes.id, id),
		eq(routes.ownerId, current.ownerId),
		eq(routes.version, expectedVersion),
	];
	const updated = await deps.db
		.update(routes)
		.set({
			...deriveRoute(input),
			...linkTokenForPrivacyChange(current.privacy, input.privacy),
			version: sql`${routes.version} + 1`,
			updatedAt: deps.clock(),
		})
		.where(and(...conditions))
		.returning({ id: routes.id });
	const fresh = (await findRoute(deps.db, id)) as RouteWithOwner;
	if (updated.length === 0) return { ok: false, current: fresh };
	return { ok: true, route: fresh };
}

export async function deleteRoute(deps: Deps, viewer: Viewer, id: number): Promise<void> {
	const route = await getOwnRoute(deps, viewer, id);
	await deps.db.delete(routes).where(and(eq(routes.id, id), eq(routes.ownerId, route.ownerId)));
}

/** The privacy toggle (content type 1 = route). */
export async function setRoutePrivacy(
	deps: Deps,
	viewer: Viewer,
	id: number,
	privacy: number,
): Promise<RouteWithOwner> {
	const route = await getOwnRoute(deps, viewer, id);
	if (route.privacy !== privacy) {
		await deps.db
			.update(routes)
			.set({
				privacy,
				version: sql`${routes.version} + 1`,
				updatedAt: deps.clock(),
				...linkTokenForPrivacyChange(route.privacy, privacy),
			})
			.where(eq(routes.id, id));
	}
	return (await findRoute(deps.db, id)) as RouteWithOwner;
}

/** Issues a new link token; links handed out before stop working. */
export async function rotateLinkToken(deps: Deps, viewer: Viewer, id: number): Promise<RouteWithOwner> {
	await getOwnRoute(deps, viewer, id);
	await deps.db
		.update(routes)
		.set({ linkToken: newLinkToken(), updatedAt: deps.clock() })
		.where(eq(routes.id, id));
	return (await findRoute(deps.db, id)) as RouteWithOwner;
}

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

// ---------------------------------------------------------------------------------------------
// Bookmarks

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

// ---------------------------------------------------------------------------------------------
// GPX

/** Every route a member owns, oldest first, whole rows: what their data export holds. */
export async function listOwnRoutes(deps: Deps, ownerId: number): Promise<RouteRow[]> {
	return deps.db.select().from(routes).where(eq(routes.ownerId, ownerId)).orderBy(asc(routes.id));
}

export function decodePath(route: Pick<RouteRow, 'path'>): [number, number][] {
	return polyline.decode(route.path, 6);
}

const FILE_ACTIVITY_TYPES = new Set<number>(Object.values(ActivityTypeId));

/** An ASCII file name for a route: its name as a slug and its id, never anything a header or a path could misread. */
export function routeFileName(route: Pick<RouteRow, 'id' | 'name'>, extension: RouteExportFormat): string {
	const slug = route.name
		.normalize('NFKD')
		// Accents go (é → e) rather than becoming dashes.
		.replace(/[\u0300-\u036f]/g, '')
		.replace(/[^A-Za-z0-9]+/g, '-')
		.replace(/^-+|-+$/g, '')
		.slice(0, 60);
	return `${slug || 'route'}-${route.id}.${extension}`;
}

/** A route as GPX 1.1 (a track, custom notes as waypoints), written by the workout-files writer. */
export function routeToGpx(route: RouteRow): { fileName: string; body: string } {
	const path = decodePath(route);
	const workout: NormalisedWorkout = {
		format: 'gpx',
		container: 'none',
		activityType: (FILE_ACTIVITY_TYPES.has(route.activityTypeId)
			? route.activityTypeId
			: ActivityTypeId.generic) as NormalisedWorkout['activityType'],
		name: route.name,
		segmentStarts: [0],
		points: path.map(([lat, lng], i) => {
			const elevation = route.elevations?.[i];
			return elevation === null || elevation === undefined ? { lat, lng } : { lat, lng, elevation };
		}),
		laps: [],
		waypoints: route.cues
			.filter((cue) => cue.isCustomNote)
			.map((cue) => ({ lat: cue.lat, lng: cue.lng, name: cue.instructions })),
		deviceTotals: {},
		warnings: [],
	};
	return { fileName: routeFileName(route, 'gpx'), body: writeGpx(workout) };
}

/**
 * A route as a FIT course for GPS devices: every cue becomes a course point, and the records are
 * timed from the route's creation at a nominal pace for its activity.
 */
export function routeToFit(route: RouteRow): { fileName: string; body: Uint8Array<ArrayBuffer> } {
	const path = decodePath(route);
	const body = writeFitCourse({
		name: route.name,
		activityType: route.activityTypeId,
		points: path.map(([lat, lng], i) => ({ lat, lng, elevation: route.elevations?.[i] ?? null })),
		cuePoints: route.cues.map((cue) => ({
			lat: cue.lat,
			lng: cue.lng,
			distance: cue.distance,
			name: cue.instructions,
		})),
		startTime: route.createdAt.getTime(),
	});
	return { fileName: routeFileName(route, 'fit'), body };
}

export const ROUTE_EXPORT_FORMATS = ['gpx', 'fit'] as const;
export type RouteExportFormat = (typeof ROUTE_EXPORT_FORMATS)[number];
const EXPORT_CONTENT_TYPES: Record<RouteExportFormat, string> = {
	gpx: 'application/gpx+xml; charset=utf-8',
	fit: 'application/vnd.ant.fit',
};

export type RouteFile = {
	fileName: string;
	contentType: string;
	body: string | Uint8Array<ArrayBuffer>;
	/** The download's header: the route's own name, with the format's extension. */
	disposition: string;
};

/** The one export path for every format, behind the same canView decision as the detail (404 otherwise). */
export async function exportRoute(
	deps: Deps,
	viewer: Viewer,
	id: number,
	token: string | null | undefined,
	format: RouteExportFormat,
): Promise<RouteFile> {
	const route = await getVisibleRoute(deps, viewer, id, token);
	const file = format === 'fit' ? routeToFit(route) : routeToGpx(route);
	return {
		...file,
		contentType: EXPORT_CONTENT_TYPES[format],
		disposition: attachmentDisposition(`${route.name} ${route.id}`, format, `route-${route.id}`),
	};
}

/** Download headers for an exported route. */
export function routeFileHeaders(file: RouteFile): Record<string, string> {
	return {
		'Content-Type': file.contentType,
		'Content-Disposition': file.disposition,
		'Cache-Control': 'private, no-store',
	};
}

// ---------------------------------------------------------------------------------------------
// Copy

/**
 * Copies a route the viewer can see (canView, so a link holder with the token too) into a new
 * private route of theirs. Only the route's shape is copied, column by column: owner, privacy,
 * link token, version and dates are the new route's own, whatever the source or the caller says.
 */
export async function copyRoute(
	deps: Deps,
	viewer: Viewer,
	id: number,
	token?: string | null,
): Promise<RouteWithOwner> {
	if (!viewer) throw new AppError('unauthenticated', 'Sign in to copy a route');
	const source = await getVisibleRoute(deps, viewer, id, token);
	const now = deps.clock();
	const [row] = await deps.db
		.insert(routes)
		.values({
			ownerId: viewer.id,
			privacy: 0,
			linkToken: newLinkToken(),
			// "Copy of " must not push the name past what the save payload accepts.
			name: truncateText(`Copy of ${source.name}`, MAX_ROUTE_NAME),
			description: source.description,
			activityTypeId: source.activityTypeId,
			distanceM: source.distanceM,
			ascentM: source.ascentM,
			descentM: source.descentM,
			minElevationM: source.minElevationM,
			maxElevationM: source.maxElevationM,
			path: source.path,
			pointCount: source.pointCount,
			elevations: source.elevations,
			travelModes: source.travelModes,
			segments: source.segments,
			cues: source.cues,
			markers: source.markers,
			startLat: source.startLat,
			startLng: source.startLng,
			city: source.city,
			region: source.region,
			country: source.country,
			createdAt: now,
			updatedAt: now,
		})
		.returning({ id: routes.id });
	return (await findRoute(deps.db, row.id)) as RouteWithOwner;
}

/** Reads a GPX (or TCX/FIT) file into a new private route of the viewer's. */
/**
 * A route file is at most the API's 1 MB body; a real route's GPX packs about 10:1, so 16 MB
 * unpacked leaves room for any route while a bomb stops after a quarter of a second on a pool thread.
 */
export const ROUTE_FILE_LIMITS = {
	maxBytes: 5 * 1024 * 1024,
	maxDecompressedBytes: 16 * 1024 * 1024,
	maxPoints: 200_000,
} as const;

export async function importRoute(
	deps: Deps,
	viewer: Viewer,
	bytes: Uint8Array,
	options: { name?: string; privacy?: number; activityType?: number },
): Promise<RouteWithOwner> {
	if (!viewer) throw new AppError('unauthenticated', 'Sign in to import a route');
	let workout: NormalisedWorkout;
	try {
		workout = await sharedParsePool().readWorkoutFile(bytes, { limits: ROUTE_FILE_LIMITS });
	} catch (error) {
		if (isWorkoutFileError(error)) throw uploadRefusal(error);
		throw error;
	}
	let points = workout.points
		.filter((point) => point.lat !== undefined && point.lng !== undefined)
		.map((point) => ({ lat: point.lat as number, lng: point.lng as number, ele: point.elevation ?? null }));
	if (points.length < 2)
		throw new AppError('unprocessable', 'This file has fewer than two positions, so it holds no route.', {
			detail: 'file_no_route',
		});
	points = simplifyOffroadSegment(points);
	for (let tolerance = 2e-4; points.length > MAX_ROUTE_POINTS; tolerance *= 2)
		points = simplifyDouglasPeucker(points, tolerance);
	const input: RouteSaveInput = {
		name: truncateText((options.name ?? workout.name ?? '').trim(), MAX_ROUTE_NAME) || 'Imported route',
		description: '',
		activity_type: options.activityType ?? workout.activityType,
		privacy: (options.privacy ?? 0) as RouteSaveInput['privacy'],
		points: points.map((point, order) => ({ ...point, order, travel_mode: 'OFFROAD' })),
		notes: '',
		markers: workout.waypoints.slice(0, 500).map((waypoint) => ({
			lat: waypoint.lat,
			lng: waypoint.lng,
			text: truncateText((waypoint.name ?? '').trim(), 500),
			icon_id: CUSTOM_NOTE_ICON_ID,
		})),
		segments: [],
		city: '',
		state: '',
		country: '',
	};
	// The climb of the file as its workout would show it (every height, each segment on its own), not of the
	// thinned points: the route page, the CLI and an upload of the same file agree.
	const hasHeights = workout.points.some((point) => point.elevation !== undefined);
	if (!hasHeights) return createRoute(deps, viewer, input);
	const { gain, loss } = computeWorkoutElevationChange(workout);
	const round = (n: number) => Math.round(n * 10) / 10;
	return createRoute(deps, viewer, input, { ascentM: round(gain), descentM: round(loss) });
}

// ---------------------------------------------------------------------------------------------
// Demo data

/**
 * Seeds the demo routes (public, friends-only and private, in Harrisburg and Andorra) for one
 * member. Safe to call twice: routes the member already has by name are left alone.
 */
export async function seedDemoRoutes(deps: Deps, ownerId: number): Promise<number[]> {
	const ids: number[] = [];
	for (const demo of demoRoutes as DemoRoute[]) {
		const existing = await deps.db
			.select({ id: routes.id })
			.from(routes)
			.where(and(eq(routes.ownerId, ownerId), eq(routes.name, demo.name)))
			.limit(1);
		if (existing[0]) {
			ids.push(existing[0].id);
			continue;
		}
		const distances = cumulativeDistances(demo.path);
		const input: RouteSaveInput = {
			name: demo.name,
			description: demo.description,
			activity_type: demo.activityType,
			privacy: demo.privacy,
			points: demo.path.map(([lat, lng], order) => ({
				lat,
				lng,
				order,
				travel_mode: demo.activityType === 11 ? 'BICYCLING' : 'WALKING',
				ele: demo.elevations[order] ?? null,
			})),
			notes: demo.cues
				.map(
					(cue) =>
						`${cue.instructions.replaceAll('~', '-')}:${cue.lat}:${cue.lng}:${Math.round(distances[cue.shapeIndex])}`,
				)
				.join('~'),
			markers: [],
			segments: [],
			city: demo.city,
			state: demo.state,
			country: demo.country,
		};
		const route = await createRoute(deps, { id: ownerId }, input);
		ids.push(route.id);
	}
	return ids;
}

// ---------------------------------------------------------------------------------------------
// Pages

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
