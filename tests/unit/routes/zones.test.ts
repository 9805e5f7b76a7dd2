import polyline from '@mapbox/polyline';
import { describe, expect, it } from 'vitest';
import type { RouteCue } from '../../../src/lib/routes/contract';
import { hideRouteInZones, type RoutePlaces } from '../../../src/lib/routes/zones';
import { haversineM } from '../../../src/lib/workout-files/geo';

/** Eleven points due north from `start`, 100 m apart, walking then riding from the sixth. */
function routeFrom(start: { lat: number; lng: number }): RoutePlaces {
	const step = 100 / 111_195;
	const path = Array.from({ length: 11 }, (_, i): [number, number] => [start.lat + step * i, start.lng]);
	const cue = (i: number, instructions: string): RouteCue => ({
		instructions,
		lat: path[i][0],
		lng: path[i][1],
		distance: i * 100,
		isCustomNote: false,
	});
	return {
		path: polyline.encode(path, 6),
		pointCount: path.length,
		elevations: path.map((_, i) => 200 + i),
		travelModes: [
			{ start: 0, mode: 'WALKING' },
			{ start: 1, mode: 'RUNNING' },
			{ start: 5, mode: 'BICYCLING' },
		],
		segments: [
			{
				segmentId: 'a',
				points: path.slice(0, 6).map(([lat, lng]) => ({ lat, lng })),
				distance: 500,
				notes: [],
				travelMode: 'WALKING',
			},
			{
				segmentId: 'b',
				points: path.slice(5).map(([lat, lng]) => ({ lat, lng })),
				distance: 500,
				notes: [],
				travelMode: 'BICYCLING',
			},
		],
		cues: [cue(0, 'Leave home'), cue(4, 'Turn at the gate'), cue(9, 'Arrive')],
		markers: [{ lat: path[1][0], lng: path[1][1], text: 'Our door', icon_id: 1 }],
		startLat: path[0][0],
		startLng: path[0][1],
	};
}

const home = { lat: 46.05, lng: 14.5 };
const zone = { lat: home.lat, lng: home.lng, radiusM: 250 };

describe('a route as others see it, without what lies in the owner’s privacy zones', () => {
	it('leaves the route untouched without zones, or when none of it is inside one', () => {
		const route = routeFrom(home);
		expect(hideRouteInZones(route, [])).toBe(route);
		expect(hideRouteInZones(route, [{ lat: home.lat - 0.1, lng: home.lng, radiusM: 300 }])).toBe(route);
	});

	it('drops the points, heights, cues, markers and pieces inside, and starts at the first point outside', () => {
		const seen = hideRouteInZones(routeFrom(home), [zone]) as RoutePlaces;
		const path = polyline.decode(seen.path, 6);
		// Points 0, 1 and 2 (0, 100 and 200 m from home) lie inside the 250 m circle.
		expect(path).toHaveLength(8);
		expect(seen.pointCount).toBe(8);
		for (const [lat, lng] of path) expect(haversineM(home.lat, home.lng, lat, lng)).toBeGreaterThan(250);
		expect([seen.startLat, seen.startLng]).toEqual(path[0]);
		expect(seen.elevations).toEqual([203, 204, 205, 206, 207, 208, 209, 210]);
		// Point 5 starts the ride: it is the third point of the new line.
		expect(seen.travelModes).toEqual([
			{ start: 0, mode: 'RUNNING' },
			{ start: 2, mode: 'BICYCLING' },
		]);
		expect(seen.cues.map((cue) => [cue.instructions, Math.round(cue.distance)])).toEqual([
			['Turn at the gate', 100],
			['Arrive', 600],
		]);
		expect(seen.markers).toEqual([]);
		expect(seen.segments.map((segment) => segment.points.length)).toEqual([3, 6]);
	});

	it('keeps nothing of a route wholly inside a zone', () => {
		expect(hideRouteInZones(routeFrom(home), [{ ...zone, radiusM: 1500 }])).toBeNull();
	});
});
