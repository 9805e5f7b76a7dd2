import type { JobDefinitions, JobSchedule } from '../../jobs/server/service';
import { DUNNING_MAIL_JOB, type DunningMailKind, sendDunningMail } from './dunning';
import { runBillingCycle } from './renewals';

/**
 * The billing cycle (cancellations at period end, renewals, dunning retries, settling payments a
 * processor left pending). It is idempotent by subscription and period, so a retried or doubled
 * run never charges twice. Dunning mail is queued with the payment's outcome, one job per
 * subscription, period and kind of mail.
 */
export const billingJobs: JobDefinitions = {
	'billing.renewals': {
		run: async (_payload, deps) => {
			const report = await runBillingCycle(deps);
			deps.logger.info({ ...report }, 'billing cycle');
		},
		maxAttempts: 3,
	},
	[DUNNING_MAIL_JOB]: {
		run: async (payload, deps) =>
			sendDunningMail(
				deps,
				payload as { subscriptionId: number; periodStart: string; kind: DunningMailKind },
			),
	},
};

export const billingSchedules: JobSchedule[] = [{ kind: 'billing.renewals', cron: '*/15 * * * *' }];
