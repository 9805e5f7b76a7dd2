import type { ReadableAtom } from 'nanostores';
import type uPlot from 'uplot';
import { keyedIndex, type LatLng, nearestIndex } from '../../lib/core/chart-cursor';

/** uPlot's setCursor also takes whether to tell the charts synced with it; its types leave that out. */
type SetCursor = (opts: { left: number; top: number }, fireHook?: boolean, publish?: boolean) => void;

/** Puts the chart's cursor on sample `index` as if the member pointed there, or takes it away (null). */
export function placeCursor(chart: uPlot, index: number | null, publish: boolean): void {
	const setCursor = chart.setCursor as SetCursor;
	if (index === null) {
		setCursor({ left: -10, top: -10 }, true, publish);
		return;
	}
	const value = chart.data[1][index];
	const left = chart.valToPos(chart.data[0][index], 'x');
	const top =
		value === null || value === undefined ? chart.over.clientHeight / 2 : chart.valToPos(value, 'y');
	setCursor({ left, top }, true, publish);
}

/**
 * Moves a chart's cursor from the keyboard while `element` has focus (see keyedIndex), and to the sample
 * nearest the point of the line the member points at on the map. `positions` are the samples' places as
 * the map draws them (null where hidden). `publish` tells the charts synced with this one of a key press.
 * Answers how to stop.
 */
export function linkChart(
	chart: uPlot,
	element: HTMLElement,
	options: {
		positions: () => { lat: readonly (number | null)[]; lng: readonly (number | null)[] };
		pointer: ReadableAtom<LatLng | null>;
		publish: boolean;
	},
): () => void {
	// Where the keys last put the cursor: uPlot snaps to the first of samples at the same x (a pause
	// over distance), from which the next key press would never get past them.
	let keyed: number | null = null;
	const onKey = (event: KeyboardEvent) => {
		const xs = chart.data[0];
		let current = chart.cursor.idx ?? null;
		if (keyed !== null && current !== null && xs[keyed] === xs[current]) current = keyed;
		const next = keyedIndex(event.key, current, xs.length);
		if (next === null) return;
		event.preventDefault();
		keyed = next;
		placeCursor(chart, next, options.publish);
	};
	const onBlur = () => {
		keyed = null;
		placeCursor(chart, null, options.publish);
	};
	element.addEventListener('keydown', onKey);
	element.addEventListener('blur', onBlur);
	const unlisten = options.pointer.listen((point) => {
		if (!point) placeCursor(chart, null, false);
		else {
			const { lat, lng } = options.positions();
			placeCursor(chart, nearestIndex(lat, lng, point), false);
		}
	});
	return () => {
		unlisten();
		element.removeEventListener('keydown', onKey);
		element.removeEventListener('blur', onBlur);
	};
}
