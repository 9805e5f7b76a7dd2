import { describe, expect, test } from 'vitest';
import { cumulativeDistances } from '../../../src/lib/routes/geo';
import { elevationSeries } from '../../../src/lib/routes/render';

/** A line due north from the equator: 1 degree of latitude is 111,194.93 m at our earth radius. */
const north = (km: number, points: number): [number, number][] =>
	Array.from({ length: points + 1 }, (_, i) => [(km / 111.19493) * (i / points), 0]);

describe('elevationSeries', () => {
	test('distance in the unit on x, feet or metres on y, with each sample’s position', () => {
		const path = north(3.218688, 2);
		const distances = cumulativeDistances(path);
		const heights = [100, 200, 150];
		expect(elevationSeries(path, distances, heights, 'km')).toEqual({
			x: [0, 1.609, 3.219],
			y: [100, 200, 150],
			lat: path.map(([lat]) => Math.round(lat * 1e6) / 1e6),
			lng: [0, 0, 0],
		});
		const imperial = elevationSeries(path, distances, heights, 'mi');
		expect(imperial?.x).toEqual([0, 1, 2]);
		expect(imperial?.y).toEqual([328.1, 656.2, 492.1]);
	});

	test('leaves out points without a height, and is null with fewer than two', () => {
		const path = north(2, 3);
		const distances = cumulativeDistances(path);
		expect(elevationSeries(path, distances, [10, null, 30, null], 'km')?.y).toEqual([10, 30]);
		expect(elevationSeries(path, distances, [10, null, null, null], 'km')).toBeNull();
		expect(elevationSeries(path, distances, null, 'km')).toBeNull();
	});

	test('a long route keeps at most maxPoints samples, its ends, its summit and its lowest dip', () => {
		const path = north(50, 9999);
		const distances = cumulativeDistances(path);
		const heights = path.map(
			(_, i) => 500 + 100 * Math.sin(i / 300) + (i === 4321 ? 900 : 0) - (i === 777 ? 600 : 0),
		);
		const series = elevationSeries(path, distances, heights, 'km', 600);
		expect(series).not.toBeNull();
		const { x, y } = series as NonNullable<typeof series>;
		expect(x.length).toBeLessThanOrEqual(602);
		expect(x.length).toBeGreaterThan(500);
		expect(x[0]).toBe(0);
		expect(x.at(-1)).toBeCloseTo(50, 2);
		expect(Math.max(...y)).toBe(Math.round(heights[4321] * 10) / 10);
		expect(Math.min(...y)).toBe(Math.round(heights[777] * 10) / 10);
		// Distances never go backwards, so the chart's x axis is sorted.
		expect(x.every((value, i) => i === 0 || value >= x[i - 1])).toBe(true);
	});
});
