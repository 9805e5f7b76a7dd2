import * as v from 'valibot';
import type { Viewer as SignedInViewer } from '../../auth/viewer';
import { checkFeature } from '../../billing/features';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../../core/server/deps';
import type { ActivityGroup } from '../../workouts/activity-groups';
import { localDateOf } from '../calendar';
import type { CalendarMonth, StatsAnswer, TrainingLoadView, ZoneWeeks } from '../contract';
import { STATS_FILTER_KEYS, StatsQuerySchema } from '../contract';
import { type StatsMember, statsMember } from './facts';
import { personalRecords } from './records';
import { calendarMonth, memberGroups, memberStats, type StatsQuery, statsQueryOf } from './service';
import { trainingLoad } from './training-load';
import { heartRateZoneWeeks } from './zones';

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
): Promise<{ member: StatsMember; query: StatsQuery; stats: StatsAnswer; groups: ActivityGroup[] }> {
	const member = await statsMember(deps, viewer, viewer.id);
	const raw: Record<string, string> = {};
	const groups = params.getAll('activity_groups').join(',');
	if (groups) raw.activity_groups = groups;
	for (const key of STATS_FILTER_KEYS) {
		const value = params.get(key);
		if (value) raw[key] = value;
	}
	const parsed = v.safeParse(StatsQuerySchema, raw);
	const query = statsQueryOf(
		parsed.success ? parsed.output : {},
		member,
		localDateOf(deps.clock(), member.timeZone),
	);
	const stats = await memberStats(deps, viewer, member, query);
	return { member, query, stats, groups: await memberGroups(deps, viewer, member) };
}

/**
 * The stats page's heart-rate zones for its first paint, for the same filters as the figures
 * above (the island asks the API again when they change); null without MVP, so free members get
 * the offer and never the data.
 */
export async function loadZoneWeeks(
	deps: Pick<AppDeps, 'db' | 'clock' | 'config' | 'logger'>,
	viewer: SignedInViewer,
	member: StatsMember,
	query: StatsQuery,
): Promise<ZoneWeeks | null> {
	if (!checkFeature(viewer, 'heart_rate_zones')) return null;
	return heartRateZoneWeeks(deps, viewer, member, query);
}

/** Fitness and form for the stats pages: the member's own twelve weeks to today, in their zone. */
export function loadTrainingLoad(
	deps: Pick<AppDeps, 'db' | 'clock' | 'config' | 'logger'>,
	viewer: SignedInViewer,
	member: StatsMember,
): Promise<TrainingLoadView> {
	return trainingLoad(deps, viewer, member, localDateOf(deps.clock(), member.timeZone));
}
