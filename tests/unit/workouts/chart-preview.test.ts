import { describe, expect, it } from 'vitest';
import { chartPreview } from '../../../src/lib/workouts/chart-preview';

/** The path's points, each as [x, y], with the index of the stroke it belongs to. */
function points(path: string): { stroke: number; x: number; y: number }[] {
	return path
		.split('M')
		.filter(Boolean)
		.flatMap((stroke, index) => {
			const numbers = stroke.trim().split(' ').map(Number);
			return Array.from({ length: numbers.length / 2 }, (_, i) => ({
				stroke: index,
				x: numbers[2 * i],
				y: numbers[2 * i + 1],
			}));
		});
}

describe('the chart line the server draws', () => {
	it('spans the box, the highest value near the top and the lowest near the bottom', () => {
		const preview = chartPreview([0, 1, 2, 3, 4], [10, 20, 15, 30, 10]);
		expect(preview).toMatchObject({ top: 30, bottom: 10, first: 0, last: 4 });
		const drawn = points(preview?.path ?? '');
		expect(drawn.map((point) => point.x)).toEqual([0, 250, 500, 750, 1000]);
		// 5 % of the range is left above and below: 30 sits at 1/22 of the height, 10 at 21/22.
		expect(drawn[3].y).toBe(Math.round(1000 / 22));
		expect(drawn[0].y).toBe(Math.round((21 * 1000) / 22));
	});

	it('puts small values at the top for pace', () => {
		const preview = chartPreview([0, 1], [4, 6], { invert: true });
		expect(preview).toMatchObject({ top: 4, bottom: 6 });
		const [fast, slow] = points(preview?.path ?? '');
		expect(fast.y).toBeLessThan(slow.y);
	});

	it('breaks the line where the recording has no value', () => {
		const drawn = points(chartPreview([0, 1, 2, 3, 4, 5], [5, 6, null, null, 7, 8])?.path ?? '');
		expect(drawn.map((point) => point.stroke)).toEqual([0, 0, 1, 1]);
	});

	it('thins a long recording to a few hundred columns and keeps a one-sample spike', () => {
		const x = Array.from({ length: 43_200 }, (_, i) => i);
		const values = x.map((i) => (i === 20_000 ? 400 : 120 + (i % 7)));
		const preview = chartPreview(x, values);
		const drawn = points(preview?.path ?? '');
		expect(drawn.length).toBeLessThanOrEqual(600);
		expect(preview?.top).toBe(400);
		expect(Math.min(...drawn.map((point) => point.y))).toBe(Math.round(1000 / 22));
	});

	it('draws nothing for a channel without values, and a flat line for a constant one', () => {
		expect(chartPreview([0, 1, 2], [null, null, null])).toBeNull();
		expect(chartPreview([0], [5])).toBeNull();
		const flat = points(chartPreview([0, 1], [90, 90])?.path ?? '');
		expect(flat[0].y).toBe(flat[1].y);
		expect(flat[0].y).toBeGreaterThan(0);
		expect(flat[0].y).toBeLessThan(1000);
	});
});
