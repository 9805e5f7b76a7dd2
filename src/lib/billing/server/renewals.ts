// The scheduled billing run: memberships whose members asked to end them, renewals that fall due or
// are due a retry, and payments a hung processor left pending.
import { randomBytes } from 'node:crypto';
import { and, eq, inArray, lte, or, sql } from 'drizzle-orm';
import { type BillingDeps, defaultProfile, newId, type SubscriptionRow, syncPremium } from './billing-shared';
import { chargeIntent, reconcileIntent } from './payment-charges';
import { billingPaymentIntents, billingProducts, billingSubscriptions } from './tables';
import { paymentProcessor } from './webhooks';

export type BillingRunReport = { renewed: number; failed: number; cancelled: number; reconciled: number };

/**
 * The scheduled billing work, safe to run any number of times and from several processes at once:
 * ends subscriptions whose members asked to cancel, charges the next period of those due (one
 * payment intent per subscription and period, by a unique index), retries failed renewals on the
 * dunning schedule, and settles payments a hung processor left pending.
 */
export async function runBillingCycle(deps: BillingDeps): Promise<BillingRunReport> {
	const now = deps.clock();
	const report: BillingRunReport = { renewed: 0, failed: 0, cancelled: 0, reconciled: 0 };

	const ending = await deps.db
		.update(billingSubscriptions)
		.set({ status: 'cancelled' })
		.where(
			and(
				inArray(billingSubscriptions.status, ['active', 'past_due']),
				eq(billingSubscriptions.requestedCancellation, true),
				lte(billingSubscriptions.endsAt, now),
			),
		)
		.returning({ userId: billingSubscriptions.userId });
	for (const { userId } of ending) await syncPremium(deps.db, userId);
	report.cancelled = ending.length;

	const pending = await deps.db
		.select()
		.from(billingPaymentIntents)
		.where(
			and(
				eq(billingPaymentIntents.status, 'processing'),
				lte(billingPaymentIntents.updatedAt, new Date(now.getTime() - 60_000)),
			),
		);
	for (const intent of pending) {
		await reconcileIntent(deps, intent);
		report.reconciled += 1;
	}

	const due = await deps.db
		.select()
		.from(billingSubscriptions)
		.where(
			and(
				eq(billingSubscriptions.requestedCancellation, false),
				or(
					and(eq(billingSubscriptions.status, 'active'), lte(billingSubscriptions.endsAt, now)),
					and(eq(billingSubscriptions.status, 'past_due'), lte(billingSubscriptions.retryAt, now)),
				),
			),
		);
	for (const subscription of due) {
		const outcome = await renewOnce(deps, subscription);
		if (outcome === 'succeeded') report.renewed += 1;
		if (outcome === 'failed') report.failed += 1;
	}
	return report;
}

export async function renewOnce(deps: BillingDeps, subscription: SubscriptionRow): Promise<string | null> {
	const processor = paymentProcessor(deps);
	const [product] = await deps.db
		.select()
		.from(billingProducts)
		.where(eq(billingProducts.id, subscription.productId));
	const profileId =
		subscription.billingProfileId ?? (await defaultProfile(deps.db, subscription.userId))?.id ?? null;
	const periodStart = subscription.endsAt;
	const id = newId('pi');
	await deps.db
		.insert(billingPaymentIntents)
		.values({
			id,
			userId: subscription.userId,
			productId: product.id,
			subscriptionId: subscription.id,
			purpose: 'renewal',
			periodStart,
			amount: product.amount,
			currency: product.currency,
			status: 'requires_payment_method',
			processor: processor.name,
			clientSecret: `${id}_secret_${randomBytes(12).toString('hex')}`,
			billingProfileId: profileId,
		})
		.onConflictDoNothing();
	// Claim the period's intent: a new one, or one whose last attempt failed and is due again.
	const [claimed] = await deps.db
		.update(billingPaymentIntents)
		.set({
			status: 'processing',
			attempts: sql`${billingPaymentIntents.attempts} + 1`,
			billingProfileId: profileId,
			updatedAt: deps.clock(),
		})
		.where(
			and(
				eq(billingPaymentIntents.subscriptionId, subscription.id),
				eq(billingPaymentIntents.periodStart, periodStart),
				eq(billingPaymentIntents.purpose, 'renewal'),
				inArray(billingPaymentIntents.status, ['requires_payment_method', 'failed']),
				eq(billingPaymentIntents.attempts, subscription.failedAttempts),
				// Cancelled since the due list was read (the account is being deleted): no charge.
				sql`exists (select 1 from ${billingSubscriptions} where ${billingSubscriptions.id} = ${subscription.id}
					and ${billingSubscriptions.status} in ('active', 'past_due'))`,
			),
		)
		.returning();
	if (!claimed) return null;
	await chargeIntent(deps, claimed);
	const [after] = await deps.db
		.select()
		.from(billingPaymentIntents)
		.where(eq(billingPaymentIntents.id, claimed.id));
	return after.status;
}
