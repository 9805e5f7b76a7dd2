import { and, asc, eq, gte, inArray, isNotNull, lt } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { getHeartRateZones } from '../../account/server/service';
import type { Viewer } from '../../auth/viewer';
import { checkFeature } from '../../billing/features';
import { AppError } from '../../core/errors';
import { approximateBytes } from '../../core/server/byte-size';
import type { AppDeps } from '../../core/server/deps';
import type { ActivityGroup } from '../../workouts/activity-groups';
import { type HeartRateZone, timeInZones } from '../../workouts/analysis';
import { decodeSeries } from '../../workouts/series';
import { activityTypeGroup } from '../../workouts/server/activity-types';
import { workoutSeries, workouts } from '../../workouts/server/tables';
import { bucketStart, type WeekType } from '../aggregate';
import { addDays, dateKey, type LocalDate, localDateOf, startOfLocalDay, type WeekDay } from '../calendar';
import type { ZoneWeek, ZoneWeeks } from '../contract';
import type { StatsMember } from './facts';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'logger'>;

/** Weeks the stats page shows, ending with the chosen one. */
export const ZONE_WEEKS = 8;

/**
 * Seconds in each zone per workout, by everything they depend on (the workout, its version and the
 * zones), so a stats page seen again does not decode a year of heart-rate series once more.
 */
const perWorkout = new LRUCache<string, number[]>({
	maxSize: 2 * 1024 * 1024,
	sizeCalculation: (seconds, key) => approximateBytes(seconds) + key.length * 2 + 64,
});

/**
 * Time in each heart-rate zone per week: MVP only, and only the member's own (zones are health
 * data, as on the workout page). Weeks follow the stats' week type and the member's start day, in
 * their zone; each workout's time is summed from its heart-rate series as the workout page does.
 */
export async function heartRateZoneWeeks(
	deps: Deps,
	viewer: Viewer,
	member: StatsMember,
	options: {
		date: LocalDate;
		weekType: WeekType;
		weekStartDay: WeekDay;
		groups: ActivityGroup[] | null;
		count?: number;
	},
): Promise<ZoneWeeks> {
	if (!checkFeature(viewer, 'heart_rate_zones'))
		throw new AppError('forbidden', 'Heart-rate zone analysis is part of MVP.', {
			detail: 'premium_required',
		});
	if (!member.isSelf) throw new AppError('not_found', 'No such member');
	const zones = (await getHeartRateZones(deps, viewer, viewer.id))._embedded.heart_rate_zones[0].zones;
	const zone = member.timeZone;
	const bucket = {
		weekType: options.weekType,
		weekStartDay: options.weekStartDay,
		anchor: localDateOf(deps.clock(), zone),
	};
	const lastFirst = bucketStart(options.date, 'week', bucket);
	const firsts = Array.from({ length: options.count ?? ZONE_WEEKS }, (_, i) =>
		addDays(lastFirst, -7 * i),
	).reverse();
	const weeks = new Map<string, ZoneWeek>(
		firsts.map((first) => [
			dateKey(first),
			{ first: dateKey(first), last: dateKey(addDays(first, 6)), seconds: zones.map(() => 0), workouts: 0 },
		]),
	);
	const rows = await deps.db
		.select({
			id: workouts.id,
			activityTypeId: workouts.activityTypeId,
			start: workouts.startDatetime,
			version: workouts.version,
			createdAt: workouts.createdAt,
		})
		.from(workouts)
		.where(
			and(
				eq(workouts.ownerId, member.id),
				isNotNull(workouts.heartrateAvg),
				gte(workouts.startDatetime, startOfLocalDay(firsts[0], zone)),
				lt(workouts.startDatetime, startOfLocalDay(addDays(lastFirst, 7), zone)),
			),
		)
		.orderBy(asc(workouts.startDatetime));
	const wanted = options.groups ? new Set(options.groups) : null;
	const picked = wanted ? rows.filter((row) => wanted.has(activityTypeGroup(row.activityTypeId))) : rows;
	const secondsByWorkout = await zoneSecondsOf(deps, picked, zones);
	for (const row of picked) {
		const seconds = secondsByWorkout.get(row.id) ?? [];
		const week = weeks.get(dateKey(bucketStart(localDateOf(row.start, zone), 'week', bucket)));
		if (!week || !seconds.some((value) => value > 0)) continue;
		week.workouts += 1;
		seconds.forEach((value, i) => {
			week.seconds[i] += value;
		});
	}
	return { zones, weeks: [...weeks.values()] };
}

/**
 * Seconds in each of the member's zones for each workout, summed from its heart-rate series as the
 * workout page does; kept per workout version and zones, so a page seen again decodes nothing.
 */
export async function zoneSecondsOf(
	deps: Pick<AppDeps, 'db'>,
	rows: readonly { id: number; createdAt: Date; version: number }[],
	zones: readonly HeartRateZone[],
): Promise<Map<number, number[]>> {
	const keyOf = (row: (typeof rows)[number]) =>
		JSON.stringify([row.id, row.createdAt.getTime(), row.version, zones]);
	const missing = rows.filter((row) => !perWorkout.has(keyOf(row)));
	if (missing.length > 0) {
		const stored = await deps.db
			.select({ workoutId: workoutSeries.workoutId, series: workoutSeries.series })
			.from(workoutSeries)
			.where(
				inArray(
					workoutSeries.workoutId,
					missing.map((row) => row.id),
				),
			);
		const byId = new Map(stored.map((entry) => [entry.workoutId, entry.series]));
		for (const row of missing) {
			const series = byId.get(row.id);
			const samples = series ? decodeSeries(series) : [];
			perWorkout.set(
				keyOf(row),
				timeInZones(samples, zones).map((entry) => entry.seconds),
			);
		}
	}
	return new Map(rows.map((row) => [row.id, perWorkout.get(keyOf(row)) ?? []]));
}
