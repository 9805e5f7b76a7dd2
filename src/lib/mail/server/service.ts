import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, asc, desc, eq, isNull, lt, or } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import { outboxMessages, users } from '../../auth/server/tables';
import type { AppDeps } from '../../core/server/deps';
import { enqueueJob } from '../../jobs/server/service';
import {
	EMAIL_CATEGORIES,
	EMAIL_CATEGORY_LABELS,
	type EmailCategory,
	type EmailPreference,
	ONE_CLICK_UNSUBSCRIBE_API,
	UNSUBSCRIBE_PAGE,
	type UnsubscribeQuery,
} from '../contract';
import { emailOptOuts } from './tables';

/**
 * One e-mail. With a `category` it is one a member may turn off: it goes only to a member
 * (`userId`) who has not, and carries an unsubscribe link. Without one it is essential and says so.
 */
export type MailMessage = {
	to: string;
	subject: string;
	text: string;
	userId?: number | null;
	category?: EmailCategory;
	/** Where an answer should go when it is not the sender (a support request's author). */
	replyTo?: string;
	/** Mail to our own team, which no preference concerns: it carries no footer about them. */
	internal?: boolean;
};

const ESSENTIAL_FOOTER =
	'This e-mail is about your account or something you asked for, so it is sent whatever your e-mail preferences.';

type MailDeps = Pick<AppDeps, 'db' | 'config' | 'logger' | 'clock'>;

const transports = new Map<string, Transporter>();
const pending = new Set<Promise<void>>();

function transportFor(smtpUrl: string): Transporter {
	let transport = transports.get(smtpUrl);
	if (!transport) {
		// Bounded waits: a mail server that hangs must not hold a message's claim past its lease.
		transport = nodemailer.createTransport(smtpUrl, {
			connectionTimeout: 10_000,
			greetingTimeout: 10_000,
			socketTimeout: 30_000,
		} as Parameters<typeof nodemailer.createTransport>[1]);
		transports.set(smtpUrl, transport);
	}
	return transport;
}

/**
 * Every message is written to the outbox first, so nothing is lost when SMTP is down. With
 * SMTP_URL it is then delivered in the background (the request never waits on a mail server,
 * which also keeps "known" and "unknown" email answers equally fast); a delivery that fails becomes
 * a job that tries again with growing pauses, and mail a crash left unsent is found every few
 * minutes. Without SMTP_URL the outbox is the development mailbox.
 */
export async function queueMail(deps: MailDeps, message: MailMessage): Promise<void> {
	const { category } = message;
	let text = message.internal ? message.text : `${message.text.trimEnd()}\n\n--\n${ESSENTIAL_FOOTER}\n`;
	let headers: Record<string, string> = {};
	if (category) {
		// Optional mail without a member to ask cannot be turned off, so it is not sent at all.
		if (!message.userId || (await hasOptedOut(deps, message.userId, category))) return;
		const links = unsubscribeLinks(deps.config, message.userId, category);
		const { kind } = EMAIL_CATEGORY_LABELS[category];
		text = `${message.text.trimEnd()}\n\n--\nYou get this e-mail because ${kind} e-mails are on in your settings. To stop them, open:\n${links.page}\n`;
		headers = {
			'List-Unsubscribe': `<${links.oneClick}>`,
			'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
		};
	}
	const [row] = await deps.db
		.insert(outboxMessages)
		.values({
			userId: message.userId ?? null,
			toAddress: message.to,
			subject: message.subject,
			textBody: text,
			replyTo: message.replyTo ?? null,
			headers,
			createdAt: deps.clock(),
		})
		.returning({ id: outboxMessages.id });
	if (!deps.config.smtpUrl) return;
	const delivery: Promise<void> = deliverOutboxMessage(deps, row.id)
		.then(() => undefined)
		.catch(async (error: unknown) => {
			deps.logger.error({ err: error, outboxId: row.id }, 'mail delivery failed; it will be tried again');
			await retryDelivery(deps, row.id, FIRST_RETRY_SECONDS);
		})
		.catch((error: unknown) => {
			// The database itself is gone (a shutdown): the sweep finds the message at the next start.
			deps.logger.error({ err: error, outboxId: row.id }, 'mail retry could not be queued');
		})
		.finally(() => {
			pending.delete(delivery);
		});
	pending.add(delivery);
}

/** Job kinds: one message's delivery, and the sweep for messages nobody is delivering. */
export const DELIVER_MAIL_JOB = 'mail.deliver';
export const RESEND_UNSENT_MAIL_JOB = 'mail.resend-unsent';
/** With the job pauses (30 s doubling to an hour) this keeps trying for about six hours. */
export const MAIL_DELIVERY_ATTEMPTS = 12;
const FIRST_RETRY_SECONDS = 30;
/** How long one process may take to hand a message to SMTP before another may try it. */
const SENDING_LEASE_MS = 60_000;
/** A message this old and unsent, with nobody sending it, was left by a crash or a failed queueing. */
const UNSENT_AFTER_MS = 2 * 60_000;

/** Queues another try of one message; asking twice queues one. */
async function retryDelivery(deps: MailDeps, outboxId: number, afterSeconds: number): Promise<void> {
	await enqueueJob(deps, {
		kind: DELIVER_MAIL_JOB,
		payload: { outboxId },
		uniqueKey: `${DELIVER_MAIL_JOB}:${outboxId}`,
		runAt: new Date(deps.clock().getTime() + afterSeconds * 1000),
		maxAttempts: MAIL_DELIVERY_ATTEMPTS,
	});
}

/**
 * Hands one outbox message to SMTP unless it was sent already (`sent`) or another process is
 * handing it over right now (`busy`). The message is claimed first, so two processes never both
 * send it; SMTP refusing it throws, and the claim is let go for the next try.
 */
export async function deliverOutboxMessage(
	deps: MailDeps,
	outboxId: number,
): Promise<'delivered' | 'sent' | 'busy'> {
	const smtpUrl = deps.config.smtpUrl;
	if (!smtpUrl) throw new Error('SMTP_URL is not set');
	const now = deps.clock();
	const [message] = await deps.db
		.update(outboxMessages)
		.set({ sendingUntil: new Date(now.getTime() + SENDING_LEASE_MS) })
		.where(
			and(
				eq(outboxMessages.id, outboxId),
				isNull(outboxMessages.sentAt),
				or(isNull(outboxMessages.sendingUntil), lt(outboxMessages.sendingUntil, now)),
			),
		)
		.returning();
	if (!message) {
		const [row] = await deps.db
			.select({ sentAt: outboxMessages.sentAt })
			.from(outboxMessages)
			.where(eq(outboxMessages.id, outboxId));
		return !row || row.sentAt ? 'sent' : 'busy';
	}
	try {
		await transportFor(smtpUrl).sendMail({
			from: deps.config.mailFrom,
			to: message.toAddress,
			replyTo: message.replyTo ?? undefined,
			subject: message.subject,
			text: message.textBody,
			headers: message.headers,
		});
	} catch (error) {
		await deps.db.update(outboxMessages).set({ sendingUntil: null }).where(eq(outboxMessages.id, outboxId));
		throw error;
	}
	await deps.db
		.update(outboxMessages)
		.set({ sentAt: deps.clock(), sendingUntil: null })
		.where(eq(outboxMessages.id, outboxId));
	return 'delivered';
}

/** Queues a delivery for every message a crash or a lost retry left unsent; answers how many. */
export async function resendUnsentMail(deps: MailDeps): Promise<number> {
	if (!deps.config.smtpUrl) return 0;
	const now = deps.clock().getTime();
	const rows = await deps.db
		.select({ id: outboxMessages.id })
		.from(outboxMessages)
		.where(
			and(
				isNull(outboxMessages.sentAt),
				lt(outboxMessages.createdAt, new Date(now - UNSENT_AFTER_MS)),
				or(isNull(outboxMessages.sendingUntil), lt(outboxMessages.sendingUntil, new Date(now))),
			),
		)
		.orderBy(asc(outboxMessages.id))
		.limit(500);
	let queued = 0;
	for (const row of rows) {
		const { created } = await enqueueJob(deps, {
			kind: DELIVER_MAIL_JOB,
			payload: { outboxId: row.id },
			uniqueKey: `${DELIVER_MAIL_JOB}:${row.id}`,
			maxAttempts: MAIL_DELIVERY_ATTEMPTS,
		});
		if (created) queued++;
	}
	if (queued) deps.logger.warn({ queued }, 'unsent mail found and queued again');
	return queued;
}

/**
 * Mail whose making must not hold up the answer: `compose` runs from a queue drained once the
 * request has answered, and its message (if any) goes to the outbox and out like any other. The
 * request itself then does the same work whatever `compose` finds, so its timing tells nothing
 * (a password reset for an address nobody uses answers exactly like one for a member's).
 */
export function queueMailJob(deps: MailDeps, compose: () => Promise<MailMessage | null>): void {
	composeQueue.push(async () => {
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
const composeQueue: (() => Promise<void>)[] = [];
let draining: Promise<void> | null = null;

function scheduleMailJobs(): void {
	if (draining || composeQueue.length === 0) return;
	draining = new Promise<void>((resolve) => setTimeout(resolve, MAIL_JOB_DELAY_MS))
		.then(async () => {
			// One at a time: a burst of requests never becomes a burst of database work.
			for (let job = composeQueue.shift(); job; job = composeQueue.shift()) await job();
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

function unsubscribeToken(secret: string, userId: number, category: EmailCategory): string {
	return createHmac('sha256', secret).update(`email-unsubscribe:${userId}:${category}`).digest('base64url');
}

/**
 * The page link for the message body and the RFC 8058 one-click address for the header. The token
 * signs member and kind together, so a link turns off that kind for that member and nothing else,
 * without logging in.
 */
export function unsubscribeLinks(
	config: Pick<AppDeps['config'], 'publicUrl' | 'sessionSecret'>,
	userId: number,
	category: EmailCategory,
): { page: string; oneClick: string } {
	const query = new URLSearchParams({
		member: String(userId),
		category,
		token: unsubscribeToken(config.sessionSecret, userId, category),
	});
	return {
		page: `${config.publicUrl}${UNSUBSCRIBE_PAGE}?${query}`,
		oneClick: `${config.publicUrl}${ONE_CLICK_UNSUBSCRIBE_API}?${query}`,
	};
}

/** The member an unsubscribe link speaks for, or null when its token was not made by us for them. */
export function checkUnsubscribeLink(
	config: Pick<AppDeps['config'], 'sessionSecret'>,
	query: UnsubscribeQuery,
): number | null {
	const userId = Number(query.member);
	const expected = Buffer.from(unsubscribeToken(config.sessionSecret, userId, query.category));
	const given = Buffer.from(query.token);
	return given.length === expected.length && timingSafeEqual(given, expected) ? userId : null;
}

async function hasOptedOut(deps: Pick<AppDeps, 'db'>, userId: number, category: EmailCategory) {
	const [row] = await deps.db
		.select({ userId: emailOptOuts.userId })
		.from(emailOptOuts)
		.where(and(eq(emailOptOuts.userId, userId), eq(emailOptOuts.category, category)));
	return row !== undefined;
}

/** Every kind of optional e-mail, and whether the member gets it. */
export async function listEmailPreferences(
	deps: Pick<AppDeps, 'db'>,
	userId: number,
): Promise<EmailPreference[]> {
	const rows = await deps.db
		.select({ category: emailOptOuts.category })
		.from(emailOptOuts)
		.where(eq(emailOptOuts.userId, userId));
	const off = new Set(rows.map((row) => row.category));
	return EMAIL_CATEGORIES.map((category) => ({
		category,
		...EMAIL_CATEGORY_LABELS[category],
		subscribed: !off.has(category),
	}));
}

/** Replaces the member's opt-outs with `optedOut`: every kind not in it is sent again. */
export async function setEmailOptOuts(
	deps: Pick<AppDeps, 'db' | 'clock'>,
	userId: number,
	optedOut: readonly EmailCategory[],
): Promise<EmailPreference[]> {
	await deps.db.transaction(async (tx) => {
		await tx.delete(emailOptOuts).where(eq(emailOptOuts.userId, userId));
		const unique = [...new Set(optedOut)];
		if (unique.length > 0)
			await tx
				.insert(emailOptOuts)
				.values(unique.map((category) => ({ userId, category, createdAt: deps.clock() })));
	});
	return listEmailPreferences(deps, userId);
}

/**
 * Turns one kind off (an unsubscribe link); doing it twice changes nothing, and neither does a link
 * of an account deleted since (it gets no mail at all any more).
 */
export async function optOut(
	deps: Pick<AppDeps, 'db' | 'clock'>,
	userId: number,
	category: EmailCategory,
): Promise<void> {
	const [member] = await deps.db.select({ id: users.id }).from(users).where(eq(users.id, userId));
	if (!member) return;
	await deps.db
		.insert(emailOptOuts)
		.values({ userId, category, createdAt: deps.clock() })
		.onConflictDoNothing();
}
