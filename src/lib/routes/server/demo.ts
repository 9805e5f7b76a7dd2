// The demo routes a demo member starts with.

import { and, eq } from 'drizzle-orm';
import type { RouteSaveInput } from '../contract';
import { cumulativeDistances } from '../geo';
import type { Deps } from './access';
import demoRoutes from './demo/demo-routes.json' with { type: 'json' };
import type { DemoRoute } from './demo/types';
import { createRoute } from './saving';
import { routes } from './tables';

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
