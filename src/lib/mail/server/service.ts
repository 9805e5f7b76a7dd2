import { desc, eq } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { AppDeps } from '../../api/context';
import { outboxMessages } from '../../auth/server/tables';

export type MailMessage = { to: string; subject: string; text: string; userId?: number | null };

type MailDeps = Pick<AppDeps, 'db' | 'config' | 'logger' | 'clock'>;

const transports = new Map<string, Transporter>();
const pending = new Set<Promise<void>>();

function transportFor(smtpUrl: string): Transporter {
	let transport = transports.get(smtpUrl);
	if (!transport) {
		transport = nodemailer.createTransport(smtpUrl);
		transports.set(smtpUrl, transport);
	}
	return transport;
}

/**
 * Every message is written to the outbox first, so nothing is lost when SMTP is down. With
 * SMTP_URL it is then delivered in the background (the request never waits on a mail server,
 * which also keeps "known" and "unknown" email answers equally fast); without it the outbox is
 * the development mailbox.
 */
export async function queueMail(deps: MailDeps, message: MailMessage): Promise<void> {
	const [row] = await deps.db
		.insert(outboxMessages)
		.values({
			userId: message.userId ?? null,
			toAddress: message.to,
			subject: message.subject,
			textBody: message.text,
			createdAt: deps.clock(),
		})
		.returning({ id: outboxMessages.id });
	const smtpUrl = deps.config.smtpUrl;
	if (!smtpUrl) return;
	const delivery = transportFor(smtpUrl)
		.sendMail({ from: deps.config.mailFrom, to: message.to, subject: message.subject, text: message.text })
		.then(async () => {
			await deps.db.update(outboxMessages).set({ sentAt: new Date() }).where(eq(outboxMessages.id, row.id));
		})
		.catch((error: unknown) => {
			deps.logger.error({ err: error, outboxId: row.id }, 'mail delivery failed; it stays in the outbox');
		})
		.finally(() => {
			pending.delete(delivery);
		});
	pending.add(delivery);
}

/**
 * Mail whose making must not hold up the answer: `compose` runs from a queue drained once the
 * request has answered, and its message (if any) goes to the outbox and out like any other. The
 * request itself then does the same work whatever `compose` finds, so its timing tells nothing
 * (a password reset for an address nobody uses answers exactly like one for a member's).
 */
export function queueMailJob(deps: MailDeps, compose: () => Promise<MailMessage | null>): void {
	mailJobs.push(async () => {
		try {
			const message = await compose();
			if (message) await queueMail(deps, message);
		} catch (error) {
			deps.logger.error({ err: error }, 'a queued mail could not be prepared');
		}
	});
	scheduleMailJobs();
}

/**
 * Long enough for the answer that queued a job to be written first: on the embedded database a
 * job's queries run on the same thread as that answer.
 */
const MAIL_JOB_DELAY_MS = 10;
const mailJobs: (() => Promise<void>)[] = [];
let draining: Promise<void> | null = null;

function scheduleMailJobs(): void {
	if (draining || mailJobs.length === 0) return;
	draining = new Promise<void>((resolve) => setTimeout(resolve, MAIL_JOB_DELAY_MS))
		.then(async () => {
			// One at a time: a burst of requests never becomes a burst of database work.
			for (let job = mailJobs.shift(); job; job = mailJobs.shift()) await job();
		})
		.finally(() => {
			draining = null;
			scheduleMailJobs();
		});
}

/** Waits for queued mail jobs and background deliveries (tests, shutdown). */
export async function flushMail(): Promise<void> {
	while (draining || pending.size > 0) await Promise.all([draining, ...pending]);
}

export type MailboxEntry = {
	id: number;
	to: string;
	subject: string;
	text: string;
	createdAt: Date;
	sentAt: Date | null;
};

/** The newest messages, for the development-only mailbox page. */
export async function listMailbox(deps: Pick<AppDeps, 'db'>, limit = 50): Promise<MailboxEntry[]> {
	const rows = await deps.db
		.select()
		.from(outboxMessages)
		.orderBy(desc(outboxMessages.id))
		.limit(Math.min(Math.max(limit, 1), 200));
	return rows.map((row) => ({
		id: row.id,
		to: row.toAddress,
		subject: row.subject,
		text: row.textBody,
		createdAt: row.createdAt,
		sentAt: row.sentAt,
	}));
}
