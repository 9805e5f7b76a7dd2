// Applying a processor's answer to a payment, once: a paid checkout starts the membership, and a
// renewal's outcome goes on to dunning.
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../core/server/deps';
import { addBillingPeriod, BILLING_COUNTRY, periodDays } from '../contract';
import {
	type BillingDeps,
	type CouponRow,
	DAY_MS,
	type IntentRow,
	type SubscriptionRow,
	syncPremium,
} from './billing-shared';
import { dunSubscription, renewSubscription } from './dunning';
import { claimCouponIn } from './member-coupons';
import type { ProcessorPayment } from './processor';
import { billingPaymentIntents, billingProducts, billingSubscriptions, billingUserCoupons } from './tables';

/**
 * Applies a processor's answer once: only an intent not yet final changes, and only a succeeded
 * payment grants anything (a new subscription, or the next period of a renewed one).
 */
export async function settleIntent(deps: BillingDeps, id: string, payment: ProcessorPayment): Promise<void> {
	await deps.db.transaction((tx) => settleIntentIn(tx, id, payment, deps.clock()));
}

export async function settleIntentIn(
	tx: Db,
	id: string,
	payment: ProcessorPayment,
	now: Date,
): Promise<void> {
	const [intent] = await tx
		.update(billingPaymentIntents)
		.set({
			status: payment.status,
			processorRef: payment.ref || null,
			failureCode: payment.failureCode,
			failureMessage: payment.failureMessage,
			succeededAt: payment.status === 'succeeded' ? now : null,
			updatedAt: now,
		})
		.where(
			and(
				eq(billingPaymentIntents.id, id),
				inArray(billingPaymentIntents.status, ['processing', 'requires_action']),
			),
		)
		.returning();
	if (!intent) return;
	if (intent.purpose === 'checkout' && payment.status === 'succeeded')
		await startSubscription(tx, intent, now);
	if (intent.purpose === 'renewal' && intent.subscriptionId) {
		if (payment.status === 'succeeded') await renewSubscription(tx, intent, now);
		if (payment.status === 'failed') await dunSubscription(tx, intent, now);
	}
}

async function startSubscription(tx: Db, intent: IntentRow, now: Date): Promise<void> {
	const [product] = await tx.select().from(billingProducts).where(eq(billingProducts.id, intent.productId));
	let periodEnd = (from: Date) => addBillingPeriod(from, product.frequencyInterval, product.frequencyUnit);
	let coupon: CouponRow | null = null;
	if (intent.couponCode) {
		coupon = (await claimCouponIn(tx, intent.userId, intent.couponCode, BILLING_COUNTRY)).coupon;
		await tx
			.update(billingUserCoupons)
			.set({ redeemed: true, redeemedAt: now })
			.where(
				and(eq(billingUserCoupons.userId, intent.userId), eq(billingUserCoupons.couponCode, coupon.code)),
			);
		const days = periodDays(coupon.durationInterval, coupon.durationUnit);
		periodEnd = (from: Date) => new Date(from.getTime() + days * DAY_MS);
	}
	const [subscription] = await tx
		.insert(billingSubscriptions)
		.values({
			userId: intent.userId,
			productId: product.id,
			status: 'active',
			isTrial: Boolean(coupon),
			startsAt: now,
			endsAt: periodEnd(now),
			billingProfileId: intent.billingProfileId,
			couponCode: coupon?.code ?? null,
			trialInterval: coupon?.durationInterval ?? 0,
			trialUnit: coupon?.durationUnit ?? 'day',
		})
		// Two checkouts charged in the same instant: the unique index keeps one membership.
		.onConflictDoNothing()
		.returning();
	const kept = subscription ?? (await lengthenRunning(tx, intent.userId, periodEnd));
	await tx
		.update(billingPaymentIntents)
		.set({ subscriptionId: kept.id, periodStart: now })
		.where(eq(billingPaymentIntents.id, intent.id));
	await syncPremium(tx, intent.userId);
}

/** The paid period of a checkout that lost that race lengthens the membership, so no charge is lost. */
async function lengthenRunning(
	tx: Db,
	userId: number,
	periodEnd: (from: Date) => Date,
): Promise<SubscriptionRow> {
	const [running] = await tx
		.select()
		.from(billingSubscriptions)
		.where(
			and(
				eq(billingSubscriptions.userId, userId),
				inArray(billingSubscriptions.status, ['active', 'past_due']),
			),
		)
		.for('update');
	await tx
		.update(billingSubscriptions)
		.set({ endsAt: periodEnd(running.endsAt) })
		.where(eq(billingSubscriptions.id, running.id));
	return running;
}
