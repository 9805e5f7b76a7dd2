import { AppError } from '../../core/errors';
import type { AppDeps } from '../../core/server/deps';
import { enqueueJob, type JobDefinitions, type JobSchedule } from '../../jobs/server/service';
import { applyProcessingConsents } from '../../workouts/server/consent-hold';
import { APPLY_PROCESSING_CONSENTS_JOB } from './consents';
import { buildExport, failExport, removeExpiredExports } from './service';

const EXPORT_ATTEMPTS = 5;

/**
 * Builds a member's data export in the background; a restart picks it up again. The build is
 * idempotent (a finished export is left alone, the mail goes once), and after its last try the
 * export is marked failed so the manage page offers to ask again.
 */
export const privacyJobs: JobDefinitions = {
	'privacy.export': {
		maxAttempts: EXPORT_ATTEMPTS,
		// Each build reads a member's whole history and writes a zip: one at a time across processes.
		concurrency: 1,
		run: async (payload, deps, job) => {
			const exportId = Number(payload.exportId);
			try {
				await buildExport(deps, exportId);
			} catch (error) {
				if (job.attempt >= EXPORT_ATTEMPTS) await failExport(deps, exportId);
				throw error;
			}
		},
	},
	// A member who left in between has nothing left to apply their consents to.
	[APPLY_PROCESSING_CONSENTS_JOB]: {
		run: async (payload, deps) => {
			try {
				await applyProcessingConsents(deps, Number(payload.userId));
			} catch (error) {
				if (!(error instanceof AppError && error.code === 'unauthenticated')) throw error;
			}
		},
	},
	'privacy.expire-exports': { run: async (_payload, deps) => void (await removeExpiredExports(deps)) },
};

/** Archives whose link has expired leave the disk every hour. */
export const privacySchedules: JobSchedule[] = [{ kind: 'privacy.expire-exports', cron: '41 * * * *' }];

/** Queues the build of an export, once however often it is asked for. */
export async function startExport(deps: Pick<AppDeps, 'db' | 'clock'>, exportId: number): Promise<void> {
	await enqueueJob(deps, {
		kind: 'privacy.export',
		payload: { exportId },
		uniqueKey: `privacy.export:${exportId}`,
		maxAttempts: EXPORT_ATTEMPTS,
	});
}
