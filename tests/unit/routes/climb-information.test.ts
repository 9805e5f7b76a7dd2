import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { summariseElevation } from '../../../src/lib/routes/geo';
import {
	computeElevationChange,
	ELEVATION_SMOOTHING_WEIGHTS,
	ELEVATION_THRESHOLD_M,
} from '../../../src/lib/workout-files/metrics';

// The climb information page states the product's figures in words; these keep the words true to the code.
const page = readFileSync('src/pages/routes/climb_information/index.astro', 'utf8').replace(/\s+/g, ' ');

describe('climb information page', () => {
	it('gives the smoothing weights and threshold a workout file is counted with', () => {
		const [before, self, after] = ELEVATION_SMOOTHING_WEIGHTS;
		expect(page).toContain(
			`${before} times the height before it, ${self} times itself and ${after} times the height after it`,
		);
		expect(page).toContain(`reaches ${ELEVATION_THRESHOLD_M} metres above it`);
		expect(page).toContain(`reaches ${ELEVATION_THRESHOLD_M} metres below it`);
	});

	it('counts a route the way it says: with the workout hysteresis, unsmoothed, from the points that have a height', () => {
		expect(page).toContain('counted with the same turning points as the climb of a recorded workout');
		expect(page).toContain(`a rise or drop counts once it reaches ${ELEVATION_THRESHOLD_M} metres`);
		// Noise of a couple of metres on a 60 m hill counts nothing; a summed rise of every step would say 65 m.
		const heights = [
			100, 102, 100, 103, 110, 120, 130, 140, 150, 160, 158, 160, 159, 150, 140, 130, 120, 110, 100, 101,
		];
		const withGaps = heights.flatMap((h, i) => (i % 4 === 0 ? [h, null] : [h]));
		expect(summariseElevation(withGaps)).toEqual({ ascentM: 60, descentM: 60, minM: 100, maxM: 160 });
		expect(computeElevationChange(heights, [0], { smooth: false })).toEqual({ gain: 60, loss: 60 });
		// Four points kilometres apart: a real 30 m dip between two heights stays, no average blends it away.
		expect(summariseElevation([1000, 1040, 1010, 1100])).toMatchObject({ ascentM: 130, descentM: 30 });
	});

	it('gives the number of stretches a long profile is cut into', async () => {
		const { elevationSeries } = await import('../../../src/lib/routes/render');
		const path = Array.from({ length: 2000 }, (_, i) => [40 + i * 1e-4, -76] as [number, number]);
		const heights = path.map((_, i) => (i % 2 === 0 ? 100 : 110));
		const series = elevationSeries(
			path,
			path.map((_, i) => i * 10),
			heights,
			'km',
		);
		// Each stretch keeps its lowest and highest point (and the very first or last may be added).
		const stretches = Math.floor((series?.x.length ?? 0) / 2);
		expect(page).toContain(`cut into ${stretches} stretches`);
	});
});
