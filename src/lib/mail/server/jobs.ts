import type { JobDefinitions, JobSchedule } from '../../jobs/server/service';
import {
	DELIVER_MAIL_JOB,
	deliverOutboxMessage,
	MAIL_DELIVERY_ATTEMPTS,
	RESEND_UNSENT_MAIL_JOB,
	resendUnsentMail,
} from './service';

/**
 * Mail that could not be sent at once is tried again with growing pauses, from whichever process
 * is free; a message another process is sending right now is tried again later rather than twice.
 */
export const mailJobs: JobDefinitions = {
	[DELIVER_MAIL_JOB]: {
		maxAttempts: MAIL_DELIVERY_ATTEMPTS,
		leaseSeconds: 120,
		run: async (payload, deps) => {
			if ((await deliverOutboxMessage(deps, Number(payload.outboxId))) === 'busy')
				throw new Error('another process is sending this message');
		},
	},
	[RESEND_UNSENT_MAIL_JOB]: { run: async (_payload, deps) => void (await resendUnsentMail(deps)) },
};

/** Mail a crash left unsent is looked for every five minutes. */
export const mailSchedules: JobSchedule[] = [{ kind: RESEND_UNSENT_MAIL_JOB, cron: '*/5 * * * *' }];
