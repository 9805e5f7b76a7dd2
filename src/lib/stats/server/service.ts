import { and, asc, desc, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import { formatTimeOfDay } from '../../core/dates';
import type { AppDeps } from '../../core/server/deps';
import { ACTIVITY_GROUPS, type ActivityGroup } from '../../workouts/activity-groups';
import { activityTypeGroup, findActivityType, listActivityTypes } from '../../workouts/server/activity-types';
import { visibleCondition } from '../../workouts/server/service';
import { workouts } from '../../workouts/server/tables';
import { type Bucket, bucketise, type DayRow, type Totals, totalsOf, type WeekType } from '../aggregate';
import {
	addDays,
	dateKey,
	type LocalDate,
	localDateOf,
	monthOf,
	parseDateKey,
	rollingWeekOf,
	startOfLocalDay,
	type WeekDay,
	weekOf,
	yearOf,
} from '../calendar';
import {
	type CalendarMonth,
	type CalendarWorkout,
	DEFAULT_SPLIT_TYPE,
	DEFAULT_X_AXIS_TYPE,
	type SplitType,
	type StatsAnswer,
	type StatsQueryInput,
	type XAxisType,
} from '../contract';
import { cachedFor, workoutsFingerprint } from './cache';
import type { StatsMember } from './facts';

type Deps = Pick<AppDeps, 'db' | 'clock'>;
type Viewer = { id: number } | null;

function ownedVisible(viewer: Viewer, member: StatsMember): SQL[] {
	const conditions: SQL[] = [eq(workouts.ownerId, member.id)];
	if (!member.isSelf) conditions.push(visibleCondition(viewer));
	return conditions;
}

/** The local day of a workout's start, computed by the database in the member's zone. */
const localDay = (timeZone: string) =>
	sql<string>`to_char(${workouts.startDatetime} at time zone ${timeZone}, 'YYYY-MM-DD')`;

/**
 * Totals per local day and activity type: the database does the summing and the time-zone
 * arithmetic, so a year of a busy member comes back as a few hundred rows.
 */
export async function dailyRows(
	deps: Deps,
	viewer: Viewer,
	member: StatsMember,
	range: { from?: Date; to?: Date } = {},
): Promise<DayRow[]> {
	const conditions = ownedVisible(viewer, member);
	if (range.from) conditions.push(gte(workouts.startDatetime, range.from));
	if (range.to) conditions.push(lt(workouts.startDatetime, range.to));
	const rows = await deps.db
		.select({
			day: localDay(member.timeZone),
			activityTypeId: workouts.activityTypeId,
			count: sql<number>`count(*)::int`.mapWith(Number),
			distanceM: sql<number>`coalesce(sum(${workouts.distanceTotal}), 0)::float8`.mapWith(Number),
			durationS:
				sql<number>`coalesce(sum(coalesce(${workouts.activeTimeTotal}, ${workouts.elapsedTimeTotal})), 0)::float8`.mapWith(
					Number,
				),
			energyJ: sql<number>`coalesce(sum(${workouts.metabolicEnergyTotal}), 0)::float8`.mapWith(Number),
		})
		.from(workouts)
		.where(and(...conditions))
		.groupBy(sql`1`, sql`2`);
	return rows;
}

/** Every day's totals of the member as the viewer may see them, kept until a workout changes. */
async function cachedDailyRows(deps: Deps, viewer: Viewer, member: StatsMember): Promise<DayRow[]> {
	const fingerprint = await workoutsFingerprint(deps, member.id);
	return cachedFor(deps, `days|${member.id}|${member.relation}|${member.timeZone}`, fingerprint, () =>
		dailyRows(deps, viewer, member),
	);
}

/** The activity groups a member has any workouts in (as the viewer may see them), in the usual order. */
export async function memberGroups(
	deps: Deps,
	viewer: Viewer,
	member: StatsMember,
): Promise<ActivityGroup[]> {
	const present = new Set(
		(await cachedDailyRows(deps, viewer, member)).map((row) => activityTypeGroup(row.activityTypeId)),
	);
	return ACTIVITY_GROUPS.filter((group) => present.has(group));
}

export type StatsQuery = {
	groups: ActivityGroup[] | null;
	weekType: WeekType;
	weekStartDay: WeekDay;
	year: number;
	date: LocalDate;
	splitType: SplitType;
	xAxis: XAxisType;
};

/**
 * The stats query from what a client sent, with the defaults: all activities, weeks from the
 * member's start day, today in their zone, bars split by group on a time axis.
 */
export function statsQueryOf(input: StatsQueryInput, member: StatsMember, today: LocalDate): StatsQuery {
	const date = (input.date && parseDateKey(input.date)) || today;
	return {
		groups: input.activity_groups ?? null,
		weekType: input.week_type ?? 'week',
		weekStartDay: (input.week_start_day ?? member.weekStartDay) as WeekDay,
		year: input.year ?? date.year,
		date,
		splitType: input.split_type ?? DEFAULT_SPLIT_TYPE,
		xAxis: input.time_series_x_axis_type ?? DEFAULT_X_AXIS_TYPE,
	};
}

/** Periods as the charts draw them: split by group or not, every period or the active ones. */
function laidOut(buckets: Bucket[], query: StatsQuery): Bucket[] {
	const shown = query.xAxis === 'active' ? buckets.filter((bucket) => bucket.totals.count > 0) : buckets;
	return query.splitType === 1 ? shown.map((bucket) => ({ ...bucket, by_group: {} })) : shown;
}

function divide(totals: Totals, by: number): Totals {
	const n = Math.max(1, by);
	return {
		count: Math.round((totals.count / n) * 10) / 10,
		distance_m: Math.round(totals.distance_m / n),
		duration_s: Math.round(totals.duration_s / n),
		calories: Math.round(totals.calories / n),
		pace_s_per_km: totals.pace_s_per_km,
	};
}

/**
 * Stats for a member: the week and month holding `date`, the year, weeks and months of that
 * year and every year since they began, in their zone, for the chosen activity groups.
 */
export async function memberStats(
	deps: Deps,
	viewer: Viewer,
	member: StatsMember,
	query: StatsQuery,
): Promise<StatsAnswer> {
	const zone = member.timeZone;
	const today = localDateOf(deps.clock(), zone);
	const all = await cachedDailyRows(deps, viewer, member);
	const wanted = query.groups ? new Set(query.groups) : null;
	const rows = wanted ? all.filter((row) => wanted.has(activityTypeGroup(row.activityTypeId))) : all;
	const options = { weekType: query.weekType, weekStartDay: query.weekStartDay, anchor: today };
	const yearFirst = { year: query.year, month: 1, day: 1 };
	const yearLast = { year: query.year, month: 12, day: 31 };
	const inRange = (first: LocalDate, last: LocalDate) => {
		const from = dateKey(first);
		const to = dateKey(last);
		return rows.filter((row) => row.day >= from && row.day <= to);
	};
	const at = startOfLocalDay(query.date, zone);
	const week =
		query.weekType === 'rolling'
			? rollingWeekOf(at, zone)
			: weekOf(at, zone, query.weekType === 'isoWeek' ? 1 : query.weekStartDay);
	const month = monthOf(query.date.year, query.date.month, zone);
	const weekLast = addDays(week.first, 6);
	const monthLast = addDays(month.first, month.days - 1);
	const yearRows = inRange(yearFirst, yearLast);
	const firstDay = rows.reduce<string | null>(
		(min, row) => (min === null || row.day < min ? row.day : min),
		null,
	);
	const firstYear = firstDay ? Number(firstDay.slice(0, 4)) : today.year;
	const weeks = bucketise(yearRows, activityTypeGroup, 'week', { first: yearFirst, last: yearLast }, options);
	const months = bucketise(
		yearRows,
		activityTypeGroup,
		'month',
		{ first: yearFirst, last: yearLast },
		options,
	);
	const years = bucketise(
		rows,
		activityTypeGroup,
		'year',
		{
			first: { year: Math.min(firstYear, today.year), month: 1, day: 1 },
			last: { year: today.year, month: 12, day: 31 },
		},
		options,
	);
	const yearTotals = totalsOf(yearRows);
	// Averages over the weeks and months of the year that have begun.
	const elapsedDays =
		query.year < today.year ? yearOf(query.year, zone).days : query.year > today.year ? 0 : dayOfYear(today);
	return {
		time_zone: zone,
		measurement_system: member.measurementSystem,
		year: query.year,
		date: dateKey(query.date),
		week_type: query.weekType,
		week_start_day: query.weekStartDay,
		activity_groups: query.groups ?? 'all',
		split_type: query.splitType,
		time_series_x_axis_type: query.xAxis,
		week: {
			first: dateKey(week.first),
			last: dateKey(weekLast),
			totals: totalsOf(inRange(week.first, weekLast)),
		},
		month: {
			first: dateKey(month.first),
			last: dateKey(monthLast),
			totals: totalsOf(inRange(month.first, monthLast)),
		},
		year_totals: yearTotals,
		weeks: laidOut(weeks, query),
		months: laidOut(months, query),
		years: laidOut(years, query),
		averages: {
			per_week: divide(yearTotals, Math.ceil(elapsedDays / 7)),
			per_month: divide(yearTotals, query.year < today.year ? 12 : query.year > today.year ? 0 : today.month),
		},
	};
}

function dayOfYear(day: LocalDate): number {
	return (Date.UTC(day.year, day.month - 1, day.day) - Date.UTC(day.year, 0, 1)) / 86_400_000 + 1;
}

/** A month of a member's workouts for the dashboard calendar, in their zone, weeks from their start day. */
export async function calendarMonth(
	deps: Deps,
	viewer: Viewer,
	member: StatsMember,
	year: number,
	month: number,
): Promise<CalendarMonth> {
	const zone = member.timeZone;
	const period = monthOf(year, month, zone);
	const startDay = member.weekStartDay;
	const gridFirst = weekOf(period.start, zone, startDay).first;
	const monthLast = addDays(period.first, period.days - 1);
	const gridLast = addDays(weekOf(startOfLocalDay(monthLast, zone), zone, startDay).first, 6);
	const conditions = ownedVisible(viewer, member);
	conditions.push(gte(workouts.startDatetime, startOfLocalDay(gridFirst, zone)));
	conditions.push(lt(workouts.startDatetime, startOfLocalDay(addDays(gridLast, 1), zone)));
	const rows = await deps.db
		.select({
			id: workouts.id,
			name: workouts.name,
			activityTypeId: workouts.activityTypeId,
			start: workouts.startDatetime,
			day: localDay(zone),
			distanceM: workouts.distanceTotal,
			active: workouts.activeTimeTotal,
			elapsed: workouts.elapsedTimeTotal,
			energyJ: workouts.metabolicEnergyTotal,
		})
		.from(workouts)
		.where(and(...conditions))
		.orderBy(asc(workouts.startDatetime), asc(workouts.id))
		.limit(2000);
	const list: CalendarWorkout[] = rows.map((row) => ({
		id: row.id,
		name: row.name,
		activity_type: row.activityTypeId,
		activity_name: findActivityType(row.activityTypeId)?.name ?? 'Workout',
		group: activityTypeGroup(row.activityTypeId),
		day: row.day,
		time: formatTimeOfDay(row.start, zone),
		distance_m: row.distanceM,
		duration_s: row.active ?? row.elapsed,
		calories: row.energyJ === null ? null : Math.round(row.energyJ / 4184),
	}));
	const asRows = (items: CalendarWorkout[]): DayRow[] =>
		items.map((item) => ({
			day: item.day,
			activityTypeId: item.activity_type,
			count: 1,
			distanceM: item.distance_m ?? 0,
			durationS: item.duration_s ?? 0,
			energyJ: (item.calories ?? 0) * 4184,
		}));
	const weeks: CalendarMonth['weeks'] = [];
	for (let first = gridFirst; dateKey(first) <= dateKey(gridLast); first = addDays(first, 7)) {
		const days = Array.from({ length: 7 }, (_, i) => dateKey(addDays(first, i)));
		weeks.push({
			first: dateKey(first),
			days,
			totals: totalsOf(asRows(list.filter((item) => days.includes(item.day)))),
		});
	}
	const monthKey = `${year}-${String(month).padStart(2, '0')}`;
	const inMonth = list.filter((item) => item.day.startsWith(monthKey));
	const previous = month === 1 ? `${year - 1}-12` : `${year}-${String(month - 1).padStart(2, '0')}`;
	const next = month === 12 ? `${year + 1}-01` : `${year}-${String(month + 1).padStart(2, '0')}`;
	return {
		time_zone: zone,
		measurement_system: member.measurementSystem,
		month: monthKey,
		week_start_day: startDay,
		today: dateKey(localDateOf(deps.clock(), zone)),
		weeks,
		workouts: list,
		totals: totalsOf(asRows(inMonth)),
		previous,
		next,
	};
}

let runIds: number[] | undefined;
function runTypeIds(): number[] {
	runIds ??= listActivityTypes()
		.filter((type) => activityTypeGroup(type.id) === 'run')
		.map((type) => type.id);
	return runIds;
}

export type Lifetime = {
	time_zone: string;
	measurement_system: 'metric' | 'imperial';
	since: string | null;
	totals: Totals;
	by_group: { group: ActivityGroup; totals: Totals }[];
	years: Bucket[];
	longest: { id: number; name: string; day: string; distance_m: number; group: ActivityGroup } | null;
	longest_time: { id: number; name: string; day: string; duration_s: number; group: ActivityGroup } | null;
	fastest: {
		id: number;
		name: string;
		day: string;
		pace_s_per_km: number;
		distance_m: number;
		group: ActivityGroup;
	} | null;
	heatmap: {
		year: number;
		first: string;
		days: { day: string; count: number; distance_m: number; duration_s: number }[];
	};
	heatmap_years: number[];
};

/** Everything a member has done since joining, with one year's days for the heatmap. */
export async function lifetime(
	deps: Deps,
	viewer: Viewer,
	member: StatsMember,
	heatmapYear?: number,
): Promise<Lifetime> {
	const today = dateKey(localDateOf(deps.clock(), member.timeZone));
	const fingerprint = await workoutsFingerprint(deps, member.id);
	return cachedFor(
		deps,
		`lifetime|${member.id}|${member.relation}|${member.timeZone}|${today}|${heatmapYear ?? ''}`,
		fingerprint,
		() => computeLifetime(deps, viewer, member, heatmapYear),
	);
}

async function computeLifetime(
	deps: Deps,
	viewer: Viewer,
	member: StatsMember,
	heatmapYear?: number,
): Promise<Lifetime> {
	const zone = member.timeZone;
	const today = localDateOf(deps.clock(), zone);
	const rows = await cachedDailyRows(deps, viewer, member);
	const byGroup = new Map<ActivityGroup, DayRow[]>();
	for (const row of rows) {
		const group = activityTypeGroup(row.activityTypeId);
		const list = byGroup.get(group) ?? [];
		list.push(row);
		byGroup.set(group, list);
	}
	const firstDay = rows.reduce<string | null>(
		(min, row) => (min === null || row.day < min ? row.day : min),
		null,
	);
	const firstYear = firstDay ? Number(firstDay.slice(0, 4)) : today.year;
	const options = { weekType: 'week' as const, weekStartDay: 1 as WeekDay, anchor: today };
	const years = bucketise(
		rows,
		activityTypeGroup,
		'year',
		{ first: { year: Math.min(firstYear, today.year), month: 1, day: 1 }, last: today },
		options,
	).reverse();
	const conditions = ownedVisible(viewer, member);
	const pick = {
		id: workouts.id,
		name: workouts.name,
		activityTypeId: workouts.activityTypeId,
		day: localDay(zone),
		distanceM: workouts.distanceTotal,
		durationS: sql<number | null>`coalesce(${workouts.activeTimeTotal}, ${workouts.elapsedTimeTotal})`,
	};
	const durationExpr = sql`coalesce(${workouts.activeTimeTotal}, ${workouts.elapsedTimeTotal})`;
	const [longest, longestTime, fastest] = await Promise.all([
		deps.db
			.select(pick)
			.from(workouts)
			.where(and(...conditions, sql`${workouts.distanceTotal} > 0`))
			.orderBy(desc(workouts.distanceTotal), asc(workouts.id))
			.limit(1),
		deps.db
			.select(pick)
			.from(workouts)
			.where(and(...conditions, sql`${durationExpr} > 0`))
			.orderBy(desc(durationExpr), asc(workouts.id))
			.limit(1),
		// The fastest run over at least a kilometre, so a mis-logged 10-metre sprint does not win.
		deps.db
			.select(pick)
			.from(workouts)
			.where(
				and(
					...conditions,
					inArray(workouts.activityTypeId, runTypeIds()),
					sql`${workouts.distanceTotal} >= 1000`,
					sql`${durationExpr} > 0`,
				),
			)
			.orderBy(sql`${durationExpr} / ${workouts.distanceTotal}`, asc(workouts.id))
			.limit(1),
	]);
	const heatYear = heatmapYear ?? today.year;
	const yearPrefix = `${heatYear}-`;
	const heatDays = new Map<string, { day: string; count: number; distance_m: number; duration_s: number }>();
	for (const row of rows) {
		if (!row.day.startsWith(yearPrefix)) continue;
		const entry = heatDays.get(row.day) ?? { day: row.day, count: 0, distance_m: 0, duration_s: 0 };
		entry.count += row.count;
		entry.distance_m += Math.round(row.distanceM);
		entry.duration_s += Math.round(row.durationS);
		heatDays.set(row.day, entry);
	}
	const yearsWithWorkouts = [...new Set(rows.map((row) => Number(row.day.slice(0, 4))))].sort(
		(a, b) => b - a,
	);
	const long = longest[0];
	const longT = longestTime[0];
	const fast = fastest[0];
	return {
		time_zone: zone,
		measurement_system: member.measurementSystem,
		since: firstDay,
		totals: totalsOf(rows),
		by_group: [...byGroup.entries()]
			.map(([group, list]) => ({ group, totals: totalsOf(list) }))
			.sort((a, b) => b.totals.count - a.totals.count),
		years,
		longest: long
			? {
					id: long.id,
					name: long.name,
					day: long.day,
					distance_m: long.distanceM ?? 0,
					group: activityTypeGroup(long.activityTypeId),
				}
			: null,
		longest_time: longT
			? {
					id: longT.id,
					name: longT.name,
					day: longT.day,
					duration_s: Number(longT.durationS),
					group: activityTypeGroup(longT.activityTypeId),
				}
			: null,
		fastest: fast
			? {
					id: fast.id,
					name: fast.name,
					day: fast.day,
					distance_m: fast.distanceM ?? 0,
					pace_s_per_km: Math.round((Number(fast.durationS) / (fast.distanceM ?? 1)) * 1000),
					group: activityTypeGroup(fast.activityTypeId),
				}
			: null,
		heatmap: {
			year: heatYear,
			first: `${heatYear}-01-01`,
			days: [...heatDays.values()].sort((a, b) => (a.day < b.day ? -1 : 1)),
		},
		heatmap_years: yearsWithWorkouts.includes(today.year)
			? yearsWithWorkouts
			: [today.year, ...yearsWithWorkouts],
	};
}
