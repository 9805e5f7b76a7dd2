import type { JobDefinitions, JobSchedule } from '../../jobs/server/service';
import { runBillingCycle } from './service';

/**
 * The billing cycle (cancellations at period end, renewals, dunning retries, settling payments a
 * processor left pending). It is idempotent by subscription and period, so a retried or doubled
 * run never charges twice.
 */
export const billingJobs: JobDefinitions = {
	'billing.renewals': {
		run: async (_payload, deps) => {
			const report = await runBillingCycle(deps);
			deps.logger.info({ ...report }, 'billing cycle');
		},
		maxAttempts: 3,
	},
};

export const billingSchedules: JobSchedule[] = [{ kind: 'billing.renewals', cron: '*/15 * * * *' }];
