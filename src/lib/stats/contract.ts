import * as v from 'valibot';
import { idNumber } from '../core/integers';
import { ACTIVITY_GROUPS, type ActivityGroup } from '../workouts/activity-groups';
import type { HeartRateZone } from '../workouts/analysis';
import { type Bucket, type Totals, WEEK_TYPES, type WeekType } from './aggregate';
import { parseDateKey, type WeekDay } from './calendar';

const MemberId = idNumber('user must be a member id');
const Year = v.pipe(
	v.string(),
	v.regex(/^\d{4}$/, 'year must be a year such as 2026.'),
	v.transform(Number),
	v.minValue(1970, 'year must be 1970 or later.'),
	v.maxValue(2200, 'year must be 2200 or earlier.'),
);
const DateText = v.pipe(
	v.string(),
	v.check(
		(text) => parseDateKey(text) !== null && text >= '1970-01-01' && text <= '2200-12-31',
		'date is a day such as 2026-11-24.',
	),
);

/**
 * How each period's bar is split: 1 one bar for everything chosen, 2 (the default) stacked by
 * activity group in the groups' colours.
 */
export const SPLIT_TYPES = [1, 2] as const;
export type SplitType = (typeof SPLIT_TYPES)[number];
export const DEFAULT_SPLIT_TYPE: SplitType = 2;

/**
 * What the time series' x axis holds: `time` (the default) every period of the calendar, quiet ones
 * as gaps; `active` only the periods with workouts, side by side, so a sparse year reads closer.
 */
export const X_AXIS_TYPES = ['time', 'active'] as const;
export type XAxisType = (typeof X_AXIS_TYPES)[number];
export const DEFAULT_X_AXIS_TYPE: XAxisType = 'time';

/** "all", or a comma-separated list of groups; "all" with others means all. */
export const ActivityGroupsText = v.pipe(
	v.string(),
	v.maxLength(300, 'activity_groups is too long.'),
	v.check(
		(text) =>
			text
				.split(',')
				.every((part) => part === 'all' || (ACTIVITY_GROUPS as readonly string[]).includes(part)),
		'activity_groups lists known groups, or all.',
	),
	v.transform((text): ActivityGroup[] | null => {
		const parts = text.split(',');
		return parts.includes('all') ? null : ([...new Set(parts)] as ActivityGroup[]);
	}),
);

export const StatsQuerySchema = v.object({
	user: v.optional(MemberId),
	activity_groups: v.optional(ActivityGroupsText),
	week_type: v.optional(v.picklist(WEEK_TYPES, 'week_type is week, isoWeek or rolling.')),
	week_start_day: v.optional(
		v.pipe(
			v.string(),
			v.regex(/^[0-6]$/, 'week_start_day is 0 (Sunday) to 6 (Saturday).'),
			v.transform(Number),
		),
	),
	year: v.optional(Year),
	date: v.optional(DateText),
	split_type: v.optional(
		v.pipe(
			v.string(),
			v.regex(/^[12]$/, 'split_type is 1 (one bar per period) or 2 (split by activity group).'),
			v.transform((text) => Number(text) as SplitType),
		),
	),
	time_series_x_axis_type: v.optional(
		v.picklist(
			X_AXIS_TYPES,
			'time_series_x_axis_type is time (every period) or active (periods with workouts).',
		),
	),
});
export type StatsQueryInput = v.InferOutput<typeof StatsQuerySchema>;

/** The stats filters a page address carries besides activity_groups, which may repeat. */
export const STATS_FILTER_KEYS = [
	'week_type',
	'week_start_day',
	'year',
	'date',
	'split_type',
	'time_series_x_axis_type',
] as const;

export const CalendarQuerySchema = v.object({
	user: v.optional(MemberId),
	month: v.optional(
		v.pipe(
			v.string(),
			v.regex(/^(19[7-9]\d|2[01]\d\d|2200)-(0[1-9]|1[0-2])$/, 'month is a month such as 2026-11.'),
		),
	),
});

export const LifetimeQuerySchema = v.object({
	user: v.optional(MemberId),
	heatmap_year: v.optional(Year),
});

/**
 * What a group toggle does to a selection: choosing "all" clears the others, choosing a group
 * removes "all", and clearing the last group goes back to all.
 */
export function toggleGroup(
	selection: readonly ActivityGroup[] | null,
	choice: ActivityGroup | 'all',
): ActivityGroup[] | null {
	if (choice === 'all') return null;
	const current = selection ?? [];
	const next = current.includes(choice) ? current.filter((group) => group !== choice) : [...current, choice];
	return next.length === 0 ? null : next;
}

export const RecordsQuerySchema = v.object({
	user: v.optional(MemberId),
	workout: v.optional(idNumber('workout must be a workout id')),
});

export type StatsAnswer = {
	time_zone: string;
	measurement_system: 'metric' | 'imperial';
	year: number;
	date: string;
	week_type: WeekType;
	week_start_day: WeekDay;
	activity_groups: ActivityGroup[] | 'all';
	split_type: SplitType;
	time_series_x_axis_type: XAxisType;
	week: { first: string; last: string; totals: Totals };
	month: { first: string; last: string; totals: Totals };
	year_totals: Totals;
	/** Periods for the charts and their tables, split and laid out as asked. */
	weeks: Bucket[];
	months: Bucket[];
	years: Bucket[];
	/** Over every period of the year that has begun, whatever the x axis shows. */
	averages: { per_week: Totals; per_month: Totals };
};

/** A week's seconds in each of the member's zones, in the zones' order. */
export type ZoneWeek = { first: string; last: string; seconds: number[]; workouts: number };

/** Time in heart-rate zones per week, the zones first (names and bpm bounds). */
export type ZoneWeeks = { zones: HeartRateZone[]; weeks: ZoneWeek[] };

export type CalendarWorkout = {
	id: number;
	name: string;
	activity_type: number;
	activity_name: string;
	group: ActivityGroup;
	day: string;
	time: string;
	distance_m: number | null;
	duration_s: number | null;
	calories: number | null;
};

export type CalendarMonth = {
	time_zone: string;
	measurement_system: 'metric' | 'imperial';
	month: string;
	/** The day each week row starts on (0 Sunday), the member's choice. */
	week_start_day: WeekDay;
	today: string;
	/** Weeks covering the month from the member's start day, each with its seven days and totals. */
	weeks: { first: string; days: string[]; totals: Totals }[];
	workouts: CalendarWorkout[];
	totals: Totals;
	previous: string;
	next: string;
};

/** GET workout_stats/training_load/: the member's own curves, for the days ending on `date` (today by default). */
export const TrainingLoadQuerySchema = v.object({ date: v.optional(DateText) });

/** One day of the curves: that day's summed load, and fitness, fatigue and form at its end. */
export type TrainingLoadDay = { date: string; load: number; fitness: number; fatigue: number; form: number };

/**
 * Fitness (42-day), fatigue (7-day) and form, one entry per day, oldest first; and how the period's
 * workouts were counted: from heart rate, from a perceived effort, or not at all (neither).
 */
export type TrainingLoadView = {
	days: TrainingLoadDay[];
	workouts: { heart_rate: number; perceived_effort: number; none: number };
};

/** The track heatmap's filters: activity groups as the stats take them, and one calendar year. */
export const TrackHeatmapQuerySchema = v.object({
	activity_groups: v.optional(ActivityGroupsText),
	year: v.optional(Year),
});

/**
 * Every line the member's own workouts drew, for the track heatmap: encoded polylines (precision 5,
 * about a metre), a workout's track split wherever it passes through one of the member's privacy zones.
 */
export type TrackHeatmap = {
	activity_groups: ActivityGroup[] | 'all';
	year: number | null;
	/** Workouts with at least one line drawn, after the filters and the privacy zones. */
	workout_count: number;
	lines: string[];
	/** The years the member has workouts in, newest first, for the year filter. */
	years: number[];
	/** The groups of the member's workouts with a track in the chosen year, for the group filter. */
	groups: ActivityGroup[];
};
