import { MONTH_ABBREVIATIONS } from '../core/dates';
import { formatWholeNumber } from '../core/numbers';
import type { GoalGroup, GoalMetric } from '../goals/contract';
import { GROUP_LABELS } from './groups';

/** Pure wording for stats, calendar, lifetime and goal pages: no schema, so shell pages stay light. */

export type Unit = 'km' | 'mi';
const METRES_PER = { km: 1000, mi: 1609.344 } as const;

export function distanceIn(metres: number, unit: Unit): number {
	return metres / METRES_PER[unit];
}

/** "12.3 km"; whole numbers from 100 up. */
export function formatDistanceShort(metres: number, unit: Unit): string {
	const value = distanceIn(metres, unit);
	return `${value >= 100 ? formatWholeNumber(value) : value.toFixed(1)} ${unit}`;
}

/** "3 h 05 min", "42 min", "0 min". */
export function formatHours(seconds: number): string {
	const minutes = Math.round(seconds / 60);
	const h = Math.floor(minutes / 60);
	const m = minutes % 60;
	if (h === 0) return `${m} min`;
	return `${formatWholeNumber(h)} h ${String(m).padStart(2, '0')} min`;
}

/** "5:30 /km" from seconds per kilometre. */
export function formatPacePerKm(secondsPerKm: number | null, unit: Unit): string {
	if (!secondsPerKm) return '—';
	const perUnit = Math.round(secondsPerKm * (METRES_PER[unit] / 1000));
	return `${Math.floor(perUnit / 60)}:${String(perUnit % 60).padStart(2, '0')} /${unit}`;
}

/** "24.3 km/h", "15.1 mph" from seconds per kilometre: a ride's average as its rider reads it. */
export function formatSpeedFromPace(secondsPerKm: number | null, unit: Unit): string {
	if (!secondsPerKm) return '—';
	const perHour = 3600 / (secondsPerKm * (METRES_PER[unit] / 1000));
	return `${perHour.toFixed(1)} ${unit === 'km' ? 'km/h' : 'mph'}`;
}

/** A rate as the activity is read: speed for groups ridden (see `showsSpeed`), pace for the rest. */
export function formatRate(secondsPerKm: number | null, unit: Unit, bySpeed: boolean): string {
	return bySpeed ? formatSpeedFromPace(secondsPerKm, unit) : formatPacePerKm(secondsPerKm, unit);
}

export function formatCount(count: number): string {
	return `${formatWholeNumber(count)} ${count === 1 ? 'workout' : 'workouts'}`;
}

/** A goal's value in words: distance in the member's unit, duration in hours, calories, workouts. */
export function formatGoalValue(metric: GoalMetric, value: number, unit: Unit): string {
	switch (metric) {
		case 'distance':
			return formatDistanceShort(value, unit);
		case 'duration':
			return formatHours(value);
		case 'calories':
			return `${formatWholeNumber(value)} kcal`;
		case 'count':
			return formatCount(Math.round(value));
	}
}

/** "Run 20.0 km a week", "Any activity 3 workouts a week". */
export function describeGoal(metric: GoalMetric, value: number, group: GoalGroup, unit: Unit): string {
	const what = group === 'all' ? 'Any activity' : GROUP_LABELS[group];
	return `${what}: ${formatGoalValue(metric, value, unit)} a week`;
}

/** The unit a goal's threshold is typed in, and its factor to the stored value. */
export function goalInputUnit(metric: GoalMetric, unit: Unit): { label: string; factor: number } {
	switch (metric) {
		case 'distance':
			return { label: unit, factor: METRES_PER[unit] };
		case 'duration':
			return { label: 'hours', factor: 3600 };
		case 'calories':
			return { label: 'kcal', factor: 1 };
		case 'count':
			return { label: 'workouts', factor: 1 };
	}
}

/** Day names by day number, 0 Sunday, as week start days are kept. */
export const WEEK_DAY_NAMES = [
	'Sunday',
	'Monday',
	'Tuesday',
	'Wednesday',
	'Thursday',
	'Friday',
	'Saturday',
] as const;

/** 'MMM DD, YYYY' for a `YYYY-MM-DD` day. */
export function formatDayKey(key: string): string {
	const [year, month, day] = key.split('-').map(Number);
	return `${MONTH_ABBREVIATIONS[month - 1]} ${String(day).padStart(2, '0')}, ${year}`;
}
