import polyline from '@mapbox/polyline';
import { isInAnyZone, type PrivacyZone } from '../workouts/privacy-zones';
import type { RouteCue, RouteMarker, RouteSegment, TravelModeRun } from './contract';
import { cumulativeDistances } from './geo';

/** The parts of a stored route that say where it goes. */
export type RoutePlaces = {
	path: string;
	pointCount: number;
	elevations: (number | null)[] | null;
	travelModes: TravelModeRun[];
	segments: RouteSegment[];
	cues: RouteCue[];
	markers: RouteMarker[];
	startLat: number;
	startLng: number;
};

/**
 * A route as anyone but its owner may see it: every point, height, cue, marker and planner piece inside
 * one of the owner's privacy zones left out, the start moved to the first point outside them, and cue
 * distances counted from there, so that nothing measures the hidden part. Null when the whole line lies
 * inside the zones: such a route is its owner's alone. The total distance stays, as a workout's does.
 * Routes carry no hidden ends: they are plans, and the zones are what keeps a home out of them.
 */
export function hideRouteInZones<T extends RoutePlaces>(route: T, zones: readonly PrivacyZone[]): T | null {
	if (zones.length === 0 || route.path === '') return route;
	const path = polyline.decode(route.path, 6);
	const visible = path.map(([lat, lng]) => !isInAnyZone(lat, lng, zones));
	if (visible.every(Boolean)) return route;
	const first = visible.indexOf(true);
	if (first < 0) return null;
	const kept = path.flatMap((point, i) => (visible[i] ? [point] : []));
	// Index of each kept point in the new line, for the travel-mode runs that start at old indices.
	const newIndex: number[] = [];
	let count = 0;
	for (let i = 0; i < path.length; i++) {
		newIndex.push(count);
		if (visible[i]) count++;
	}
	const hiddenBefore = cumulativeDistances(path)[first];
	const outside = (place: { lat: number; lng: number }) => !isInAnyZone(place.lat, place.lng, zones);
	return {
		...route,
		path: polyline.encode(kept, 6),
		pointCount: kept.length,
		elevations: route.elevations ? route.elevations.filter((_, i) => visible[i]) : route.elevations,
		travelModes: route.travelModes
			.map((run) => ({ ...run, start: newIndex[Math.min(run.start, path.length - 1)] ?? 0 }))
			.filter((run, i, runs) => i === runs.length - 1 || runs[i + 1].start > run.start),
		segments: route.segments.flatMap((segment) => {
			const points = segment.points.filter(outside);
			if (points.length === 0) return [];
			return [{ ...segment, points, notes: (segment.notes ?? []).filter((note) => outside(note.point)) }];
		}),
		cues: route.cues
			.filter(outside)
			.map((cue) => ({ ...cue, distance: Math.max(0, cue.distance - hiddenBefore) })),
		markers: route.markers.filter(outside),
		startLat: kept[0][0],
		startLng: kept[0][1],
	};
}
