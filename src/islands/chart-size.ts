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
