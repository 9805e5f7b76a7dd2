import 'uplot/dist/uPlot.min.css';
import { useEffect, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import { formatWholeNumber } from '../../lib/core/numbers';
import type { Bucket, Totals } from '../../lib/stats/aggregate';
import { distanceIn, formatDistanceShort, formatHours, type Unit } from '../../lib/stats/format';
import { GROUP_COLOURS, GROUP_LABELS } from '../../lib/stats/groups';
import { countPeriods, PERIOD_STEPS, periodTicks } from '../../lib/stats/period-axis';
import type { ActivityGroup } from '../../lib/workouts/activity-groups';
import { drawWhenVisible, keepChartSized } from '../chart-size';
import { groupColour } from './group-colour';

export type ChartMetric = 'distance' | 'duration' | 'calories' | 'count';

export const CHART_METRICS: { id: ChartMetric; label: string }[] = [
	{ id: 'distance', label: 'Distance' },
	{ id: 'duration', label: 'Time' },
	{ id: 'calories', label: 'Calories' },
	{ id: 'count', label: 'Workouts' },
];

const INK_SOFT = '#44506a';
const GRID = '#e2e8f0';
/** Bars not split by activity group, in the brand's blue. */
const TOTAL_COLOUR = '#0b5cad';

/** A period's figure in the unit the chart's axis uses. */
export function metricValue(totals: Totals | undefined, metric: ChartMetric, unit: Unit): number {
	if (!totals) return 0;
	switch (metric) {
		case 'distance':
			return Math.round(distanceIn(totals.distance_m, unit) * 10) / 10;
		case 'duration':
			return Math.round((totals.duration_s / 3600) * 10) / 10;
		case 'calories':
			return totals.calories;
		case 'count':
			return totals.count;
	}
}

export function metricText(totals: Totals | undefined, metric: ChartMetric, unit: Unit): string {
	if (!totals) return '—';
	switch (metric) {
		case 'distance':
			return formatDistanceShort(totals.distance_m, unit);
		case 'duration':
			return formatHours(totals.duration_s);
		case 'calories':
			return `${formatWholeNumber(totals.calories)} kcal`;
		case 'count':
			return String(totals.count);
	}
}

export function axisLabel(metric: ChartMetric, unit: Unit): string {
	return metric === 'distance'
		? unit
		: metric === 'duration'
			? 'h'
			: metric === 'calories'
				? 'kcal'
				: 'workouts';
}

/**
 * Bars per period stacked by activity group, with a sentence that sums it up and the same figures
 * as a table, so the chart is never the only way to read them.
 */
export default function StatsChart({
	id,
	title,
	buckets,
	metric,
	unit,
}: {
	id: string;
	title: string;
	buckets: Bucket[];
	metric: ChartMetric;
	unit: Unit;
}) {
	const stage = useRef<HTMLDivElement>(null);
	const [ready, setReady] = useState(false);
	const groups = useMemo(
		() =>
			[...new Set(buckets.flatMap((bucket) => Object.keys(bucket.by_group) as ActivityGroup[]))].sort(
				(a, b) =>
					buckets.reduce((sum, bucket) => sum + metricValue(bucket.by_group[b], metric, unit), 0) -
					buckets.reduce((sum, bucket) => sum + metricValue(bucket.by_group[a], metric, unit), 0),
			),
		[buckets, metric, unit],
	);
	const values = buckets.map((bucket) => metricValue(bucket.totals, metric, unit));
	const total = values.reduce((sum, value) => sum + value, 0);
	const best = values.reduce((bestIndex, value, index) => (value > values[bestIndex] ? index : bestIndex), 0);
	const active = values.filter((value) => value > 0).length;
	const summary =
		total === 0
			? `${title}: nothing recorded.`
			: `${title}: ${metricText(sumTotals(buckets), metric, unit)} in all over ${countPeriods(buckets.length)}, ${active} of them active; the most was ${buckets[best].label} with ${metricText(buckets[best].totals, metric, unit)}.`;

	useEffect(() => {
		const box = stage.current;
		if (!box || buckets.length === 0) return;
		return drawWhenVisible(box, () => {
			const x = buckets.map((_, index) => index);
			// Stacked bars: each series is the running sum up to its group, drawn tallest first; bars
			// not split by group are one series of the totals.
			const layers =
				groups.length > 0
					? groups.map((group) => ({
							label: GROUP_LABELS[group],
							colour: GROUP_COLOURS[group],
							values: buckets.map((bucket) => metricValue(bucket.by_group[group], metric, unit)),
						}))
					: [
							{
								label: 'All chosen activities',
								colour: TOTAL_COLOUR,
								values: buckets.map((bucket) => metricValue(bucket.totals, metric, unit)),
							},
						];
			const stacks: number[][] = [];
			let running = buckets.map(() => 0);
			for (const layer of layers) {
				running = running.map((sum, index) => sum + layer.values[index]);
				stacks.push(running.map((value) => Math.round(value * 10) / 10));
			}
			const order = layers.map((_, index) => layers.length - 1 - index);
			const bars = uPlot.paths.bars?.({ size: [0.7, 40], gap: 1 });
			const size = () => ({ width: Math.max(240, box.clientWidth), height: 200 });
			const chart = new uPlot(
				{
					...size(),
					scales: {
						x: { time: false, range: [-0.5, buckets.length - 0.5] },
						y: { range: (_u, _min, max) => [0, Math.max(1, max)] },
					},
					legend: { show: false },
					cursor: { drag: { x: false, y: false }, points: { show: false } },
					series: [
						{},
						...order.map((index) => ({
							label: layers[index].label,
							stroke: layers[index].colour,
							fill: layers[index].colour,
							width: 0,
							paths: bars,
							points: { show: false },
						})),
					],
					axes: [
						{
							stroke: INK_SOFT,
							grid: { show: false },
							ticks: { stroke: GRID, width: 1 },
							// Labels only on bars: whole indices, thinned by whole steps when they do not fit.
							incrs: PERIOD_STEPS,
							splits: (_u, _axis, min, max, step) => periodTicks(min, max, step, buckets.length),
							values: (_u, splits) => splits.map((split) => buckets[split]?.label ?? ''),
							space: 60,
						},
						{
							stroke: INK_SOFT,
							size: 56,
							grid: { stroke: GRID, width: 1 },
							ticks: { stroke: GRID, width: 1 },
							label: axisLabel(metric, unit),
						},
					],
				},
				[x, ...order.map((index) => stacks[index])],
				box,
			);
			setReady(true);
			return keepChartSized(chart, box, size);
		});
	}, [buckets, metric, unit, groups]);

	return (
		<figure className="stats-chart" data-testid={`chart-${id}`} data-ready={ready ? '' : undefined}>
			<figcaption>
				<strong>{title}</strong>
				<span className="stats-chart__summary" data-testid={`chart-${id}-summary`}>
					{summary}
				</span>
			</figcaption>
			{groups.length > 0 && (
				<ul className="stats-chart__legend" aria-hidden="true">
					{groups.map((group) => (
						<li key={group}>
							<span ref={groupColour(group)} />
							{GROUP_LABELS[group]}
						</li>
					))}
				</ul>
			)}
			<div ref={stage} className="stats-chart__plot" aria-hidden="true" />
			<details className="stats-chart__table">
				<summary>Show {title.toLowerCase()} as a table</summary>
				{/* biome-ignore lint/a11y/noNoninteractiveTabindex: a table wider than the screen scrolls, and keyboards must reach it */}
				<section className="stats-table-scroll" aria-label={`${title}, table`} tabIndex={0}>
					<table data-testid={`table-${id}`}>
						<caption className="visually-hidden">{title}</caption>
						<thead>
							<tr>
								<th scope="col">Period</th>
								<th scope="col">Workouts</th>
								<th scope="col">Distance</th>
								<th scope="col">Time</th>
								<th scope="col">Calories</th>
								{groups.map((group) => (
									<th scope="col" key={group}>
										{GROUP_LABELS[group]} ({axisLabel(metric, unit)})
									</th>
								))}
							</tr>
						</thead>
						<tbody>
							{buckets.map((bucket) => (
								<tr key={bucket.key}>
									<th scope="row">{bucket.label}</th>
									<td>{bucket.totals.count}</td>
									<td>{formatDistanceShort(bucket.totals.distance_m, unit)}</td>
									<td>{formatHours(bucket.totals.duration_s)}</td>
									<td>{formatWholeNumber(bucket.totals.calories)}</td>
									{groups.map((group) => (
										<td key={group}>{metricValue(bucket.by_group[group], metric, unit)}</td>
									))}
								</tr>
							))}
						</tbody>
					</table>
				</section>
			</details>
		</figure>
	);
}

function sumTotals(buckets: Bucket[]): Totals {
	return buckets.reduce<Totals>(
		(sum, bucket) => ({
			count: sum.count + bucket.totals.count,
			distance_m: sum.distance_m + bucket.totals.distance_m,
			duration_s: sum.duration_s + bucket.totals.duration_s,
			calories: sum.calories + bucket.totals.calories,
			pace_s_per_km: null,
		}),
		{ count: 0, distance_m: 0, duration_s: 0, calories: 0, pace_s_per_km: null },
	);
}
