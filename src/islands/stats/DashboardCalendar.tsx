import { type MouseEvent, useEffect, useState } from 'react';
import { api, ensureSession } from '../../lib/api/client';
import type { Totals } from '../../lib/stats/aggregate';
import type { CalendarMonth, CalendarWorkout } from '../../lib/stats/contract';
import { formatDayKey, formatDistanceShort, formatHours, type Unit } from '../../lib/stats/format';
import { GROUP_LABELS } from '../../lib/stats/groups';
import { groupColour } from './group-colour';
import './stats.scss';

export type CalendarViewMode = 'calendar' | 'list';

export type DashboardCalendarProps = {
	initial: CalendarMonth;
	view: CalendarViewMode;
	unit: Unit;
	/** The page's own path (/dashboard/ or a friend's), for links that work without script. */
	basePath: string;
	/** Whose calendar. */
	userId: number;
};

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

function monthTitle(month: string): string {
	const [year, m] = month.split('-').map(Number);
	return new Date(Date.UTC(year, m - 1, 1)).toLocaleDateString('en-US', {
		timeZone: 'UTC',
		month: 'long',
		year: 'numeric',
	});
}

function totalsText(totals: Totals, unit: Unit): string {
	if (totals.count === 0) return 'No workouts';
	return `${totals.count} ${totals.count === 1 ? 'workout' : 'workouts'}, ${formatDistanceShort(totals.distance_m, unit)}, ${formatHours(totals.duration_s)}`;
}

function WorkoutChip({
	workout,
	unit,
	compact,
}: {
	workout: CalendarWorkout;
	unit: Unit;
	compact?: boolean;
}) {
	const detail = [
		workout.distance_m ? formatDistanceShort(workout.distance_m, unit) : null,
		workout.duration_s ? formatHours(workout.duration_s) : null,
	]
		.filter(Boolean)
		.join(', ');
	return (
		<a
			className="stats-chip"
			href={`/workout/${workout.id}`}
			ref={groupColour(workout.group)}
			data-testid="calendar-workout"
			data-group={workout.group}
		>
			<span className="stats-chip__dot" aria-hidden="true" />
			<span className="stats-chip__name">{workout.name}</span>
			{!compact && (
				<span className="stats-chip__detail">
					{GROUP_LABELS[workout.group]}
					{detail ? ` · ${detail}` : ''}
				</span>
			)}
			{compact && (
				<span className="visually-hidden">{`, ${GROUP_LABELS[workout.group]}${detail ? `, ${detail}` : ''}`}</span>
			)}
		</a>
	);
}

/**
 * The dashboard calendar: a month as a calendar or a list, week totals, today marked. The server
 * renders the first month; paging and switching fetch months here, and every control is also a
 * link, so it works before this script has loaded.
 */
export default function DashboardCalendar({
	initial,
	view: initialView,
	unit,
	basePath,
	userId,
}: DashboardCalendarProps) {
	const [data, setData] = useState(initial);
	const [view, setView] = useState<CalendarViewMode>(initialView);
	const [loading, setLoading] = useState(false);
	const [error, setError] = useState<string | null>(null);

	const href = (month: string, mode: CalendarViewMode) => `${basePath}?month=${month}&view=${mode}`;

	useEffect(() => {
		const onPop = () => {
			const params = new URLSearchParams(window.location.search);
			const mode = params.get('view') === 'list' ? 'list' : 'calendar';
			setView(mode);
			const month = params.get('month');
			if (month && month !== data.month) void load(month, mode, false);
		};
		window.addEventListener('popstate', onPop);
		return () => window.removeEventListener('popstate', onPop);
	});

	async function load(month: string, mode: CalendarViewMode, push = true) {
		setLoading(true);
		setError(null);
		try {
			// A signed-in member sees their own private workouts: the session goes with the request.
			await ensureSession();
			const next = await api<CalendarMonth>('/v7.1/workout_calendar/', { query: { month, user: userId } });
			setData(next);
			if (push) window.history.pushState(null, '', href(month, mode));
		} catch {
			setError('That month could not be loaded. Try again.');
		} finally {
			setLoading(false);
		}
	}

	function go(event: MouseEvent, month: string) {
		event.preventDefault();
		void load(month, view);
	}

	function switchTo(event: MouseEvent, mode: CalendarViewMode) {
		event.preventDefault();
		setView(mode);
		window.history.pushState(null, '', href(data.month, mode));
	}

	const byDay = new Map<string, CalendarWorkout[]>();
	for (const workout of data.workouts) {
		const list = byDay.get(workout.day) ?? [];
		list.push(workout);
		byDay.set(workout.day, list);
	}
	const title = monthTitle(data.month);
	const inMonth = data.workouts.filter((workout) => workout.day.startsWith(data.month));

	return (
		<section className="dashboard-calendar" aria-labelledby="calendar-title" aria-busy={loading}>
			<div className="dashboard-calendar__bar">
				<a
					className="stats-button"
					href={href(data.previous, view)}
					onClick={(e) => go(e, data.previous)}
					data-testid="calendar-previous"
				>
					<span aria-hidden="true">‹ </span>Previous<span className="visually-hidden"> month</span>
				</a>
				<h2 id="calendar-title" aria-live="polite" data-testid="calendar-month">
					{title}
				</h2>
				<a
					className="stats-button"
					href={href(data.next, view)}
					onClick={(e) => go(e, data.next)}
					data-testid="calendar-next"
				>
					Next<span className="visually-hidden"> month</span>
					<span aria-hidden="true"> ›</span>
				</a>
				<nav className="stats-segmented" aria-label="Show as">
					<a
						href={href(data.month, 'calendar')}
						aria-current={view === 'calendar' ? 'true' : undefined}
						onClick={(e) => switchTo(e, 'calendar')}
						data-testid="view-calendar"
					>
						Calendar
					</a>
					<a
						href={href(data.month, 'list')}
						aria-current={view === 'list' ? 'true' : undefined}
						onClick={(e) => switchTo(e, 'list')}
						data-testid="view-list"
					>
						List
					</a>
				</nav>
			</div>
			<p className="dashboard-calendar__summary" data-testid="calendar-month-totals">
				{title}: {totalsText(data.totals, unit)}.
			</p>
			{error && (
				<p role="alert" className="stats-error">
					{error}
				</p>
			)}
			{view === 'calendar' ? (
				<table className="dashboard-calendar__grid" data-testid="calendar-grid">
					<caption className="visually-hidden">Workouts in {title}, one row a week, with week totals</caption>
					<thead>
						<tr>
							{WEEKDAYS.map((_, i) => WEEKDAYS[(data.week_start_day + i) % 7]).map((day) => (
								<th scope="col" key={day}>
									{day}
								</th>
							))}
							<th scope="col">Week</th>
						</tr>
					</thead>
					<tbody>
						{data.weeks.map((week) => (
							<tr key={week.first}>
								{week.days.map((day) => {
									const outside = !day.startsWith(data.month);
									const isToday = day === data.today;
									return (
										<td
											key={day}
											className={`dashboard-calendar__day${outside ? ' is-outside' : ''}${isToday ? ' is-today' : ''}`}
											aria-current={isToday ? 'date' : undefined}
											data-day={day}
										>
											<span className="dashboard-calendar__date">
												<span aria-hidden="true">{Number(day.slice(8))}</span>
												<span className="visually-hidden">{`${formatDayKey(day)}${isToday ? ', today' : ''}`}</span>
											</span>
											{(byDay.get(day) ?? []).map((workout) => (
												<WorkoutChip key={workout.id} workout={workout} unit={unit} compact />
											))}
										</td>
									);
								})}
								<td className="dashboard-calendar__week" data-testid="calendar-week-total">
									{week.totals.count > 0 ? (
										<>
											<strong>{formatDistanceShort(week.totals.distance_m, unit)}</strong>
											<span>{formatHours(week.totals.duration_s)}</span>
											<span>
												{week.totals.count} {week.totals.count === 1 ? 'workout' : 'workouts'}
											</span>
										</>
									) : (
										<span className="dashboard-calendar__none">—</span>
									)}
								</td>
							</tr>
						))}
					</tbody>
				</table>
			) : (
				<div className="dashboard-calendar__list" data-testid="calendar-list">
					{inMonth.length === 0 && <p>No workouts in {title}.</p>}
					{data.weeks.map((week) => {
						const days = week.days.filter((day) => day.startsWith(data.month) && byDay.has(day));
						if (days.length === 0) return null;
						return (
							<section
								key={week.first}
								className="dashboard-calendar__list-week"
								aria-label={`Week of ${formatDayKey(week.first)}`}
							>
								<h3>
									Week of {formatDayKey(week.first)} <small>{totalsText(week.totals, unit)}</small>
								</h3>
								<ul>
									{days.flatMap((day) =>
										(byDay.get(day) ?? []).map((workout) => (
											<li key={workout.id} className={day === data.today ? 'is-today' : undefined}>
												<span className="dashboard-calendar__list-day">
													{formatDayKey(day)}
													{day === data.today ? ' (today)' : ''} · {workout.time}
												</span>
												<WorkoutChip workout={workout} unit={unit} />
											</li>
										)),
									)}
								</ul>
							</section>
						);
					})}
				</div>
			)}
		</section>
	);
}
