import { pruneAnalyticsEvents } from '../../analytics/server/service';
import { type JobDefinitions, type JobSchedule, pruneFinishedJobs } from './service';

/**
 * The nightly upkeep: finished jobs are forgotten after a week, raw analytics events after
 * EVENT_RETENTION_DAYS.
 */
export const housekeepingJobs: JobDefinitions = {
	'jobs.prune': { run: async (_payload, deps) => void (await pruneFinishedJobs(deps)) },
	'analytics.prune': { run: async (_payload, deps) => void (await pruneAnalyticsEvents(deps)) },
};

export const housekeepingSchedules: JobSchedule[] = [
	{ kind: 'jobs.prune', cron: '17 3 * * *' },
	{ kind: 'analytics.prune', cron: '27 3 * * *' },
];
