import 'uplot/dist/uPlot.min.css';
import { useEffect, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import { chartPreview, PREVIEW_VIEW_BOX } from '../../lib/workouts/chart-preview';
import { type ChartSeries, type PackedChartSeries, unpackChartSeries } from '../../lib/workouts/chart-series';
import { formatDuration, formatPace } from '../../lib/workouts/detail-format';
import { keepChartSized } from '../chart-size';
import { linkChart } from '../routes/chart-link';
import { $workoutCursor, $workoutLinePoint } from './WorkoutMapCursor';

export type WorkoutChartsProps = {
	series: PackedChartSeries;
	unit: 'km' | 'mi';
	name: string;
};

type Channel = {
	key: 'pace' | 'speed' | 'elevation' | 'heartRate' | 'cadence' | 'power';
	title: string;
	unitLabel: string;
	colour: string;
	/** Pace reads better with faster (smaller) values up. */
	invert?: boolean;
	/** A value in words with its unit, as the map labels the cursor's point. */
	format: (value: number) => string;
};

const INK_SOFT = '#4a5568';
const GRID = '#e2e8f0';
const SYNC_KEY = 'workout-charts';

function channelsFor(unit: 'km' | 'mi'): Channel[] {
	const whole = (label: string) => (value: number) => `${Math.round(value)} ${label}`;
	const speedLabel = unit === 'km' ? 'km/h' : 'mph';
	const heightLabel = unit === 'km' ? 'm' : 'ft';
	return [
		{
			key: 'pace',
			title: 'Pace',
			unitLabel: `min/${unit}`,
			colour: '#0b5cad',
			invert: true,
			format: (minutes) => formatPace(minutes * 60, unit),
		},
		{
			key: 'speed',
			title: 'Speed',
			unitLabel: speedLabel,
			colour: '#0b5cad',
			format: (value) => `${value.toFixed(1)} ${speedLabel}`,
		},
		{
			key: 'elevation',
			title: 'Elevation',
			unitLabel: heightLabel,
			colour: '#1a7f37',
			format: whole(heightLabel),
		},
		{ key: 'heartRate', title: 'Heart rate', unitLabel: 'bpm', colour: '#b42318', format: whole('bpm') },
		{ key: 'cadence', title: 'Cadence', unitLabel: 'rpm', colour: '#7a4cc2', format: whole('rpm') },
		{ key: 'power', title: 'Power', unitLabel: 'W', colour: '#b7791f', format: whole('W') },
	];
}

/** An axis label of the drawn-first line: whole numbers from 100 up, one decimal below. */
function axisNumber(value: number): string {
	return Math.abs(value) >= 100 ? String(Math.round(value)) : String(Math.round(value * 10) / 10);
}

/**
 * The chart as the server draws it, shown until the interactive chart is on the page (CSS hides it the
 * moment uPlot's own element is there). The plot's label names the chart; these numbers are the line's
 * highest and lowest values and the two ends of its axis.
 */
function DrawnFirst({
	channel,
	x,
	xLabel,
	values,
}: {
	channel: Channel;
	x: number[];
	xLabel: string;
	values: (number | null)[];
}) {
	const preview = useMemo(() => chartPreview(x, values, { invert: channel.invert }), [x, values, channel]);
	if (!preview) return null;
	return (
		<div className="workout-chart__first" aria-hidden="true">
			<div className="workout-chart__first-plot">
				<span className="workout-chart__first-y workout-chart__first-y--top">{axisNumber(preview.top)}</span>
				<span className="workout-chart__first-y workout-chart__first-y--bottom">
					{axisNumber(preview.bottom)}
				</span>
				<svg viewBox={PREVIEW_VIEW_BOX} preserveAspectRatio="none" focusable="false" aria-hidden="true">
					<path
						d={preview.path}
						fill="none"
						stroke={channel.colour}
						strokeWidth={2}
						strokeLinejoin="round"
						vectorEffect="non-scaling-stroke"
					/>
				</svg>
			</div>
			<span className="workout-chart__first-x">
				<span>{`${axisNumber(preview.first)} ${xLabel}`}</span>
				<span>{`${axisNumber(preview.last)} ${xLabel}`}</span>
			</span>
		</div>
	);
}

function Chart({
	channel,
	x,
	xLabel,
	values,
	series,
	readingAt,
	name,
}: {
	channel: Channel;
	x: number[];
	xLabel: string;
	values: (number | null)[];
	series: ChartSeries;
	readingAt: (index: number) => string;
	name: string;
}) {
	const stage = useRef<HTMLDivElement>(null);
	const [ready, setReady] = useState(false);
	const [reading, setReading] = useState<{ at: number; text: string } | null>(null);

	useEffect(() => {
		const box = stage.current;
		if (!box) return;
		const size = () => ({ width: Math.max(200, box.clientWidth), height: 160 });
		const chart = new uPlot(
			{
				...size(),
				scales: { x: { time: false }, y: channel.invert ? { dir: -1 } : {} },
				legend: { show: false },
				cursor: { sync: { key: SYNC_KEY }, drag: { x: false, y: false }, points: { size: 8 } },
				series: [
					{},
					{
						label: `${channel.title} (${channel.unitLabel})`,
						stroke: channel.colour,
						width: 2,
						spanGaps: false,
						points: { show: false },
					},
				],
				axes: [
					{
						stroke: INK_SOFT,
						grid: { stroke: GRID, width: 1 },
						ticks: { stroke: GRID, width: 1 },
						values: (_, splits) => splits.map((value) => `${value} ${xLabel}`),
					},
					{
						stroke: INK_SOFT,
						size: 56,
						grid: { stroke: GRID, width: 1 },
						ticks: { stroke: GRID, width: 1 },
					},
				],
				hooks: {
					setCursor: [
						(u) => {
							const i = u.cursor.idx;
							if (i === null || i === undefined || x[i] === undefined) {
								$workoutCursor.set(null);
								setReading(null);
								return;
							}
							const text = readingAt(i);
							setReading({ at: x[i], text });
							// The map draws only what this viewer may see: no position (a privacy zone), no mark.
							const lat = series.lat[i];
							const lng = series.lng[i];
							$workoutCursor.set(lat === null || lng === null ? null : { lat, lng, reading: text });
						},
					],
				},
			},
			[x, values as number[]],
			box,
		);
		setReady(true);
		const release = keepChartSized(chart, box, size);
		const unlink = linkChart(chart, box, {
			positions: () => series,
			pointer: $workoutLinePoint,
			publish: true,
		});
		return () => {
			unlink();
			release();
			$workoutCursor.set(null);
		};
	}, [channel, x, xLabel, values, series, readingAt]);

	return (
		<figure
			className="workout-chart"
			data-testid={`chart-${channel.key}`}
			data-ready={ready ? '' : undefined}
		>
			<figcaption>
				{channel.title} ({channel.unitLabel})
			</figcaption>
			{/* A picture until drawn, then a slider: the arrow keys move the charts' cursor, and so the mark on the map. */}
			<div
				ref={stage}
				className="workout-chart__plot"
				{...(ready
					? {
							role: 'slider',
							tabIndex: 0,
							'aria-label': `${channel.title} chart of ${name}; the arrow keys move along it and mark the place on the map`,
							'aria-valuemin': x[0],
							'aria-valuemax': x.at(-1),
							'aria-valuenow': reading?.at ?? x[0],
							'aria-valuetext': reading?.text ?? 'No point marked',
							'aria-orientation': 'horizontal' as const,
						}
					: { role: 'img', 'aria-label': `${channel.title} chart of ${name}` })}
			>
				{!ready && <DrawnFirst channel={channel} x={x} xLabel={xLabel} values={values} />}
			</div>
		</figure>
	);
}

/**
 * One small chart per recorded channel (pace or speed, elevation, heart rate, cadence, power) over
 * distance, or over time when the recording has no distance. The charts share one cursor, moved by
 * the mouse, by the arrow keys on a focused chart or by pointing at the track on the map; the point under
 * it is marked on the workout map with the charts' values there.
 */
export default function WorkoutCharts({ series: packed, unit, name }: WorkoutChartsProps) {
	const series = useMemo(() => unpackChartSeries(packed), [packed]);
	const byDistance = series.distance.length > 0 && (series.distance.at(-1) ?? 0) > 0;
	const x = byDistance ? series.distance : series.minutes;
	const xLabel = byDistance ? unit : 'min';
	const present = useMemo(
		() => channelsFor(unit).filter((channel) => series[channel.key] !== undefined),
		[unit, series],
	);
	const readingAt = useMemo(() => {
		const where = (i: number) => (byDistance ? `${x[i].toFixed(2)} ${unit}` : formatDuration(x[i] * 60));
		return (i: number) =>
			[
				where(i),
				...present.flatMap((channel) => {
					const value = series[channel.key]?.[i];
					return value === null || value === undefined ? [] : [channel.format(value)];
				}),
			].join(' · ');
	}, [byDistance, x, unit, present, series]);
	return (
		<div className="workout-charts" data-testid="workout-charts">
			{present.map((channel) => (
				<Chart
					key={channel.key}
					channel={channel}
					x={x}
					xLabel={xLabel}
					values={series[channel.key] as (number | null)[]}
					series={series}
					readingAt={readingAt}
					name={name}
				/>
			))}
		</div>
	);
}
