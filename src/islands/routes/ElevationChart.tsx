import 'uplot/dist/uPlot.min.css';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import uPlot from 'uplot';
import type { ElevationSeries } from '../../lib/routes/render';
import { $elevationCursor, $routeLinePoint } from '../../lib/routes/store';
import { keepChartSized } from '../chart-size';
import { linkChart } from './chart-link';

export type ElevationChartProps = {
	series: ElevationSeries;
	/** Distance unit of `series.x`. */
	unit: 'mi' | 'km';
	/** Height unit of `series.y`. */
	heightUnit: 'ft' | 'm';
	name: string;
	/** Climb, descent, lowest and highest point in words, for everyone and for screen readers. */
	summary: string;
	/** The server-drawn SVG profile: what shows without script, before the chart draws, and in print. */
	children?: ReactNode;
};

const INK_SOFT = '#4a5568';
const GRID = '#e2e8f0';

/** The chart's values at a sample in words, as the map labels the point and a screen reader reads the chart. */
function readingAt(series: ElevationSeries, index: number, unit: string, heightUnit: string): string {
	return `${series.x[index].toFixed(2)} ${unit} · ${Math.round(series.y[index])} ${heightUnit}`;
}

/**
 * Height over distance drawn by uPlot on a canvas over the space the SVG profile takes, so nothing
 * moves when it appears. Moving the cursor along it, by mouse or by the arrow keys once it has focus,
 * marks the same point on the route map with its distance and height; pointing at the line on the route
 * map moves the cursor there.
 */
export default function ElevationChart({
	series,
	unit,
	heightUnit,
	name,
	summary,
	children,
}: ElevationChartProps) {
	const stage = useRef<HTMLDivElement>(null);
	const plot = useRef<HTMLDivElement>(null);
	const [ready, setReady] = useState(false);
	const [reading, setReading] = useState<{ at: number; text: string } | null>(null);
	const summaryId = useId();
	const chartRef = useRef<uPlot | null>(null);
	// The newest series, read by the cursor hook: the chart outlives series changes (see below).
	const latest = useRef(series);
	latest.current = series;

	useEffect(() => {
		const box = stage.current;
		const target = plot.current;
		if (!box || !target) return;
		const size = () => ({ width: Math.max(200, box.clientWidth), height: Math.max(120, box.clientHeight) });
		const chart = new uPlot(
			{
				...size(),
				scales: { x: { time: false } },
				legend: { show: false },
				cursor: { drag: { x: false, y: false }, points: { size: 9 } },
				series: [
					{},
					{
						label: `Height (${heightUnit})`,
						stroke: '#0b5cad',
						width: 2,
						fill: 'rgba(11, 92, 173, 0.15)',
						points: { show: false },
					},
				],
				axes: [
					{
						stroke: INK_SOFT,
						grid: { stroke: GRID, width: 1 },
						ticks: { stroke: GRID, width: 1 },
						values: (_, splits) => splits.map((value) => `${value} ${unit}`),
					},
					{
						stroke: INK_SOFT,
						size: 64,
						grid: { stroke: GRID, width: 1 },
						ticks: { stroke: GRID, width: 1 },
						values: (_, splits) => splits.map((value) => `${value} ${heightUnit}`),
					},
				],
				hooks: {
					setCursor: [
						(u) => {
							const i = u.cursor.idx;
							const shown = latest.current;
							if (i === null || i === undefined || shown.x[i] === undefined) {
								$elevationCursor.set(null);
								setReading(null);
								return;
							}
							const text = readingAt(shown, i, unit, heightUnit);
							$elevationCursor.set({ lat: shown.lat[i], lng: shown.lng[i], reading: text });
							setReading({ at: shown.x[i], text });
						},
					],
				},
			},
			[latest.current.x, latest.current.y],
			target,
		);
		chartRef.current = chart;
		setReady(true);
		const release = keepChartSized(chart, box, size);
		const unlink = linkChart(chart, target, {
			positions: () => latest.current,
			pointer: $routeLinePoint,
			publish: false,
		});
		return () => {
			unlink();
			chartRef.current = null;
			release();
			$elevationCursor.set(null);
		};
	}, [unit, heightUnit]);

	// A new series (the planner's route after an edit) is drawn into the same chart: making the chart again
	// builds its whole DOM and canvas, which cost more than the edit itself on a long route.
	useEffect(() => {
		const chart = chartRef.current;
		if (!chart) return;
		if (chart.data[0] !== series.x || chart.data[1] !== series.y) chart.setData([series.x, series.y]);
	}, [series]);

	return (
		<figure className="elevation-chart" data-ready={ready ? '' : undefined} data-testid="elevation-chart">
			<div ref={stage} className="elevation-chart__stage">
				<div className="elevation-chart__fallback">{children}</div>
				{/* A slider once drawn: the arrow keys move its cursor, and so the mark on the map. */}
				<div
					ref={plot}
					className="elevation-chart__plot"
					role="slider"
					tabIndex={0}
					aria-label={`Elevation chart of ${name}; the arrow keys move along it and mark the place on the map`}
					aria-describedby={summaryId}
					aria-valuemin={series.x[0]}
					aria-valuemax={series.x.at(-1)}
					aria-valuenow={reading?.at ?? series.x[0]}
					aria-valuetext={reading?.text ?? 'No point marked'}
					aria-orientation="horizontal"
					hidden={!ready}
				/>
			</div>
			<figcaption id={summaryId} className="elevation-chart__summary">
				{summary}
			</figcaption>
		</figure>
	);
}
