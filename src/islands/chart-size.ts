import type uPlot from 'uplot';

/**
 * Keeps a chart as wide as its box, following the box as the window or the layout changes. The
 * returned clean-up stops following and destroys the chart, for an effect to return.
 */
export function keepChartSized(
	chart: uPlot,
	box: HTMLElement,
	size: () => { width: number; height: number },
): () => void {
	const resize = new ResizeObserver(() => chart.setSize(size()));
	resize.observe(box);
	return () => {
		resize.disconnect();
		chart.destroy();
	};
}

/**
 * Runs `draw` once the box comes near the screen, so a page of charts draws only those a member
 * can see as it loads (each in a task of its own) and the rest as they scroll. The returned clean-up
 * stops waiting, or undoes what `draw` returned, for an effect to return.
 */
export function drawWhenVisible(box: HTMLElement, draw: () => () => void): () => void {
	let undo: (() => void) | undefined;
	const watch = new IntersectionObserver(
		(entries) => {
			if (undo || !entries.some((entry) => entry.isIntersecting)) return;
			watch.disconnect();
			undo = draw();
		},
		{ rootMargin: '200px 0px' },
	);
	watch.observe(box);
	return () => {
		watch.disconnect();
		undo?.();
	};
}
