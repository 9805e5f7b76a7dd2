import { useStore } from '@nanostores/react';
import { type ChangeEvent, type FormEvent, useEffect, useRef, useState } from 'react';
import type { Totals, WeekType } from '../../lib/stats/aggregate';
import type { WeekDay } from '../../lib/stats/calendar';
import type { SplitType, StatsAnswer, XAxisType, ZoneWeeks } from '../../lib/stats/contract';
import { toggleGroup } from '../../lib/stats/contract';
import {
	formatDayKey,
	formatDistanceShort,
	formatHours,
	formatRate,
	type Unit,
	WEEK_DAY_NAMES,
} from '../../lib/stats/format';
import { GROUP_LABELS } from '../../lib/stats/groups';
import { $weekStartSave, fetchStats, fetchZoneWeeks, saveWeekStartDay } from '../../lib/stats/store';
import { type ActivityGroup, showsSpeedFor } from '../../lib/workouts/activity-groups';
import StatsChart, { CHART_METRICS, type ChartMetric } from './StatsChart';
import ZoneWeeksTable from './ZoneWeeksTable';
import './stats.scss';
import { formatWholeNumber } from '../../lib/core/numbers';
import { groupColour } from './group-colour';

export type StatsExplorerProps = {
	initial: StatsAnswer;
	unit: Unit;
	/** Groups the member has any workouts in, offered as filters. */
	groups: ActivityGroup[];
	/** Where the filter form goes without script: /workout/stats/ or the app's /mobile/ twin. */
	basePath: string;
	userId: number;
	/** Time in heart-rate zones for the same filters; null without MVP, which shows the offer instead. */
	initialZones: ZoneWeeks | null;
};

const WEEK_TYPES: { id: WeekType; label: string }[] = [
	{ id: 'week', label: 'Week' },
	{ id: 'isoWeek', label: 'ISO week' },
	{ id: 'rolling', label: 'Last 7 days' },
];

const SPLITS: { id: SplitType; label: string }[] = [
	{ id: 2, label: 'By activity' },
	{ id: 1, label: 'All together' },
];

const X_AXES: { id: XAxisType; label: string }[] = [
	{ id: 'time', label: 'Every period' },
	{ id: 'active', label: 'Active periods only' },
];

function TotalsCard({
	title,
	range,
	totals,
	unit,
	testid,
	bySpeed,
}: {
	title: string;
	range?: string;
	totals: Totals;
	unit: Unit;
	testid: string;
	/** Rides read by speed, everything else by pace. */
	bySpeed: boolean;
}) {
	return (
		<section className="stats-card" aria-label={title} data-testid={testid}>
			<h3>
				{title}
				{range && <small>{range}</small>}
			</h3>
			<dl>
				<div>
					<dt>Workouts</dt>
					<dd data-testid={`${testid}-count`}>{totals.count}</dd>
				</div>
				<div>
					<dt>Distance</dt>
					<dd data-testid={`${testid}-distance`}>{formatDistanceShort(totals.distance_m, unit)}</dd>
				</div>
				<div>
					<dt>Time</dt>
					<dd>{formatHours(totals.duration_s)}</dd>
				</div>
				<div>
					<dt>Calories</dt>
					<dd>{formatWholeNumber(totals.calories)} kcal</dd>
				</div>
				<div>
					<dt>{bySpeed ? 'Speed' : 'Pace'}</dt>
					<dd data-testid={`${testid}-rate`}>{formatRate(totals.pace_s_per_km, unit, bySpeed)}</dd>
				</div>
			</dl>
		</section>
	);
}

function queryOf(state: StatsAnswer | Filters): Record<string, string> {
	const groups = state.activity_groups;
	return {
		activity_groups: groups === 'all' || groups.length === 0 ? 'all' : groups.join(','),
		week_type: state.week_type,
		week_start_day: String(state.week_start_day),
		year: String(state.year),
		date: state.date,
		split_type: String(state.split_type),
		time_series_x_axis_type: state.time_series_x_axis_type,
	};
}

type Filters = Pick<
	StatsAnswer,
	| 'activity_groups'
	| 'week_type'
	| 'week_start_day'
	| 'year'
	| 'date'
	| 'split_type'
	| 'time_series_x_axis_type'
>;

const filtersOf = (answer: StatsAnswer): Filters => ({
	activity_groups: answer.activity_groups,
	week_type: answer.week_type,
	week_start_day: answer.week_start_day,
	year: answer.year,
	date: answer.date,
	split_type: answer.split_type,
	time_series_x_axis_type: answer.time_series_x_axis_type,
});

/** The filters as the form holds them; null when a field is not readable yet. */
function readFilters(form: HTMLFormElement): Filters | null {
	const data = new FormData(form);
	const groups = data.getAll('activity_groups').map(String);
	const weekType = String(data.get('week_type') ?? 'week');
	const weekStart = Number(data.get('week_start_day') ?? 1);
	const year = Number(data.get('year'));
	const date = String(data.get('date') ?? '');
	const split = SPLITS.find((option) => String(option.id) === data.get('split_type'))?.id ?? 2;
	const axis = X_AXES.find((option) => option.id === data.get('time_series_x_axis_type'))?.id ?? 'time';
	if (!(WEEK_TYPES as { id: string }[]).some((type) => type.id === weekType)) return null;
	if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !Number.isInteger(year)) return null;
	return {
		activity_groups: groups.length === 0 || groups.includes('all') ? 'all' : (groups as ActivityGroup[]),
		week_type: weekType as WeekType,
		week_start_day: (weekStart >= 0 && weekStart <= 6 ? weekStart : 1) as Filters['week_start_day'],
		year,
		date,
		split_type: split,
		time_series_x_axis_type: axis,
	};
}

/** What saving the week start day says next to the menu; the failure is an alert. */
function WeekStartStatus() {
	const state = useStore($weekStartSave);
	if (state.status === 'failed')
		return (
			<small role="alert" className="stats-error" data-testid="week-start-error">
				{state.message}
			</small>
		);
	return (
		<small role="status" data-testid="week-start-status">
			{state.status === 'saving'
				? `Saving ${WEEK_DAY_NAMES[state.day]} as your week start…`
				: state.status === 'saved'
					? `Saved: your weeks start on ${WEEK_DAY_NAMES[state.day]} everywhere.`
					: ''}
		</small>
	);
}

/**
 * Stats with filters: activities, week type and start day, year and date, how bars split and what
 * the x axis holds; time in heart-rate zones follows the same filters. The server renders the first
 * answer and the form works without script; with it, each change refetches in place, and picking
 * the week start day also saves it as the member's setting.
 */
export default function StatsExplorer({
	initial,
	unit,
	groups,
	basePath,
	userId,
	initialZones,
}: StatsExplorerProps) {
	const [data, setData] = useState(initial);
	const [filters, setFilters] = useState<Filters>(filtersOf(initial));
	const [zones, setZones] = useState(initialZones);
	const [zonesError, setZonesError] = useState<string | null>(null);
	const zonesLocked = initialZones === null;
	const [metric, setMetric] = useState<ChartMetric>('distance');
	const [loading, setLoading] = useState(false);
	const [error, setError] = useState<string | null>(null);
	const latest = useRef(0);
	const formRef = useRef<HTMLFormElement>(null);

	async function apply(next: Filters) {
		setFilters(next);
		const ticket = ++latest.current;
		setLoading(true);
		setError(null);
		const query = queryOf(next);
		const zoneAnswer = zonesLocked
			? null
			: fetchZoneWeeks(userId, query).then(
					(answer) => {
						if (ticket !== latest.current) return;
						setZones(answer);
						setZonesError(null);
					},
					() => {
						if (ticket === latest.current)
							setZonesError('The heart-rate zones for these filters could not be loaded. Try again.');
					},
				);
		try {
			const answer = await fetchStats(userId, query);
			if (ticket !== latest.current) return;
			setData(answer);
			window.history.replaceState(null, '', `${basePath}?${new URLSearchParams(query)}`);
		} catch {
			if (ticket === latest.current) setError('The stats could not be loaded. Try again.');
		} finally {
			await zoneAnswer;
			if (ticket === latest.current) setLoading(false);
		}
	}

	/** A week start picked here is the member's: goals, the calendar and the heatmap follow it. */
	function pickedWeekStart(day: WeekDay) {
		void saveWeekStartDay(userId, day);
	}

	// The inputs are left to the browser (defaults only), so a choice made before this script
	// loaded is still there when it does; the filters are read back from the form.
	// biome-ignore lint/correctness/useExhaustiveDependencies: the form is read once, on load
	useEffect(() => {
		const form = formRef.current;
		if (!form) return;
		// All and a group both ticked means one was clicked before the script ran: the newer one wins.
		const boxes = [...form.querySelectorAll<HTMLInputElement>('input[name="activity_groups"]')];
		const all = boxes.find((box) => box.value === 'all');
		const groupsTicked = boxes.some((box) => box.value !== 'all' && box.checked);
		if (all?.checked && groupsTicked) {
			if (initial.activity_groups === 'all') all.checked = false;
			else for (const box of boxes) box.checked = box === all;
		}
		const read = readFilters(form);
		if (read && JSON.stringify(queryOf(read)) !== JSON.stringify(queryOf(initial))) void apply(read);
		if (read && read.week_start_day !== initial.week_start_day) pickedWeekStart(read.week_start_day);
	}, []);

	function changed(event: ChangeEvent<HTMLFormElement>) {
		const form = event.currentTarget;
		const target = event.target as unknown as HTMLInputElement;
		if (target.name === 'activity_groups') {
			const boxes = [...form.querySelectorAll<HTMLInputElement>('input[name="activity_groups"]')];
			const chosen = boxes
				.filter((box) => box.value !== 'all' && box.checked)
				.map((box) => box.value as ActivityGroup);
			// The selection before this click, then the rule: All clears the others, a group removes All.
			const before = target.checked
				? chosen.filter((group) => group !== target.value)
				: [...chosen, target.value as ActivityGroup];
			const next =
				target.value === 'all'
					? null
					: toggleGroup(before.length > 0 ? before : null, target.value as ActivityGroup);
			for (const box of boxes)
				box.checked =
					box.value === 'all' ? next === null : (next?.includes(box.value as ActivityGroup) ?? false);
		}
		if (target.name === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(target.value)) return;
		const read = readFilters(form);
		if (!read) return;
		void apply(read);
		if (target.name === 'week_start_day') pickedWeekStart(read.week_start_day);
	}

	const selected = filters.activity_groups === 'all' ? null : filters.activity_groups;
	const offered = [
		...new Set([...groups, ...(initial.activity_groups === 'all' ? [] : initial.activity_groups)]),
	];
	const years = data.years.map((bucket) => Number(bucket.key.slice(0, 4))).sort((a, b) => b - a);
	if (!years.includes(initial.year)) years.unshift(initial.year);

	function submit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault();
		const read = readFilters(event.currentTarget);
		if (read) void apply(read);
	}

	const weekRange = `${formatDayKey(data.week.first)} – ${formatDayKey(data.week.last)}`;
	const monthRange = `${formatDayKey(data.month.first)} – ${formatDayKey(data.month.last)}`;
	const bySpeed = showsSpeedFor(data.activity_groups);
	const groupsLabel = selected ? selected.map((group) => GROUP_LABELS[group]).join(', ') : 'All activities';
	const initialGroups = initial.activity_groups === 'all' ? null : initial.activity_groups;

	return (
		<div className="stats-explorer" aria-busy={loading}>
			<form
				ref={formRef}
				className="stats-filters"
				method="get"
				action={basePath}
				onSubmit={submit}
				onChange={changed}
				data-testid="stats-filters"
			>
				<fieldset className="stats-filters__groups">
					<legend>Activities</legend>
					<label className="stats-toggle">
						<input
							type="checkbox"
							name="activity_groups"
							value="all"
							defaultChecked={initialGroups === null}
						/>
						All
					</label>
					{offered.map((group) => (
						<label className="stats-toggle" key={group}>
							<input
								type="checkbox"
								name="activity_groups"
								value={group}
								defaultChecked={initialGroups?.includes(group) ?? false}
							/>
							<span className="stats-toggle__dot" ref={groupColour(group)} aria-hidden="true" />
							{GROUP_LABELS[group]}
						</label>
					))}
				</fieldset>
				<RadioChoice legend="Weeks" name="week_type" options={WEEK_TYPES} checked={initial.week_type} />
				<RadioChoice legend="Bars" name="split_type" options={SPLITS} checked={initial.split_type} />
				<RadioChoice
					legend="Time axis"
					name="time_series_x_axis_type"
					options={X_AXES}
					checked={initial.time_series_x_axis_type}
				/>
				<div className="stats-filters__fields">
					<div className="stats-filters__field">
						<label>
							<span>Weeks start on</span>
							<select
								name="week_start_day"
								defaultValue={initial.week_start_day}
								aria-describedby="week-start-hint"
								data-testid="stats-week-start"
							>
								{WEEK_DAY_NAMES.map((day, index) => (
									<option key={day} value={index}>
										{day}
									</option>
								))}
							</select>
						</label>
						<small id="week-start-hint">
							Your setting for goals, the calendar and the heatmap too. ISO weeks start on Monday; the last 7
							days end today.
						</small>
						<WeekStartStatus />
					</div>
					<label>
						<span>Year</span>
						<select name="year" defaultValue={initial.year}>
							{years.map((year) => (
								<option key={year} value={year}>
									{year}
								</option>
							))}
						</select>
					</label>
					<label>
						<span>Week and month of</span>
						<input type="date" name="date" defaultValue={initial.date} min="1970-01-01" max="2200-12-31" />
					</label>
					<button type="submit" className="stats-button">
						Show
					</button>
				</div>
			</form>
			{error && (
				<p role="alert" className="stats-error">
					{error}
				</p>
			)}
			<p className="stats-explorer__showing" aria-live="polite" data-testid="stats-showing">
				{loading ? 'Loading… ' : ''}Showing {groupsLabel},{' '}
				{WEEK_TYPES.find((type) => type.id === data.week_type)?.label.toLowerCase()}s
				{data.week_type === 'week' ? ` from ${WEEK_DAY_NAMES[data.week_start_day]}` : ''}, in {data.time_zone}{' '}
				time.
			</p>
			<div className="stats-cards">
				<TotalsCard
					title={data.week_type === 'rolling' ? 'Last 7 days' : 'Week'}
					range={weekRange}
					totals={data.week.totals}
					unit={unit}
					bySpeed={bySpeed}
					testid="stats-week"
				/>
				<TotalsCard
					title="Month"
					range={monthRange}
					totals={data.month.totals}
					unit={unit}
					bySpeed={bySpeed}
					testid="stats-month"
				/>
				<TotalsCard
					title={`Year ${data.year}`}
					totals={data.year_totals}
					unit={unit}
					bySpeed={bySpeed}
					testid="stats-year"
				/>
				<TotalsCard
					title={`Average week in ${data.year}`}
					totals={data.averages.per_week}
					unit={unit}
					bySpeed={bySpeed}
					testid="stats-avg-week"
				/>
				<TotalsCard
					title={`Average month in ${data.year}`}
					totals={data.averages.per_month}
					unit={unit}
					bySpeed={bySpeed}
					testid="stats-avg-month"
				/>
			</div>
			<div className="stats-explorer__metric">
				<nav className="stats-segmented" aria-label="Charts show">
					{CHART_METRICS.map((option) => (
						<button
							type="button"
							key={option.id}
							aria-pressed={metric === option.id}
							onClick={() => setMetric(option.id)}
						>
							{option.label}
						</button>
					))}
				</nav>
			</div>
			<StatsChart
				id="weeks"
				title={`Per week in ${data.year}`}
				buckets={data.weeks}
				metric={metric}
				unit={unit}
			/>
			<StatsChart
				id="months"
				title={`Per month in ${data.year}`}
				buckets={data.months}
				metric={metric}
				unit={unit}
			/>
			<StatsChart id="years" title="Per year" buckets={data.years} metric={metric} unit={unit} />
			<ZoneWeeksTable data={zones} locked={zonesLocked} error={zonesError} groupsLabel={groupsLabel} />
		</div>
	);
}

/** One of a few named choices, sent with the filters form under `name`. */
function RadioChoice<T extends string | number>({
	legend,
	name,
	options,
	checked,
}: {
	legend: string;
	name: string;
	options: { id: T; label: string }[];
	checked: T;
}) {
	return (
		<fieldset className="stats-filters__weeks">
			<legend>{legend}</legend>
			{options.map((option) => (
				<label className="stats-toggle" key={option.id}>
					<input type="radio" name={name} value={option.id} defaultChecked={checked === option.id} />
					{option.label}
				</label>
			))}
		</fieldset>
	);
}
