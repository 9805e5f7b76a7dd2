import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { measureDistance, measureStep } from '../../../src/lib/routing/geo.ts';

describe('measureStep', () => {
	it('stays within 0.1% of the great-circle distance for steps up to 20 km below 70° latitude', () => {
		fc.assert(
			fc.property(
				fc.double({ min: -70, max: 70, noNaN: true }),
				fc.double({ min: -179, max: 179, noNaN: true }),
				fc.double({ min: -0.12, max: 0.12, noNaN: true }),
				fc.double({ min: -0.12, max: 0.12, noNaN: true }),
				(lat, lon, dLat, dLon) => {
					const exact = measureDistance(lat, lon, lat + dLat, lon + dLon);
					fc.pre(exact > 1 && exact < 20_000);
					expect(Math.abs(measureStep(lat, lon, lat + dLat, lon + dLon) - exact) / exact).toBeLessThan(0.001);
				},
			),
			{ seed: 3, numRuns: 2000 },
		);
	});
});
