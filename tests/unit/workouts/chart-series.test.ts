import { describe, expect, it } from 'vitest';
import { type ChartSeries, packChartSeries, unpackChartSeries } from '../../../src/lib/workouts/chart-series';

describe('chart series as the page hands them to the charts', () => {
	it('come back as they went, gaps and absent channels included', () => {
		const series: ChartSeries = {
			minutes: [0, 0.5, 1.017, 1.5],
			distance: [0, 0.123, 0.25, 0.375],
			lat: [40.271234, null, 40.272, -33.9],
			lng: [-76.881234, null, -76.88, 151.2],
			pace: [null, 5.25, 4.9, 5],
			elevation: [101.5, 102, -3.2, 0],
			heartRate: [null, null, 141, 150],
		};
		const packed = packChartSeries(series);
		expect(packed.pace).toBe(',5.25,4.9,5');
		expect(packed).not.toHaveProperty('speed');
		expect(unpackChartSeries(packed)).toEqual(series);
	});

	it('keep an empty channel empty and write a number that is not finite as a gap', () => {
		const packed = packChartSeries({
			minutes: [],
			distance: [],
			lat: [],
			lng: [],
			power: [250, Number.NaN, Number.POSITIVE_INFINITY],
		});
		expect(unpackChartSeries(packed)).toEqual({
			minutes: [],
			distance: [],
			lat: [],
			lng: [],
			power: [250, null, null],
		});
	});
});
