import { describe, expect, it } from 'vitest';
import { chooseVisibleMarkers, type MarkerBox } from '../../../src/lib/routes/render';

/** Markers every `gap` pixels along a straight line, each label 20 × 16 px. */
const line = (count: number, gap: number): MarkerBox[] =>
	Array.from({ length: count }, (_, i) => ({ x: (i + 1) * gap, y: 100, width: 20, height: 16 }));

const shownLabels = (visible: boolean[]) => visible.flatMap((shown, i) => (shown ? [i + 1] : []));

describe('distance markers thinned by zoom', () => {
	it('shows every marker when they are far apart (zoomed in)', () => {
		expect(shownLabels(chooseVisibleMarkers(line(6, 40)))).toEqual([1, 2, 3, 4, 5, 6]);
	});

	it('keeps every 2nd or 5th marker as they crowd together (zoomed out)', () => {
		expect(shownLabels(chooseVisibleMarkers(line(10, 15)))).toEqual([2, 4, 6, 8, 10]);
		expect(shownLabels(chooseVisibleMarkers(line(20, 6)))).toEqual([5, 10, 15, 20]);
	});

	it('never lets two shown labels overlap, even where the route comes back on itself', () => {
		const outAndBack: MarkerBox[] = [
			...line(5, 40),
			...line(5, 40)
				.reverse()
				.map((box) => ({ ...box, y: 104 })),
		];
		const visible = chooseVisibleMarkers(outAndBack);
		const shown = outAndBack.filter((_, i) => visible[i]);
		for (const [i, a] of shown.entries()) {
			for (const b of shown.slice(i + 1)) {
				const apart =
					Math.abs(a.x - b.x) * 2 >= a.width + b.width || Math.abs(a.y - b.y) * 2 >= a.height + b.height;
				expect(apart).toBe(true);
			}
		}
		expect(shown.length).toBeGreaterThan(0);
	});
});
