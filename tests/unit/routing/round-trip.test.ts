import { describe, expect, it } from 'vitest';
import { RoutingEngine } from '../../../src/lib/routing/engine.ts';
import { measureDistance } from '../../../src/lib/routing/geo.ts';
import { decodePolyline } from '../../../src/lib/routing/polyline.ts';
import { measureOverlap, planRoundTrips } from '../../../src/lib/routing/round-trip.ts';
import { loadTestRegion } from './region-cache.ts';

// The middle of the bundled Harrisburg extract: streets in every direction.
const START = { lat: 40.2669, lon: -76.8023 };

describe('round trips', () => {
	it('offers three loops from the start within 10 % of the distance, heading different ways', async () => {
		const engine = new RoutingEngine({ regions: [await loadTestRegion('harrisburg.osm.pbf')] });
		for (const [costing, distance] of [
			['pedestrian', 5000],
			['bicycle', 12000],
		] as const) {
			const { trips } = planRoundTrips(engine, { location: START, costing, distance });
			expect(trips).toHaveLength(3);
			for (const { trip, length, overlap_percent } of trips) {
				expect(Math.abs(length - distance) / distance).toBeLessThanOrEqual(0.1);
				expect(trip.summary.length * 1000).toBeCloseTo(length, -1);
				const points = trip.legs.flatMap((leg) => decodePolyline(leg.shape, 6));
				const [first, last] = [points[0], points.at(-1) ?? points[0]];
				expect(measureDistance(first[0], first[1], last[0], last[1])).toBeLessThan(1);
				expect(overlap_percent).toBeGreaterThanOrEqual(0);
				expect(overlap_percent).toBeLessThan(100);
			}
			expect(new Set(trips.map((t) => t.bearing)).size).toBe(3);
			// Least repeated way first.
			const overlaps = trips.map((t) => t.overlap_percent);
			expect([...overlaps].sort((a, b) => a - b)).toEqual(overlaps);
		}
	});

	it('counts ground covered twice, in either direction, as overlap', () => {
		const out = '_p~iF~ps|U_ulLnnqC';
		const trip = {
			legs: [{ shape: out }, { shape: out }],
		} as unknown as Parameters<typeof measureOverlap>[0];
		expect(measureOverlap(trip)).toBeCloseTo(0.5, 5);
	});
});
