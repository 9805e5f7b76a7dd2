import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { AppDeps } from '../../api/context';
import { decodeSeries, type StoredSeries } from '../../workouts/series';
import { activityTypeGroup } from '../../workouts/server/activity-types';
import { visibleCondition } from '../../workouts/server/service';
import { workoutSeries, workouts } from '../../workouts/server/tables';
import {
	cumulativeDistance,
	type Effort,
	effortsInRecording,
	effortsOfWholeWorkout,
	ordinal,
	RECORD_TARGETS,
	recordsFrom,
} from '../records';
import { cachedFor, workoutsFingerprint } from './cache';
import type { StatsMember } from './facts';
import { bestEffortQueue, bestEfforts } from './tables';

type Deps = Pick<AppDeps, 'db' | 'clock'>;
type Viewer = { id: number } | null;

/** Series are read a few at a time: a 12-hour recording is a few megabytes. */
const SERIES_BATCH = 20;

/** The best efforts of one workout, from its recording when it has one. */
export function effortsOf(
	workout: { distanceTotal: number | null; activeTimeTotal: number | null; elapsedTimeTotal: number | null },
	series: Parameters<typeof decodeSeries>[0] | null,
): Effort[] {
	if (series && series.t.length >= 2) {
		const samples = decodeSeries(series);
		const offsets = new Float64Array(samples.length);
		for (let i = 0; i < samples.length; i++) offsets[i] = samples[i].offsetMs;
		return effortsInRecording(offsets, cumulativeDistance(samples));
	}
	return effortsOfWholeWorkout(workout.distanceTotal, workout.activeTimeTotal ?? workout.elapsedTimeTotal);
}

/**
 * Finds the best efforts of a member's workouts not yet looked at (new, or edited since: the
 * database queues them, see bestEffortQueue), and keeps them. Reading records calls this first, so
 * a new upload's efforts are there when it is next read.
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
		const efforts = batch.flatMap((row) =>
			effortsOf(row, seriesOf.get(row.id) ?? null).map((effort) => ({
				ownerId,
				workoutId: row.id,
				activityGroup: activityTypeGroup(row.activityTypeId),
				distanceKey: effort.key,
				seconds: effort.seconds,
				distanceM: effort.distanceM,
				startOffsetS: effort.startOffsetS,
				achievedAt: new Date(row.start.getTime() + effort.startOffsetS * 1000),
			})),
		);
		const ids = batch.map((row) => row.id);
		await deps.db.transaction(async (tx) => {
			await tx.delete(bestEfforts).where(inArray(bestEfforts.workoutId, ids));
			// Two readers may scan the same new workout at once; both find the same efforts.
			if (efforts.length > 0) await tx.insert(bestEfforts).values(efforts).onConflictDoNothing();
			// Only the version that was read leaves the queue: one edited meanwhile stays for the next look.
			await tx
				.delete(bestEffortQueue)
				.where(
					or(
						...batch.map((row) =>
							and(eq(bestEffortQueue.workoutId, row.id), eq(bestEffortQueue.version, row.version)),
						),
					),
				);
		});
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
		achieved_at: row.achievedAt.toISOString(),
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
