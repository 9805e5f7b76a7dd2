import type { JobDefinitions, JobSchedule } from '../../jobs/server/service';
import { BULK_IMPORT_ATTEMPTS, BULK_IMPORT_JOB, finishBulkImport, runBulkImport } from './bulk-import';
import { sweepWorkoutUploads } from './resumable-uploads';

const SWEEP_UPLOADS_JOB = 'workouts.sweep-uploads';

/**
 * Imports a zip of workout files in the background. Each file's outcome is recorded as it goes, so
 * a retry after a crash carries on; after the last try the import is marked failed. Every hour,
 * resumable uploads past their expiry leave the disk.
 */
export const workoutJobs: JobDefinitions = {
	[BULK_IMPORT_JOB]: {
		maxAttempts: BULK_IMPORT_ATTEMPTS,
		leaseSeconds: 1800,
		// Reading thousands of files is heavy: two imports at a time, however many processes run.
		concurrency: 2,
		run: async (payload, deps, job) => {
			const importId = Number(payload.importId);
			try {
				await runBulkImport(deps, importId);
			} catch (error) {
				if (job.attempt >= BULK_IMPORT_ATTEMPTS)
					await finishBulkImport(
						deps,
						importId,
						'failed',
						'The import stopped on an error; try again later.',
					);
				throw error;
			}
		},
	},
	[SWEEP_UPLOADS_JOB]: { run: async (_payload, deps) => void (await sweepWorkoutUploads(deps)) },
};

export const workoutSchedules: JobSchedule[] = [{ kind: SWEEP_UPLOADS_JOB, cron: '23 * * * *' }];
