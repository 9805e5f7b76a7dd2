// A renewal charge's outcome: the next period when it is paid; the grace period and retries when it
// fails; and the mails that tell the member either way.
import { eq } from 'drizzle-orm';
import { users } from '../../auth/server/tables';
import { formatDay } from '../../core/dates';
import type { AppDeps, Db } from '../../core/server/deps';
import { isListedTimeZone } from '../../core/time-zones';
import { enqueueJob } from '../../jobs/server/service';
import { queueMail } from '../../mail/server/service';
import { addBillingPeriod, formatMoney } from '../contract';
import { DAY_MS, type IntentRow, syncPremium } from './billing-shared';
import { billingProducts, billingSubscriptions } from './tables';

/**
 * How long a member keeps MVP after a renewal charge fails. A week covers the usual reasons (a card
 * replaced after expiry or loss takes a few days to arrive) without giving away much of a period.
 */
export const GRACE_PERIOD_DAYS = 7;
/**
 * Days after a renewal fell due on which a failed charge is tried again: spread out, because a
 * card declined today is often fine after payday; the last try is on the grace period's last day.
 */
export const DUNNING_RETRY_DAYS = [1, 3, 5, GRACE_PERIOD_DAYS] as const;

/** The last day a member can fix a failed renewal for the period starting `periodStart`. */
export function graceEndsAt(periodStart: Date): Date {
	return new Date(periodStart.getTime() + GRACE_PERIOD_DAYS * DAY_MS);
}

/**
 * The next retry after `now` on the schedule of the period starting `periodStart`; null when none
 * is left. Anchored on the due date, so a late or extra attempt never stretches the grace period.
 */
function nextRetryAt(periodStart: Date, now: Date): Date | null {
	for (const days of DUNNING_RETRY_DAYS) {
		const at = new Date(periodStart.getTime() + days * DAY_MS);
		if (at > now) return at;
	}
	return null;
}

export async function renewSubscription(tx: Db, intent: IntentRow, now: Date): Promise<void> {
	const [subscription] = await tx
		.select()
		.from(billingSubscriptions)
		.innerJoin(billingProducts, eq(billingProducts.id, billingSubscriptions.productId))
		.where(eq(billingSubscriptions.id, intent.subscriptionId as number));
	if (!subscription || !intent.periodStart) return;
	const { billing_subscriptions: row, billing_products: product } = subscription;
	// Only the period this payment was for moves forward: a late duplicate changes nothing.
	if (row.endsAt.getTime() !== intent.periodStart.getTime()) return;
	await tx
		.update(billingSubscriptions)
		.set({
			status: 'active',
			isTrial: false,
			endsAt: addBillingPeriod(intent.periodStart, product.frequencyInterval, product.frequencyUnit),
			failedAttempts: 0,
			retryAt: null,
		})
		.where(eq(billingSubscriptions.id, row.id));
	if (row.failedAttempts > 0) await queueDunningMail(tx, now, row.id, intent.periodStart, 'recovered');
	await syncPremium(tx, row.userId);
}

/**
 * A renewal charge failed: the member stays an MVP member (past_due) until the grace period ends,
 * with retries on the schedule; a failure with no retry left ends the subscription. Each mail is a
 * job with a unique key per subscription, period and kind, queued in the same transaction, so it
 * goes out once however many processes settle the payment.
 */
export async function dunSubscription(tx: Db, intent: IntentRow, now: Date): Promise<void> {
	const [row] = await tx
		.select()
		.from(billingSubscriptions)
		.where(eq(billingSubscriptions.id, intent.subscriptionId as number));
	// Only the period this payment was for: a late answer about an older one changes nothing.
	if (!row || !intent.periodStart || row.endsAt.getTime() !== intent.periodStart.getTime()) return;
	const failures = row.failedAttempts + 1;
	const retryAt = nextRetryAt(row.endsAt, now);
	await tx
		.update(billingSubscriptions)
		.set(
			retryAt === null
				? { status: 'lapsed', failedAttempts: failures, retryAt: null }
				: { status: 'past_due', failedAttempts: failures, retryAt },
		)
		.where(eq(billingSubscriptions.id, row.id));
	if (retryAt === null) await queueDunningMail(tx, now, row.id, row.endsAt, 'ended');
	else if (failures === 1) await queueDunningMail(tx, now, row.id, row.endsAt, 'failed');
	else if (retryAt.getTime() === graceEndsAt(row.endsAt).getTime())
		await queueDunningMail(tx, now, row.id, row.endsAt, 'last_retry');
	await syncPremium(tx, row.userId);
}

export type DunningMailKind = 'failed' | 'last_retry' | 'recovered' | 'ended';

async function queueDunningMail(
	tx: Db,
	now: Date,
	subscriptionId: number,
	periodStart: Date,
	kind: DunningMailKind,
): Promise<void> {
	await enqueueJob(
		{ db: tx, clock: () => now },
		{
			kind: DUNNING_MAIL_JOB,
			uniqueKey: `${DUNNING_MAIL_JOB}:${subscriptionId}:${periodStart.toISOString()}:${kind}`,
			payload: { subscriptionId, periodStart: periodStart.toISOString(), kind },
		},
	);
}

export const DUNNING_MAIL_JOB = 'billing.dunning-mail';

/** Where a member replaces the card a renewal could not charge. */
export const UPDATE_CARD_PATH = '/premium/membership#update-card';

/**
 * Writes and sends one dunning mail. A reminder about a payment the member has fixed meanwhile is
 * dropped: the mail must not ask for something already done.
 */
export async function sendDunningMail(
	deps: AppDeps,
	payload: { subscriptionId: number; periodStart: string; kind: DunningMailKind },
): Promise<void> {
	const [found] = await deps.db
		.select({ subscription: billingSubscriptions, product: billingProducts, user: users })
		.from(billingSubscriptions)
		.innerJoin(billingProducts, eq(billingProducts.id, billingSubscriptions.productId))
		.innerJoin(users, eq(users.id, billingSubscriptions.userId))
		.where(eq(billingSubscriptions.id, payload.subscriptionId));
	if (!found) return;
	const { subscription, product, user } = found;
	const periodStart = new Date(payload.periodStart);
	const stillDue =
		subscription.status === 'past_due' && subscription.endsAt.getTime() === periodStart.getTime();
	if ((payload.kind === 'failed' || payload.kind === 'last_retry') && !stillDue) return;
	const site = deps.config.publicUrl.replace(/\/$/, '');
	const price = formatMoney(product.amount, product.currency);
	// Days as the member's own calendar has them, as the membership page gives them.
	const zone = isListedTimeZone(user.timeZone) ? user.timeZone : 'UTC';
	const mailDay = (date: Date) => formatDay(date, zone);
	const deadline = mailDay(graceEndsAt(periodStart));
	const lines: Record<DunningMailKind, { subject: string; body: string[] }> = {
		failed: {
			subject: 'Your MVP payment failed',
			body: [
				`We could not charge your card ${price} for ${product.name}.`,
				`You keep MVP while we try again over the next days. Update your card by ${deadline} to keep MVP:`,
				`${site}${UPDATE_CARD_PATH}`,
			],
		},
		last_retry: {
			subject: 'Last try to renew your MVP membership',
			body: [
				`We still could not charge your card ${price} for ${product.name}.`,
				`We will try one last time on ${deadline}. If that fails, your MVP membership ends. Update your card before then:`,
				`${site}${UPDATE_CARD_PATH}`,
			],
		},
		recovered: {
			subject: 'Your MVP payment went through',
			body: [
				`Thank you: your card was charged ${price} for ${product.name}, and your MVP membership goes on.`,
				`Your next renewal is on ${mailDay(subscription.endsAt)}. Your payments and receipts:`,
				`${site}/premium/membership`,
			],
		},
		ended: {
			subject: 'Your MVP membership has ended',
			body: [
				`We could not charge your card ${price} for ${product.name}, so your MVP membership ended on ${mailDay(deps.clock())}.`,
				'You can come back at any time:',
				`${site}/premium/checkout`,
			],
		},
	};
	const mail = lines[payload.kind];
	await queueMail(deps, {
		to: user.email,
		userId: user.id,
		subject: mail.subject,
		text: [`Hello ${user.displayName || user.username},`, '', ...mail.body].join('\n'),
	});
}
