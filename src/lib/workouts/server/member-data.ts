import path from 'node:path';
import { formatApiDateTime } from '../../core/dates';
import type { DeletionStep, ExportPart } from '../../core/server/member-data';
import { removeMemberImportFiles } from './bulk-import';
import { hasOriginalFile, originalFile } from './detail';
import { removeWorkoutPhotoFiles, workoutPhotoFolder } from './photo-files';
import { listWorkoutPhotos } from './photos';
import { removeMemberUploadFiles } from './resumable-uploads';
import { aggregatesOf, listAllOwnWorkouts } from './service';
import { workoutOriginals, workoutPhotos, workouts } from './tables';

/** The member's workouts: a list, the files they uploaded as they uploaded them, and their photos. */
export const workoutsExport: ExportPart = {
	name: 'workouts',
	tables: [workouts, workoutOriginals, workoutPhotos],
	write: async (deps, member, archive) => {
		const { workouts: own } = await listAllOwnWorkouts(deps, member, {});
		const entries = [];
		for (const workout of own) {
			let original: string | null = null;
			if (await hasOriginalFile(deps, workout.id)) {
				const file = await originalFile(deps, member, workout.id);
				original = `workouts/${workout.id}-${file.fileName}`;
				archive.addBytes(original, file.body);
			}
			const photos = [];
			for (const photo of await listWorkoutPhotos(deps, workout.id)) {
				const file = `photos/workout-${workout.id}-${photo.id}.jpg`;
				archive.addFile(
					file,
					path.join(workoutPhotoFolder(deps.config, member.id, workout.id), `${photo.fileStem}-large.jpg`),
				);
				photos.push({
					id: photo.id,
					width: photo.width,
					height: photo.height,
					created_datetime: formatApiDateTime(photo.createdAt),
					file,
				});
			}
			entries.push({
				id: workout.id,
				name: workout.name,
				activity_type: workout.activityTypeId,
				start_datetime: formatApiDateTime(workout.startDatetime),
				aggregates: aggregatesOf(workout),
				privacy: workout.privacy,
				gear: workout.gearId,
				original_file: original,
				photos,
			});
		}
		archive.addJson('workouts.json', entries);
	},
};

/**
 * Files of imports and uploads under way go while their rows name them; the photos' folder is the
 * member's own and goes once the rows have.
 */
export const workoutsDeletion: DeletionStep = {
	name: 'workout files',
	beforeRows: async (deps, member) => {
		await removeMemberImportFiles(deps, member.id);
		await removeMemberUploadFiles(deps, member.id);
	},
	afterRows: (deps, member) => removeWorkoutPhotoFiles(deps.config, member.id),
};
