// A member copies a route they can see into a private route of their own.

import { AppError } from '../../core/errors';
import { truncateText } from '../../core/text';
import { MAX_ROUTE_NAME } from '../contract';
import { type Deps, findRoute, getVisibleRoute, type RouteWithOwner, type Viewer } from './access';
import { newLinkToken } from './saving';
import { routes } from './tables';

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
