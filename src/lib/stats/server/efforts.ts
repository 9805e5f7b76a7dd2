import { and, eq, inArray, or } from 'drizzle-orm';
import type { Db } from '../../core/server/deps';
import { activityTypeGroup } from '../../workouts/server/activity-types';
import type { Effort } from '../records';
import { bestEffortQueue, bestEfforts } from './tables';

/** What a workout's best efforts are found and kept from. */
export type EffortSource = {
	id: number;
	/** The version the efforts were found from: only that version leaves the queue. */
	version: number;
	activityTypeId: number;
	start: Date;
	distanceTotal: number | null;
	activeTimeTotal: number | null;
	elapsedTimeTotal: number | null;
};

/**
 * Keeps the efforts found for these workouts in place of any kept before, and takes the versions they
 * were found from off the queue (a workout edited since stays queued). Runs in the caller's transaction:
 * the upload's, which has the recording in hand, or the scan's of workouts the queue still holds.
 */
export async function keepEfforts(
	tx: Db,
	ownerId: number,
	found: readonly { workout: EffortSource; efforts: readonly Effort[] }[],
): Promise<void> {
	if (found.length === 0) return;
	const rows = found.flatMap(({ workout, efforts }) =>
		efforts.map((effort) => ({
			ownerId,
			workoutId: workout.id,
			activityGroup: activityTypeGroup(workout.activityTypeId),
			distanceKey: effort.key,
			seconds: effort.seconds,
			distanceM: effort.distanceM,
			startOffsetS: effort.startOffsetS,
			achievedAt: new Date(workout.start.getTime() + effort.startOffsetS * 1000),
		})),
	);
	await tx.delete(bestEfforts).where(
		inArray(
			bestEfforts.workoutId,
			found.map(({ workout }) => workout.id),
		),
	);
	// Two readers may scan the same new workout at once; both find the same efforts.
	if (rows.length > 0) await tx.insert(bestEfforts).values(rows).onConflictDoNothing();
	await tx
		.delete(bestEffortQueue)
		.where(
			or(
				...found.map(({ workout }) =>
					and(eq(bestEffortQueue.workoutId, workout.id), eq(bestEffortQueue.version, workout.version)),
				),
			),
		);
}
