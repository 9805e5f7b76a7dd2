import { and, eq, inArray, sql } from 'drizzle-orm';
import { formatApiDateTime } from '../../core/dates';
import type { AppDeps } from '../../core/server/deps';
import type { StoredSeries } from '../../workouts/series';
import { visibleCondition } from '../../workouts/server/service';
import { workoutSeries, workouts } from '../../workouts/server/tables';
import { effortsOf, ordinal, RECORD_TARGETS, recordsFrom } from '../records';
import { cachedFor, workoutsFingerprint } from './cache';
import { keepEfforts } from './efforts';
import type { StatsMember } from './facts';
import { bestEffortQueue, bestEfforts } from './tables';

type Deps = Pick<AppDeps, 'db' | 'clock'>;
type Viewer = { id: number } | null;

/** Series are read a few at a time: a 12-hour recording is a few megabytes. */
const SERIES_BATCH = 20;

/**
 * Finds the best efforts of a member's workouts not yet looked at (edited or cut since, or stored
 * before efforts were kept on upload: the database queues them, see bestEffortQueue), and keeps them.
 * Reading records calls this first.
 */
export async function scanEfforts(deps: Deps, ownerId: number): Promise<number> {
	const pending = await deps.db
		.select({
			id: workouts.id,
			version: workouts.version,
			activityTypeId: workouts.activityTypeId,
			start: workouts.startDatetime,
			distanceTotal: workouts.distanceTotal,
			activeTimeTotal: workouts.activeTimeTotal,
			elapsedTimeTotal: workouts.elapsedTimeTotal,
			sampleCount: workouts.sampleCount,
		})
		.from(bestEffortQueue)
		.innerJoin(workouts, eq(workouts.id, bestEffortQueue.workoutId))
		.where(eq(bestEffortQueue.ownerId, ownerId));
	if (pending.length === 0) return 0;
	for (let from = 0; from < pending.length; from += SERIES_BATCH) {
		const batch = pending.slice(from, from + SERIES_BATCH);
		const recorded = batch.filter((row) => row.sampleCount >= 2).map((row) => row.id);
		const seriesRows =
			recorded.length === 0
				? []
				: await deps.db
						.select({
							workoutId: workoutSeries.workoutId,
							// Only the channels distances and times come from: a long recording's heart rate, power and
							// heights are most of its stored series, and reading them cost as much as the search.
							series: sql<StoredSeries>`jsonb_build_object('v', 1, 't', ${workoutSeries.series}->'t', 'lat', ${workoutSeries.series}->'lat', 'lng', ${workoutSeries.series}->'lng', 'dist', ${workoutSeries.series}->'dist')`,
						})
						.from(workoutSeries)
						.where(inArray(workoutSeries.workoutId, recorded));
		const seriesOf = new Map(seriesRows.map((row) => [row.workoutId, row.series]));
		const found = batch.map((workout) => ({
			workout,
			efforts: effortsOf(workout, seriesOf.get(workout.id) ?? null),
		}));
		await deps.db.transaction((tx) => keepEfforts(tx, ownerId, found));
	}
	return pending.length;
}

export type RecordView = {
	activity_group: string;
	distance: string;
	label: string;
	metres: number;
	best: { workout: number; seconds: number; achieved_at: string };
	history: { workout: number; seconds: number; achieved_at: string }[];
	efforts: number;
};

/**
 * A member's personal records per sport and distance over the workouts the viewer may see, each with
 * the workout it came from and the records it broke on the way; with `workoutId`, where that
 * workout's efforts rank ("2nd best 5 km").
 */
export async function personalRecords(
	deps: Deps,
	viewer: Viewer,
	member: StatsMember,
	workoutId?: number,
): Promise<PersonalRecords> {
	const fingerprint = await workoutsFingerprint(deps, member.id);
	// Looked for once per change of the member's workouts; the answer is kept until the next one.
	await cachedFor(deps, `scan|${member.id}`, fingerprint, () => scanEfforts(deps, member.id));
	return cachedFor(deps, `records|${member.id}|${member.relation}|${workoutId ?? ''}`, fingerprint, () =>
		readRecords(deps, viewer, member, workoutId),
	);
}

type PersonalRecords = {
	records: RecordView[];
	workout_ranks: { distance: string; label: string; rank: number; text: string }[];
};

async function readRecords(
	deps: Deps,
	viewer: Viewer,
	member: StatsMember,
	workoutId?: number,
): Promise<PersonalRecords> {
	const conditions = [eq(bestEfforts.ownerId, member.id)];
	if (!member.isSelf) conditions.push(visibleCondition(viewer));
	const rows = await deps.db
		.select({
			workoutId: bestEfforts.workoutId,
			key: bestEfforts.distanceKey,
			group: bestEfforts.activityGroup,
			seconds: bestEfforts.seconds,
			achievedAt: bestEfforts.achievedAt,
		})
		.from(bestEfforts)
		.innerJoin(workouts, eq(workouts.id, bestEfforts.workoutId))
		.where(and(...conditions));
	const labels = new Map(RECORD_TARGETS.map((target) => [target.key, target]));
	const view = (row: (typeof rows)[number]) => ({
		workout: row.workoutId,
		seconds: Math.round(row.seconds * 10) / 10,
		achieved_at: formatApiDateTime(row.achievedAt),
	});
	const grouped = recordsFrom(rows);
	const records = grouped.map((entry) => ({
		activity_group: entry.group,
		distance: entry.key,
		label: labels.get(entry.key)?.label ?? entry.key,
		metres: labels.get(entry.key)?.metres ?? 0,
		best: view(entry.best),
		history: entry.history.map(view),
		efforts: entry.ranked.length,
	}));
	const workout_ranks =
		workoutId === undefined
			? []
			: grouped.flatMap((entry) => {
					const index = entry.ranked.findIndex((row) => row.workoutId === workoutId);
					if (index < 0) return [];
					const label = labels.get(entry.key)?.label ?? entry.key;
					return [
						{
							distance: entry.key,
							label,
							rank: index + 1,
							text: index === 0 ? `Best ${label}` : `${ordinal(index + 1)} best ${label}`,
						},
					];
				});
	return { records, workout_ranks };
}
