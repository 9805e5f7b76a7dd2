import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
	ELEVATION_SMOOTHING_HALF_WINDOW,
	ELEVATION_THRESHOLD_M,
} from '../../../src/lib/workout-files/metrics';

// The climb information page states the product's figures in words; these keep the words true to the code.
const page = readFileSync('src/pages/routes/climb_information/index.astro', 'utf8').replace(/\s+/g, ' ');
const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

describe('climb information page', () => {
	it('gives the smoothing window and threshold a workout file is counted with', () => {
		const window = 2 * ELEVATION_SMOOTHING_HALF_WINDOW + 1;
		expect(page).toContain(`the ${WORDS[ELEVATION_SMOOTHING_HALF_WINDOW]} recorded before and after it`);
		expect(page).toContain(`(${WORDS[window]} in all)`);
		expect(page).toContain(`reaches ${ELEVATION_THRESHOLD_M} metres above it`);
		expect(page).toContain(`reaches ${ELEVATION_THRESHOLD_M} metres below it`);
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
