import { describe, expect, it } from 'vitest';
import { countPeriods, PERIOD_STEPS, periodTicks } from '../../../src/lib/stats/period-axis';

describe('the period axis of the stats charts', () => {
	it('labels a single year once, however finely the chart would split its axis', () => {
		// One bar at 0 on an axis from -0.5 to 0.5: the chart's own splits were 0.1 apart, each labelled "2026".
		expect(periodTicks(-0.5, 0.5, 0.1, 1)).toEqual([0]);
		expect(periodTicks(-0.5, 0.5, 1, 1)).toEqual([0]);
	});

	it('labels each of ten years once, and thins by whole steps when they do not fit', () => {
		expect(periodTicks(-0.5, 9.5, 1, 10)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
		expect(periodTicks(-0.5, 9.5, 3, 10)).toEqual([0, 3, 6, 9]);
		expect(periodTicks(-0.5, 51.5, 4, 52)).toHaveLength(13);
		expect(PERIOD_STEPS.every((step) => Number.isInteger(step) && step >= 1)).toBe(true);
	});

	it('counts one period in the singular', () => {
		expect(countPeriods(1)).toBe('1 period');
		expect(countPeriods(12)).toBe('12 periods');
	});
});
