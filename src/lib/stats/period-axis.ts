import { formatWholeNumber } from '../core/numbers';
/**
 * The period axis of the stats bar charts: one bar per period at x = 0, 1, 2 …, so a label belongs only on a
 * whole index. Left to itself the chart would put ticks between bars (at 0.1, 0.2 … with one bar) and label
 * each with the nearest period: a single year read "2026" ten times.
 */

/** Steps between labelled bars the chart may choose from, fewest labels last. */
export const PERIOD_STEPS = [1, 2, 3, 4, 6, 12, 13, 26, 52, 104, 208];

/** Whole indices from `min` to `max` every `step` (at least 1), for bars at 0 … count − 1. */
export function periodTicks(min: number, max: number, step: number, count: number): number[] {
	const every = Math.max(1, Math.round(step));
	const ticks: number[] = [];
	for (let index = Math.max(0, Math.ceil(min)); index <= Math.min(count - 1, max); index++) {
		if (index % every === 0) ticks.push(index);
	}
	return ticks;
}

/** "1 period", "12 periods". */
export function countPeriods(count: number): string {
	return `${formatWholeNumber(count)} ${count === 1 ? 'period' : 'periods'}`;
}
