// A member saves a route from the planner, edits or deletes it, changes its privacy or issues a
// new link: everything stored about a route follows from its save payload.

import { randomBytes } from 'node:crypto';
import polyline from '@mapbox/polyline';
import { and, eq, sql } from 'drizzle-orm';
import { AppError, versionRequired } from '../../core/errors';
import {
	CUSTOM_NOTE_ICON_ID,
	parseNotesString,
	type RouteCue,
	RoutePrivacy,
	type RouteSaveInput,
	type RouteUpdateInput,
	type TravelModeRun,
} from '../contract';
import { cumulativeDistances, nearestPointIndex, summariseElevation } from '../geo';
import { type Deps, findRoute, getOwnRoute, type RouteWithOwner, type Viewer } from './access';
import { routes } from './tables';

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

/**
 * The height of each point from the server's elevation data, null where it has none; null in
 * whole when the elevation service cannot answer. Given by the house (routing's height lookup).
 */
export type RouteHeightLookup = (
	points: readonly { lat: number; lng: number }[],
) => Promise<(number | null)[] | null>;

/**
 * The save with each point's height measured here: where the server has elevation data its
 * heights replace whatever the sender put in `ele`, and a point it has none for gets none (mixing
 * in the sender's there would add a climb at the seam of two sources). Only where the server knows
 * no height anywhere on the route do the sender's heights (a device's, say) stand; none are made up.
 */
async function withServerHeights<T extends RouteSaveInput | RouteUpdateInput>(
	input: T,
	lookup: RouteHeightLookup | null,
): Promise<T> {
	const heights = lookup ? await lookup(input.points) : null;
	if (!heights || heights.every((height) => height === null)) return input;
	return { ...input, points: input.points.map((point, index) => ({ ...point, ele: heights[index] })) };
}

export async function createRoute(
	deps: Deps,
	viewer: Viewer,
	input: RouteSaveInput,
	options: {
		/** A climb measured on more than the saved points (a file's every height and segment), kept instead. */
		climb?: { ascentM: number; descentM: number };
		/** Where the points' heights come from; without it they are the sender's. */
		heights?: RouteHeightLookup | null;
	} = {},
): Promise<RouteWithOwner> {
	if (!viewer) throw new AppError('unauthenticated', 'Sign in to save a route');
	const { climb, heights = null } = options;
	const measured = await withServerHeights(input, heights);
	const now = deps.clock();
	const [row] = await deps.db
		.insert(routes)
		.values({
			...deriveRoute(measured),
			...(climb ?? {}),
			ownerId: viewer.id,
			linkToken: newLinkToken(),
			createdAt: now,
			updatedAt: now,
		})
		.returning({ id: routes.id });
	return (await findRoute(deps.db, row.id)) as RouteWithOwner;
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
	heights: RouteHeightLookup | null = null,
): Promise<UpdateOutcome> {
	const current = await getOwnRoute(deps, viewer, id);
	if (expectedVersion === null) throw versionRequired('route');
	const input: RouteSaveInput = {
		...(await withServerHeights(update, heights)),
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
