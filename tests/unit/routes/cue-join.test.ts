import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseNotesString } from '../../../src/lib/routes/contract.ts';
import {
	addWaypoint,
	buildSavePayload,
	EMPTY_PLANNER,
	joinLegCues,
	type LatLng,
	legKey,
	planLegs,
} from '../../../src/lib/routes/planner.ts';
import { readRouteAnswer } from '../../../src/lib/routes/planner-store.ts';
import { RoutingEngine } from '../../../src/lib/routing/engine.ts';
import { readOsmXmlText } from '../../../src/lib/routing/osm/read.ts';
import { buildRegion } from '../../../src/lib/routing/region.ts';

// Main Street runs west–east through a crossroads with Second Street (north–south); see the fixture.
const WEST = { lat: 45.0, lng: 7.0 };
const CROSSING = { lat: 45.0, lng: 7.002 };
const EAST = { lat: 45.0, lng: 7.004 };
const NORTH = { lat: 45.002, lng: 7.002 };
const SOUTH = { lat: 44.998, lng: 7.002 };

let engine: RoutingEngine;

beforeAll(async () => {
	const xml = readFileSync(join(import.meta.dirname, '../../fixtures/routing/crossroads.osm'), 'utf8');
	engine = new RoutingEngine({
		regions: [buildRegion('crossroads', await readOsmXmlText(xml))],
		maxSnapDistance: 100,
	});
});

/** Each gap routed on its own, as the planner asks for it, and read as the planner reads the answer. */
function routeGaps(points: LatLng[], costing: 'pedestrian' | 'auto' = 'auto') {
	return points.slice(1).map((to, i) => {
		const from = points[i];
		const answer = engine.route({
			locations: [
				{ lat: from.lat, lon: from.lng },
				{ lat: to.lat, lon: to.lng },
			],
			costing,
		});
		return readRouteAnswer(answer).leg;
	});
}

describe('joining separately routed gaps into one cue sheet', () => {
	it('arrives only at the last point and turns at the point between', () => {
		const cues = joinLegCues(routeGaps([WEST, CROSSING, NORTH]));
		expect(cues.map((cue) => cue.instructions)).toEqual([
			'Drive east on Main Street.',
			'Turn left onto Second Street.',
			'You have arrived at your destination.',
		]);
		// Distances run from the route's start: about 157 m to the crossing, 222 m more to the end.
		expect(cues.map((cue) => cue.distance)).toEqual([0, expect.closeTo(157, -1), expect.closeTo(379, -1)]);
	});

	it('says continue at a point passed straight through, as one trip asked of the engine would', () => {
		const legs = routeGaps([WEST, CROSSING, EAST]);
		expect(joinLegCues(legs).map((cue) => cue.instructions)).toEqual([
			'Drive east on Main Street.',
			'Continue on Main Street.',
			'You have arrived at your destination.',
		]);
	});

	it('saves one arrival and a cue at each point between on a route of five points', () => {
		const points = [WEST, CROSSING, NORTH, CROSSING, SOUTH];
		const walk = { mode: 'WALKING', followRoads: true, avoidHighways: true } as const;
		const state = points.reduce((plan, point) => addWaypoint(plan, point, walk), EMPTY_PLANNER);
		const answers = routeGaps(points, 'pedestrian');
		const routed = new Map(
			answers.map((leg, i) => [legKey(state.waypoints[i], state.waypoints[i + 1], walk), leg]),
		);
		const payload = buildSavePayload(
			planLegs(state, routed),
			[],
			{ name: 'Five points', description: '', activity_type: 16, privacy: 0 },
			0,
		);
		const cues = parseNotesString(payload.notes);
		const arrivals = cues.filter((cue) => cue.instructions.startsWith('You have arrived'));
		expect(arrivals).toHaveLength(1);
		expect(cues.at(-1)?.instructions).toBe('You have arrived at your destination.');
		expect(cues.filter((cue) => /^(Walk|Drive|Bike) /.test(cue.instructions))).toHaveLength(1);
		expect(cues.map((cue) => cue.instructions)).toEqual([
			'Walk east on Main Street.',
			'Turn left onto Second Street.',
			'Make a left U-turn to stay on Second Street.',
			'Continue on Second Street.',
			'You have arrived at your destination.',
		]);
		// Distances grow along the route.
		const distances = cues.map((cue) => cue.distance);
		expect(distances).toEqual([...distances].sort((a, b) => a - b));
	});

	it('ends with one arrival when the last gap is off-road', () => {
		const [routed] = routeGaps([WEST, CROSSING]);
		const offRoad = { points: [CROSSING, NORTH], distance: 222, cues: [] };
		const cues = joinLegCues([routed, offRoad]);
		expect(cues.map((cue) => cue.instructions)).toEqual([
			'Drive east on Main Street.',
			'You have arrived at your destination.',
		]);
		expect(cues.at(-1)).toMatchObject({ ...NORTH, distance: Math.round(routed.distance + 222) });
	});
});
