import 'uplot/dist/uPlot.min.css';
import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import type { DailyCounts, VitalsRow } from '../../lib/analytics/contract';
import { keepChartSized } from '../chart-size';

const INK_SOFT = '#44506a';
const GRID = '#e2e8f0';
const SERIES = [
	{ key: 'pageViews', label: 'Page views', colour: '#0b5cad' },
	{ key: 'events', label: 'Events', colour: '#c2410c' },
	{ key: 'devices', label: 'Devices', colour: '#15803d' },
] as const;

/** One chart; the page's tables carry the same figures for anyone who cannot see it. */
function LineChart({
	id,
	title,
	labels,
	series,
	unit,
	bars = false,
}: {
	id: string;
	/** Bars for categories (page types), lines for days. */
	bars?: boolean;
	title: string;
	labels: string[];
	series: { label: string; colour: string; values: number[] }[];
	unit: string;
}) {
	const stage = useRef<HTMLDivElement>(null);
	const [ready, setReady] = useState(false);
	useEffect(() => {
		const box = stage.current;
		if (!box || labels.length === 0) return;
		const size = () => ({ width: Math.max(240, box.clientWidth), height: 220 });
		const paths = bars ? uPlot.paths.bars?.({ size: [0.6 / series.length, 40] }) : undefined;
		const chart = new uPlot(
			{
				...size(),
				scales: {
					x: bars ? { time: false, range: [-0.5, labels.length - 0.5] } : { time: false },
					y: { range: (_u, _min, max) => [0, Math.max(1, max)] },
				},
				cursor: { drag: { x: false, y: false } },
				series: [
					{ label: bars ? 'Page type' : 'Day', value: (_u, index) => labels[Math.round(index)] ?? '' },
					...series.map((line) =>
						bars
							? {
									label: line.label,
									stroke: line.colour,
									fill: line.colour,
									width: 0,
									paths,
									points: { show: false },
								}
							: { label: line.label, stroke: line.colour, width: 2 },
					),
				],
				axes: [
					{
						stroke: INK_SOFT,
						grid: { show: false },
						ticks: { stroke: GRID, width: 1 },
						// Categories get one tick each; days as many as fit.
						splits: bars ? () => labels.map((_, index) => index) : undefined,
						values: (_u, splits) => splits.map((split) => labels[Math.round(split)] ?? ''),
						space: 70,
					},
					{ stroke: INK_SOFT, size: 56, grid: { stroke: GRID, width: 1 }, label: unit },
				],
			},
			[labels.map((_, index) => index), ...series.map((line) => line.values)],
			box,
		);
		setReady(true);
		return keepChartSized(chart, box, size);
	}, [labels, series, unit, bars]);
	return (
		<figure className="analytics-chart" data-testid={`chart-${id}`} data-ready={ready ? '' : undefined}>
			<figcaption>
				<strong>{title}</strong>
			</figcaption>
			<div ref={stage} aria-hidden="true" />
		</figure>
	);
}

/** The analytics page's charts: counts per day, and the Web Vitals' p75 per page type. */
export default function AnalyticsCharts({ daily, vitals }: { daily: DailyCounts[]; vitals: VitalsRow[] }) {
	const days = daily.map((row) => row.day.slice(5));
	const pageTypes = [...new Set(vitals.map((row) => row.pageType))];
	const p75 = (metric: VitalsRow['metric']) =>
		pageTypes.map(
			(pageType) => vitals.find((row) => row.pageType === pageType && row.metric === metric)?.p75 ?? 0,
		);
	return (
		<div className="analytics-charts">
			<LineChart
				id="daily"
				title="Page views, events and devices per day"
				labels={days}
				unit="count"
				series={SERIES.map((line) => ({
					label: line.label,
					colour: line.colour,
					values: daily.map((row) => row[line.key]),
				}))}
			/>
			{pageTypes.length > 0 && (
				<>
					<LineChart
						id="vitals-timing"
						title="LCP and INP at p75 by page type"
						labels={pageTypes}
						unit="ms"
						bars
						series={[
							{ label: 'LCP', colour: '#0b5cad', values: p75('LCP') },
							{ label: 'INP', colour: '#c2410c', values: p75('INP') },
						]}
					/>
					<LineChart
						id="vitals-cls"
						title="CLS at p75 by page type"
						labels={pageTypes}
						unit="score"
						bars
						series={[{ label: 'CLS', colour: '#15803d', values: p75('CLS') }]}
					/>
				</>
			)}
		</div>
	);
}
