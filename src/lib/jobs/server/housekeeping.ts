import { type JobDefinitions, type JobSchedule, pruneFinishedJobs } from './service';

/** The queue's own upkeep: finished jobs are forgotten after a week, once a night. */
export const housekeepingJobs: JobDefinitions = {
	'jobs.prune': { run: async (_payload, deps) => void (await pruneFinishedJobs(deps)) },
};

export const housekeepingSchedules: JobSchedule[] = [{ kind: 'jobs.prune', cron: '17 3 * * *' }];
