/**
 * A workout chart's line as the server draws it, so the page shows every chart at its first paint; the
 * charts' island replaces it with the interactive chart once its script has run. On a phone that script
 * comes after the map's and the page's own, a second or more into a long recording's page.
 */

/** The path's box: 1000 × 1000, stretched to the plot's size; the line keeps its width while stretched. */
export const PREVIEW_VIEW_BOX = '0 0 1000 1000';

/** Columns across the box: each keeps its lowest and highest value, so a spike survives the thinning. */
const COLUMNS = 300;

/** Room above and below the line, as a share of the value range (the page's styles place the labels by it). */
const MARGIN = 0.05;

export type ChartPreview = {
	/** SVG path data; a gap in the recording is a gap in the line. */
	path: string;
	/** The values drawn nearest the top and the bottom of the box (the highest, or with `invert` the lowest, first). */
	top: number;
	bottom: number;
	/** The x values at the left and the right edge. */
	first: number;
	last: number;
};

/** Null when the channel has no value to draw. `invert` puts small values at the top, as pace reads. */
export function chartPreview(
	x: readonly number[],
	values: readonly (number | null)[],
	{ invert = false }: { invert?: boolean } = {},
): ChartPreview | null {
	const count = Math.min(x.length, values.length);
	let low = Number.POSITIVE_INFINITY;
	let high = Number.NEGATIVE_INFINITY;
	for (let i = 0; i < count; i++) {
		const value = values[i];
		if (value === null || !Number.isFinite(value)) continue;
		if (value < low) low = value;
		if (value > high) high = value;
	}
	if (low > high || count < 2) return null;
	const first = x[0];
	const last = x[count - 1];
	const span = last - first || 1;
	const room = (high - low || Math.abs(high) || 1) * MARGIN;
	const [top, bottom] = invert ? [low, high] : [high, low];
	const [edgeTop, edgeBottom] = invert ? [low - room, high + room] : [high + room, low - room];
	const toX = (value: number) => Math.round(((value - first) / span) * 1000);
	const toY = (value: number) => Math.round(((value - edgeTop) / (edgeBottom - edgeTop)) * 1000);

	const parts: string[] = [];
	let drawing = false;
	const add = (i: number) => {
		parts.push(`${drawing ? '' : 'M'}${toX(x[i])} ${toY(values[i] as number)}`);
		drawing = true;
	};
	let column = -1;
	let lowest = -1;
	let highest = -1;
	const flush = () => {
		if (lowest < 0) return;
		const [before, after] = lowest <= highest ? [lowest, highest] : [highest, lowest];
		add(before);
		if (after !== before) add(after);
		lowest = -1;
		highest = -1;
	};
	for (let i = 0; i < count; i++) {
		const value = values[i];
		if (value === null || !Number.isFinite(value)) {
			flush();
			drawing = false;
			continue;
		}
		const at = Math.min(COLUMNS - 1, Math.floor(((x[i] - first) / span) * COLUMNS));
		if (at !== column) {
			flush();
			column = at;
		}
		if (lowest < 0 || value < (values[lowest] as number)) lowest = i;
		if (highest < 0 || value > (values[highest] as number)) highest = i;
	}
	flush();
	return { path: parts.join(' '), top, bottom, first, last };
}
