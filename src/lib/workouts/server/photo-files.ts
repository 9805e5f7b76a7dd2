import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../core/config';

/**
 * Where workout photos live on disk: one folder per member, one per workout inside it, so removing
 * a workout or a member removes a folder and nothing is left behind.
 */
export function workoutPhotoFolder(
	config: Pick<Config, 'dataDir'>,
	ownerId: number,
	workoutId?: number,
): string {
	const member = path.resolve(config.dataDir, 'uploads', 'workout-photos', String(ownerId));
	return workoutId === undefined ? member : path.join(member, String(workoutId));
}

/** Removes a workout's photo files, or with no workout every photo file of the member. */
export async function removeWorkoutPhotoFiles(
	config: Pick<Config, 'dataDir'>,
	ownerId: number,
	workoutId?: number,
): Promise<void> {
	await rm(workoutPhotoFolder(config, ownerId, workoutId), { recursive: true, force: true });
}
