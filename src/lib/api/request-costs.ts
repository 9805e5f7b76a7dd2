import { FEED_PAGE_SIZE, MAX_SOCIAL_PAGE_SIZE } from '../social/contract';

/** What one call costs of the caller's request budget; `query` reads the raw, unchecked query. */
type Cost = number | ((query: (name: string) => string | undefined) => number);

/**
 * The reads that cost the server far more than most calls, priced in the points of the API budget
 * (a plain call is 1), so one member cannot take more than their share by polling them inside the
 * budget (issue 36: ten members polling the feed slowed every other call). Keyed by GET route as
 * registered under /api, without the trailing slash. The prices follow the work each one does:
 * - the home feed pages through the member's and friends' stories and their objects: a quarter of a
 *   point a story (a 40-story page is 10); one story or its likes and comments are a plain read, as
 *   the feed page fetches those one story at a time;
 * - stats, calendar, lifetime and records add up a member's whole history: 5;
 * - route search (text, radius, near a place) scans and ranks routes: 5;
 * - one route (or a batch of them) carries its whole line and elevation: 3;
 * - a GPX, FIT or TCX download is built point by point from the stored track (or reads the whole
 *   original file): 20.
 */
const READ_COSTS: Record<string, Cost> = {
	'/v7.1/activity_story': (query) => {
		if (query('parent_story_id') !== undefined || query('object_id') !== undefined) return 1;
		const asked = Number(query('limit'));
		const limit =
			Number.isInteger(asked) && asked >= 1 && asked <= MAX_SOCIAL_PAGE_SIZE ? asked : FEED_PAGE_SIZE;
		return Math.ceil(limit / 4);
	},
	'/v7.1/workout_stats': 5,
	'/v7.1/workout_stats/zone_weeks': 5,
	'/v7.1/workout_calendar': 5,
	'/v7.1/workout_lifetime': 5,
	'/v7.1/personal_records': 5,
	'/v7.1/user_stats/:id': 5,
	'/v7.1/route': 5,
	'/v7.1/route/:id': 3,
	'/v7.1/route/:id/gpx': 20,
	'/v7.1/route/:id/fit': 20,
	'/v7.1/workout/:id/export': 20,
};

/** The GET routes that are priced above one point, for the test that each still names a real route. */
export const PRICED_READS = Object.keys(READ_COSTS);

/**
 * The points a call costs: the dearest of the priced routes it matched (`patterns`, as Hono
 * registered them under /api), or 1.
 */
export function requestCost(
	method: string,
	patterns: readonly string[],
	query: (name: string) => string | undefined,
): number {
	if (method !== 'GET' && method !== 'HEAD') return 1;
	let cost = 1;
	for (const pattern of patterns) {
		const price = READ_COSTS[pattern.replace(/^\/api/, '').replace(/\/$/, '')];
		if (price === undefined) continue;
		cost = Math.max(cost, typeof price === 'number' ? price : price(query));
	}
	return cost;
}
