import { link } from '../../api/hal';
import { formatApiDateTime } from '../../core/dates';
import { encodePolyline } from '../../routing/polyline';
import {
	type FieldSet,
	formatNotesString,
	PREVIEW_LINE_MAX_POINTS,
	PREVIEW_LINE_PRECISION,
	type RoutePoint,
} from '../contract';
import { cumulativeDistances, simplifyLine } from '../geo';
import type { SavedRoute } from '../planner';
import { canEdit } from '../policy';
import { decodePath, type RouteWithOwner } from './access';
import type { BookmarkRow } from './bookmarks';

/** HAL links of the v7.1 API: a list of `{ href, id }` with the id as a string of digits. */
const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * The small line a list item carries for its thumbnail and the results map: simplified to a few
 * dozen points and encoded at 1 m precision, a couple of hundred bytes whatever the route's size.
 * '' when the row was read without its line (bookmark lists).
 */
export function routePreviewLine(route: Pick<RouteWithOwner, 'path'>): string {
	if (!route.path) return '';
	return encodePolyline(simplifyLine(decodePath(route), PREVIEW_LINE_MAX_POINTS), PREVIEW_LINE_PRECISION);
}

/**
 * A route as the v7.1 API shows it. The summary suits lists; `detailed` adds the line with
 * heights and distances; `detailed_internal` adds what the planner needs to edit (per-point order
 * and travel mode, the notes string, markers, segments, cues). Only the owner sees the link token.
 */
export function representRoute(
	route: RouteWithOwner,
	viewer: { id: number } | null,
	fieldSet: FieldSet = 'summary',
) {
	const body: Record<string, unknown> = {
		id: route.id,
		name: route.name,
		description: route.description,
		distance: round2(route.distanceM),
		total_ascent: route.ascentM,
		total_descent: route.descentM,
		min_elevation: route.minElevationM,
		max_elevation: route.maxElevationM,
		activity_type: route.activityTypeId,
		privacy: route.privacy,
		city: route.city,
		state: route.region,
		country: route.country,
		starting_location: { type: 'Point', coordinates: [route.startLng, route.startLat] },
		point_count: route.pointCount,
		version: route.version,
		created_datetime: formatApiDateTime(route.createdAt),
		updated_datetime: formatApiDateTime(route.updatedAt),
		user_display_name: route.ownerDisplayName || route.ownerUsername,
		_links: {
			self: link('route', route.id),
			user: link('user', route.ownerId),
			activity_types: link('activity_type', route.activityTypeId),
			privacy: link('privacy_option', route.privacy),
		},
	};
	if (canEdit(viewer, route)) body.share_token = route.linkToken;
	if (fieldSet === 'summary') {
		const preview = routePreviewLine(route);
		if (preview) body.preview_line = preview;
		return body;
	}
	const path = decodePath(route);
	const distances = cumulativeDistances(path);
	body.points = path.map(([lat, lng], i) => {
		const point: Record<string, number> = { lat, lng, dis: round2(distances[i]) };
		const ele = route.elevations?.[i];
		if (ele !== null && ele !== undefined) point.ele = ele;
		return point;
	});
	body.notes = route.cues;
	if (fieldSet === 'detailed') return body;
	const modes = route.travelModes;
	let run = 0;
	body.points = path.map(([lat, lng], i): RoutePoint => {
		while (run + 1 < modes.length && modes[run + 1].start <= i) run++;
		return {
			lat,
			lng,
			order: i,
			travel_mode: modes[run]?.mode ?? 'WALKING',
			ele: route.elevations?.[i] ?? null,
		};
	});
	body.notes = formatNotesString(route.cues);
	body.cues = route.cues;
	body.markers = route.markers;
	body.segments = route.segments;
	return body;
}

export function representBookmark(bookmark: BookmarkRow) {
	return {
		id: bookmark.id,
		created_datetime: formatApiDateTime(bookmark.createdAt),
		_links: {
			self: link('route_bookmark', bookmark.id),
			route: link('route', bookmark.routeId),
			user: link('user', bookmark.userId),
		},
	};
}

/** What the planner opens to edit or copy a route: the saved line with its travel modes and pieces, and its details. */
export function representForPlanner(route: RouteWithOwner, viewer: { id: number } | null): SavedRoute {
	const body = representRoute(route, viewer, 'detailed_internal') as {
		points: RoutePoint[];
		segments: SavedRoute['segments'];
	};
	return {
		name: route.name,
		description: route.description,
		activity_type: route.activityTypeId,
		privacy: route.privacy,
		version: route.version,
		points: body.points.map((point) => ({ lat: point.lat, lng: point.lng, travel_mode: point.travel_mode })),
		segments: body.segments ?? [],
	};
}
