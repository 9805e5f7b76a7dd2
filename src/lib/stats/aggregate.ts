import { formatCalendarDay, formatCalendarMonth } from '../core/dates';
import type { ActivityGroup } from '../workouts/activity-groups';
import {
	addDays,
	dateKey,
	daysBetween,
	isoWeekNumber,
	type LocalDate,
	parseDateKey,
	type WeekDay,
	weekDayOf,
} from './calendar';

/** One local day's totals for one activity type, as the database sums them. */
export type DayRow = {
	day: string;
	activityTypeId: number;
	count: number;
	distanceM: number;
	durationS: number;
	energyJ: number;
};

export type Totals = {
	count: number;
	distance_m: number;
	duration_s: number;
	calories: number;
	/** Seconds per kilometre over workouts with a distance; null without any. */
	pace_s_per_km: number | null;
};

export type Bucket = {
	key: string;
	label: string;
	first: string;
	totals: Totals;
	by_group: Partial<Record<ActivityGroup, Totals>>;
};

export const WEEK_TYPES = ['week', 'isoWeek', 'rolling'] as const;
export type WeekType = (typeof WEEK_TYPES)[number];

type Accumulator = {
	count: number;
	distance: number;
	duration: number;
	energy: number;
	paced: number;
	pacedDistance: number;
};

const empty = (): Accumulator => ({
	count: 0,
	distance: 0,
	duration: 0,
	energy: 0,
	paced: 0,
	pacedDistance: 0,
});

function add(into: Accumulator, row: DayRow) {
	into.count += row.count;
	into.distance += row.distanceM;
	into.duration += row.durationS;
	into.energy += row.energyJ;
	if (row.distanceM > 0) {
		into.paced += row.durationS;
		into.pacedDistance += row.distanceM;
	}
}

function finish(sum: Accumulator): Totals {
	return {
		count: sum.count,
		distance_m: Math.round(sum.distance),
		duration_s: Math.round(sum.duration),
		calories: Math.round(sum.energy / 4184),
		pace_s_per_km: sum.pacedDistance > 0 ? Math.round((sum.paced / sum.pacedDistance) * 1000) : null,
	};
}

export function totalsOf(rows: readonly DayRow[]): Totals {
	const sum = empty();
	for (const row of rows) add(sum, row);
	return finish(sum);
}

/**
 * Where a day falls: the first day of its week (by week type and start day), month or year. A
 * rolling week counts back in sevens from `anchor` (today), so the newest bucket ends today.
 */
export function bucketStart(
	day: LocalDate,
	period: 'week' | 'month' | 'year',
	options: { weekType: WeekType; weekStartDay: WeekDay; anchor: LocalDate },
): LocalDate {
	if (period === 'year') return { year: day.year, month: 1, day: 1 };
	if (period === 'month') return { year: day.year, month: day.month, day: 1 };
	if (options.weekType === 'rolling') {
		const back = daysBetween(day, options.anchor);
		const offset = ((back % 7) + 7) % 7;
		return addDays(day, offset - 6);
	}
	const startDay = options.weekType === 'isoWeek' ? 1 : options.weekStartDay;
	return addDays(day, -((weekDayOf(day) - startDay + 7) % 7));
}

function bucketLabel(first: LocalDate, period: 'week' | 'month' | 'year', weekType: WeekType): string {
	if (period === 'year') return String(first.year);
	if (period === 'month') return formatCalendarMonth(first.year, first.month);
	if (weekType === 'isoWeek') {
		const iso = isoWeekNumber(first);
		return `${iso.year}-W${String(iso.week).padStart(2, '0')}`;
	}
	return formatCalendarDay(first);
}

/**
 * Totals per week, month or year from the first day to the last (both local days), with empty
 * periods kept so charts show the gaps, and a split by activity group.
 */
export function bucketise(
	rows: readonly DayRow[],
	groupOf: (activityTypeId: number) => ActivityGroup,
	period: 'week' | 'month' | 'year',
	range: { first: LocalDate; last: LocalDate },
	options: { weekType: WeekType; weekStartDay: WeekDay; anchor: LocalDate },
): Bucket[] {
	const buckets = new Map<
		string,
		{ first: LocalDate; sum: Accumulator; groups: Map<ActivityGroup, Accumulator> }
	>();
	const step = (from: LocalDate): LocalDate =>
		period === 'year'
			? { year: from.year + 1, month: 1, day: 1 }
			: period === 'month'
				? from.month === 12
					? { year: from.year + 1, month: 1, day: 1 }
					: { year: from.year, month: from.month + 1, day: 1 }
				: addDays(from, 7);
	const lastKey = dateKey(range.last);
	for (let first = bucketStart(range.first, period, options); dateKey(first) <= lastKey; first = step(first))
		buckets.set(dateKey(first), { first, sum: empty(), groups: new Map() });
	for (const row of rows) {
		const day = parseDateKey(row.day);
		if (!day) continue;
		const bucket = buckets.get(dateKey(bucketStart(day, period, options)));
		if (!bucket) continue;
		add(bucket.sum, row);
		const group = groupOf(row.activityTypeId);
		let groupSum = bucket.groups.get(group);
		if (!groupSum) {
			groupSum = empty();
			bucket.groups.set(group, groupSum);
		}
		add(groupSum, row);
	}
	return [...buckets.entries()].map(([key, bucket]) => ({
		key,
		first: key,
		label: bucketLabel(bucket.first, period, options.weekType),
		totals: finish(bucket.sum),
		by_group: Object.fromEntries([...bucket.groups.entries()].map(([group, sum]) => [group, finish(sum)])),
	}));
}
