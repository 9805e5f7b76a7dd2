import type { AppDeps } from '../../api/context';
import { enqueueJob, type JobDefinitions, type JobSchedule } from '../../jobs/server/service';
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
