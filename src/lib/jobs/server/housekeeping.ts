import { pruneAnalyticsEvents } from '../../analytics/server/service';
import { refreshPlannerStatistics } from '../../db/client';
import { type JobDefinitions, type JobSchedule, pruneFinishedJobs } from './service';

/**
 * The upkeep: nightly, finished jobs are forgotten after a week and raw analytics events after
 * EVENT_RETENTION_DAYS; hourly, the embedded database's planner statistics are brought up to date.
 */
export const housekeepingJobs: JobDefinitions = {
	'jobs.prune': { run: async (_payload, deps) => void (await pruneFinishedJobs(deps)) },
	'analytics.prune': { run: async (_payload, deps) => void (await pruneAnalyticsEvents(deps)) },
	'db.analyze': { run: async (_payload, deps) => void (await refreshPlannerStatistics(deps.db)) },
};

export const housekeepingSchedules: JobSchedule[] = [
	{ kind: 'jobs.prune', cron: '17 3 * * *' },
	{ kind: 'analytics.prune', cron: '27 3 * * *' },
	{ kind: 'db.analyze', cron: '41 * * * *' },
];
