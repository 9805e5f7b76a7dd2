import type { RoundTripRequest, RoundTripResponse, RouteResponse } from './contract.ts';
import type { RoutingEngine } from './engine.ts';
import { measureDistance } from './geo.ts';
import { decodePolyline } from './polyline.ts';

// Loops from a start point: two waypoints on a triangle whose size is tuned until the routed loop is within
// 10 % of the distance asked for, tried towards eight bearings; the three loops that repeat least of their
// own way are offered.

const BEARINGS = [0, 45, 90, 135, 180, 225, 270, 315];
const TOLERANCE = 0.1;
const MAX_TUNING = 6;
// A triangle's routed length is about this much longer than its straight sides.
const DETOUR_GUESS = 1.3;
const EARTH_RADIUS = 6371008.8;

interface Candidate {
	bearing: number;
	trip: RouteResponse['trip'];
	length: number;
	overlap: number;
}

function movePoint(lat: number, lon: number, bearing: number, metres: number): { lat: number; lon: number } {
	const b = (bearing * Math.PI) / 180;
	const dLat = (metres * Math.cos(b)) / EARTH_RADIUS;
	const dLon = (metres * Math.sin(b)) / (EARTH_RADIUS * Math.cos((lat * Math.PI) / 180));
	return { lat: lat + (dLat * 180) / Math.PI, lon: lon + (dLon * 180) / Math.PI };
}

/** Share of the loop's length that runs over ground it already covered, in either direction. */
export function measureOverlap(trip: RouteResponse['trip']): number {
	const seen = new Set<string>();
	let total = 0;
	let repeated = 0;
	for (const leg of trip.legs) {
		const points = decodePolyline(leg.shape, 6);
		for (let i = 1; i < points.length; i++) {
			const [a, b] = [points[i - 1], points[i]];
			const step = measureDistance(a[0], a[1], b[0], b[1]);
			if (step === 0) continue;
			const p = `${a[0].toFixed(5)},${a[1].toFixed(5)}`;
			const q = `${b[0].toFixed(5)},${b[1].toFixed(5)}`;
			const key = p < q ? `${p}|${q}` : `${q}|${p}`;
			total += step;
			if (seen.has(key)) repeated += step;
			else seen.add(key);
		}
	}
	return total > 0 ? repeated / total : 0;
}

function tryBearing(engine: RoutingEngine, request: RoundTripRequest, bearing: number): Candidate | null {
	const { lat, lon } = request.location;
	let side = request.distance / (3 * DETOUR_GUESS);
	let best: Candidate | null = null;
	for (let attempt = 0; attempt < MAX_TUNING; attempt++) {
		const first = movePoint(lat, lon, bearing - 30, side);
		const second = movePoint(lat, lon, bearing + 30, side);
		let trip: RouteResponse['trip'];
		try {
			trip = engine.route({
				locations: [request.location, first, second, request.location],
				costing: request.costing,
				avoid_highways: request.avoid_highways,
			}).trip;
		} catch {
			// Waypoints off the network or on pieces that do not connect: a smaller loop may still fit.
			side *= 0.7;
			continue;
		}
		const length = trip.summary.length * 1000;
		const candidate = { bearing, trip, length, overlap: measureOverlap(trip) };
		const error = Math.abs(length - request.distance) / request.distance;
		if (!best || error < Math.abs(best.length - request.distance) / request.distance) best = candidate;
		if (error <= TOLERANCE) break;
		side *= request.distance / Math.max(length, 1);
	}
	return best;
}

/** Up to three loops from the start within 10 % of the distance, least repeated way first. */
export function planRoundTrips(engine: RoutingEngine, request: RoundTripRequest): RoundTripResponse {
	const within = (c: Candidate) => Math.abs(c.length - request.distance) / request.distance <= TOLERANCE;
	const candidates = BEARINGS.map((bearing) => tryBearing(engine, request, bearing)).filter(
		(c): c is Candidate => c !== null && within(c),
	);
	candidates.sort(
		(a, b) =>
			a.overlap - b.overlap || Math.abs(a.length - request.distance) - Math.abs(b.length - request.distance),
	);
	// Loops heading different ways: no two chosen within 60° of each other when others are left.
	const chosen: Candidate[] = [];
	for (const candidate of candidates) {
		if (chosen.length === 3) break;
		const apart = chosen.every((c) => Math.abs(((c.bearing - candidate.bearing + 540) % 360) - 180) >= 60);
		if (apart) chosen.push(candidate);
	}
	for (const candidate of candidates) {
		if (chosen.length === 3) break;
		if (!chosen.includes(candidate)) chosen.push(candidate);
	}
	return {
		trips: chosen.map((c) => ({
			bearing: c.bearing,
			length: Math.round(c.length),
			overlap_percent: Math.round(c.overlap * 1000) / 10,
			trip: c.trip,
		})),
	};
}
