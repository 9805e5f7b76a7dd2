import 'uplot/dist/uPlot.min.css';
import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import { MONTH_ABBREVIATIONS } from '../../lib/core/dates';
import { formatWholeNumber } from '../../lib/core/numbers';
import type { TrainingLoadDay, TrainingLoadView } from '../../lib/stats/contract';
import { formStateOf } from '../../lib/stats/training-load';
import { keepChartSized } from '../chart-size';

const INK_SOFT = '#44506a';
const GRID = '#e2e8f0';
/** The three lines, as the legend and the table name them: brand blue, accent orange, success green. */
export const FITNESS_LINES = [
	{ key: 'fitness', label: 'Fitness (42 days)', colour: '#0b5cad' },
	{ key: 'fatigue', label: 'Fatigue (7 days)', colour: '#c2410c' },
	{ key: 'form', label: 'Form', colour: '#067647' },
] as const;

/** "Nov 24" from "2026-11-24". */
function shortDay(date: string): string {
	const [, month, day] = date.split('-').map(Number);
	return `${MONTH_ABBREVIATIONS[month - 1]} ${day}`;
}

const signed = (value: number) => (value > 0 ? `+${formatWholeNumber(value)}` : formatWholeNumber(value));

/**
 * Fitness, fatigue and form over twelve weeks, with a sentence for today, what the lines mean, and the
 * weekly figures as a table, so the chart is never the only way to read them.
 */
export default function FitnessChart({ view }: { view: TrainingLoadView }) {
	const stage = useRef<HTMLDivElement>(null);
	const [ready, setReady] = useState(false);
	const days = view.days;
	const today = days.at(-1) as TrainingLoadDay;
	const counted = view.workouts.heart_rate + view.workouts.perceived_effort;
	const state = formStateOf(today);

	useEffect(() => {
		const box = stage.current;
		if (!box || days.length === 0) return;
		const size = () => ({ width: Math.max(240, box.clientWidth), height: 220 });
		const chart = new uPlot(
			{
				...size(),
				scales: { x: { time: false, range: [0, days.length - 1] } },
				legend: { show: false },
				cursor: { drag: { x: false, y: false } },
				series: [
					{},
					...FITNESS_LINES.map((line) => ({
						label: line.label,
						stroke: line.colour,
						width: 2,
						points: { show: false },
					})),
				],
				axes: [
					{
						stroke: INK_SOFT,
						grid: { show: false },
						ticks: { stroke: GRID, width: 1 },
						// A label every two weeks, every four on a narrow screen, counted back from today.
						splits: (u) =>
							days
								.map((_, index) => index)
								.filter((index) => (days.length - 1 - index) % (u.width < 520 ? 28 : 14) === 0),
						values: (_u, splits) => splits.map((split) => (days[split] ? shortDay(days[split].date) : '')),
					},
					{ stroke: INK_SOFT, size: 48, grid: { stroke: GRID, width: 1 }, ticks: { stroke: GRID, width: 1 } },
				],
			},
			[days.map((_, index) => index), ...FITNESS_LINES.map((line) => days.map((day) => day[line.key]))],
			box,
		);
		setReady(true);
		return keepChartSized(chart, box, size);
	}, [days]);

	const weeks = days.filter((_, index) => (days.length - 1 - index) % 7 === 0);
	return (
		<figure
			className="stats-chart fitness-chart"
			data-testid="fitness-chart"
			data-ready={ready ? '' : undefined}
		>
			<figcaption>
				<strong>Fitness and form</strong>
				<span className="stats-chart__summary" data-testid="fitness-summary">
					{counted === 0
						? 'No training load in the last twelve weeks yet: record heart rate, or say how hard a workout felt.'
						: `Today: fitness ${formatWholeNumber(today.fitness)}, fatigue ${formatWholeNumber(today.fatigue)}, form ${signed(today.form)} — ${state}.`}
				</span>
			</figcaption>
			<ul className="stats-chart__legend" aria-hidden="true">
				{FITNESS_LINES.map((line) => (
					<li key={line.key} className={`fitness-chart__key fitness-chart__key--${line.key}`}>
						<span />
						{line.label}
					</li>
				))}
			</ul>
			<div ref={stage} className="stats-chart__plot" aria-hidden="true" />
			<p className="fitness-chart__counted" data-testid="fitness-counted">
				{`Counted ${formatWholeNumber(view.workouts.heart_rate)} from heart rate and ${formatWholeNumber(view.workouts.perceived_effort)} from how hard they felt`}
				{view.workouts.none > 0 &&
					`; ${formatWholeNumber(view.workouts.none)} had neither, so they add no load. Say how hard one felt on its edit page to count it`}
				.
			</p>
			<details className="fitness-chart__about">
				<summary>What these lines mean</summary>
				<p>
					Each workout's <strong>training load</strong> is the minutes spent in each of your heart-rate zones,
					times the zone's number (1 for the easiest, 5 for the hardest). Without heart rate, how hard you
					said it felt (1 to 10) stands for a zone: 1–2 as zone 1, up to 9–10 as zone 5.
				</p>
				<p>
					<strong>Fitness</strong> is your load averaged over about six weeks; it rises slowly as you train
					and falls slowly when you stop. <strong>Fatigue</strong> is the same over about a week, so it
					answers quickly to a hard block. <strong>Form</strong> is fitness minus fatigue: above zero you are
					fresher than your recent training would make you, a good time to race; below zero you carry fatigue
					from it, and weeks deep below zero are a sign to rest.
				</p>
			</details>
			<details className="stats-chart__table">
				<summary>Show fitness and form as a table</summary>
				{/* biome-ignore lint/a11y/noNoninteractiveTabindex: a table wider than the screen scrolls, and keyboards must reach it */}
				<section className="stats-table-scroll" aria-label="Fitness and form, table" tabIndex={0}>
					<table data-testid="table-fitness">
						<caption className="visually-hidden">Fitness and form, one row a week</caption>
						<thead>
							<tr>
								<th scope="col">Day</th>
								<th scope="col">Load that day</th>
								{FITNESS_LINES.map((line) => (
									<th scope="col" key={line.key}>
										{line.label}
									</th>
								))}
							</tr>
						</thead>
						<tbody>
							{weeks.map((day) => (
								<tr key={day.date}>
									<th scope="row">{shortDay(day.date)}</th>
									<td>{formatWholeNumber(day.load)}</td>
									<td>{formatWholeNumber(day.fitness)}</td>
									<td>{formatWholeNumber(day.fatigue)}</td>
									<td>{signed(day.form)}</td>
								</tr>
							))}
						</tbody>
					</table>
				</section>
			</details>
		</figure>
	);
}
