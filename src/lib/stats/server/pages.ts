import * as v from 'valibot';
import type { AppDeps } from '../../api/context';
import type { Viewer as SignedInViewer } from '../../auth/viewer';
import { checkFeature } from '../../billing/features';
import { AppError } from '../../core/errors';
import { ACTIVITY_GROUPS, type ActivityGroup } from '../../workouts/activity-groups';
import { localDateOf, parseDateKey, type WeekDay } from '../calendar';
import type { CalendarMonth, StatsAnswer } from '../contract';
import { StatsQuerySchema } from '../contract';
import { type StatsMember, statsMember } from './facts';
import { personalRecords } from './records';
import { calendarMonth, memberStats } from './service';
import { heartRateZoneWeeks, type ZoneWeeks } from './zones';

type Viewer = { id: number } | null;

/** What the calendar pages render first: a month from `?month=`, as a calendar or list from `?view=`. */
export async function loadCalendarPage(
	deps: Pick<AppDeps, 'db' | 'clock'>,
	viewer: Viewer,
	memberId: number,
	params: URLSearchParams,
): Promise<{ member: StatsMember; month: CalendarMonth; view: 'calendar' | 'list' } | null> {
	let member: StatsMember;
	try {
		member = await statsMember(deps, viewer, memberId);
	} catch (error) {
		if (error instanceof AppError && error.code === 'not_found') return null;
		throw error;
	}
	const asked = /^(19[7-9]\d|2[01]\d\d)-(0[1-9]|1[0-2])$/.exec(params.get('month') ?? '');
	const today = localDateOf(deps.clock(), member.timeZone);
	const year = asked ? Number(asked[1]) : today.year;
	const month = asked ? Number(asked[2]) : today.month;
	return {
		member,
		month: await calendarMonth(deps, viewer, member, year, month),
		view: params.get('view') === 'list' ? 'list' : 'calendar',
	};
}

/** Whether the viewer may open the member's calendar (their workout privacy allows it). */
export async function canSeeCalendar(
	deps: Pick<AppDeps, 'db' | 'clock'>,
	viewer: Viewer,
	memberId: number,
): Promise<boolean> {
	try {
		await statsMember(deps, viewer, memberId);
		return true;
	} catch (error) {
		if (error instanceof AppError && error.code === 'not_found') return false;
		throw error;
	}
}

/**
 * Where a workout's efforts stand among its owner's, for the workout page: "Best 5 km", "2nd best
 * 10 km" (the top three only), over the workouts the viewer may see.
 */
export async function workoutRecordRanks(
	deps: Pick<AppDeps, 'db' | 'clock'>,
	viewer: Viewer,
	ownerId: number,
	workoutId: number,
): Promise<string[]> {
	let member: StatsMember;
	try {
		member = await statsMember(deps, viewer, ownerId);
	} catch (error) {
		if (error instanceof AppError && error.code === 'not_found') return [];
		throw error;
	}
	const { workout_ranks } = await personalRecords(deps, viewer, member, workoutId);
	return workout_ranks.filter((entry) => entry.rank <= 3).map((entry) => entry.text);
}

/**
 * What the stats pages render first, from the filter form's query (activity_groups may repeat, as
 * checkboxes send it); anything unreadable falls back to the defaults rather than failing the page.
 */
export async function loadStatsPage(
	deps: Pick<AppDeps, 'db' | 'clock'>,
	viewer: { id: number },
	params: URLSearchParams,
): Promise<{ member: StatsMember; stats: StatsAnswer; groups: ActivityGroup[] }> {
	const member = await statsMember(deps, viewer, viewer.id);
	const raw: Record<string, string> = {};
	const groups = params.getAll('activity_groups').join(',');
	if (groups) raw.activity_groups = groups;
	for (const key of ['week_type', 'week_start_day', 'year', 'date'] as const) {
		const value = params.get(key);
		if (value) raw[key] = value;
	}
	const parsed = v.safeParse(StatsQuerySchema, raw);
	const query = parsed.success ? parsed.output : {};
	const today = localDateOf(deps.clock(), member.timeZone);
	const date = (query.date && parseDateKey(query.date)) || today;
	const stats = await memberStats(deps, viewer, member, {
		groups: query.activity_groups ?? null,
		weekType: query.week_type ?? 'week',
		weekStartDay: (query.week_start_day ?? member.weekStartDay) as WeekDay,
		year: query.year ?? date.year,
		date,
	});
	const present = new Set<ActivityGroup>();
	for (const bucket of stats.years)
		for (const group of Object.keys(bucket.by_group)) present.add(group as ActivityGroup);
	return { member, stats, groups: ACTIVITY_GROUPS.filter((group) => present.has(group)) };
}

/**
 * The stats page's recent weeks of heart-rate zones, to this week, all activities, weeks from the
 * member's start day; null without MVP. They stay put while the filters above refetch in place.
 */
export async function loadZoneWeeks(
	deps: Pick<AppDeps, 'db' | 'clock' | 'config' | 'logger'>,
	viewer: SignedInViewer,
	member: StatsMember,
): Promise<ZoneWeeks | null> {
	if (!checkFeature(viewer, 'heart_rate_zones')) return null;
	return heartRateZoneWeeks(deps, viewer, member, {
		date: localDateOf(deps.clock(), member.timeZone),
		weekType: 'week',
		weekStartDay: member.weekStartDay,
		groups: null,
	});
}
