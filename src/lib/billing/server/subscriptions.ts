// A member's memberships: listing them and the premium status they give, auto-renew, subscribing
// with a saved card, an early renewal in test mode, and closing them when the account is deleted.
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Viewer } from '../../auth/contract';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../../core/server/deps';
import type {
	PaidSubscriptionCreate,
	PaymentIntentView,
	PaymentProvider,
	PremiumStatus,
	SubscriptionStatus,
	SubscriptionView,
} from '../contract';
import { ownProfile } from './billing-profiles';
import {
	type BillingDeps,
	defaultProfile,
	hasActiveSubscription,
	PROCESSOR_TIMEOUT_MS,
	type ProductRow,
	type SubscriptionRow,
} from './billing-shared';
import { createPaymentIntent, prepareToCapture } from './checkout';
import { withTimeout } from './processor';
import { renewOnce } from './renewals';
import { billingPaymentIntents, billingProducts, billingProfiles, billingSubscriptions } from './tables';
import { paymentProcessor } from './webhooks';

/**
 * Before a member's account is deleted: every subscription still running ends now, payments still
 * waiting on the member are abandoned, and the processor forgets each saved card, so neither a
 * renewal already under way nor a later one can charge a deleted account. Returns how many
 * subscriptions it cancelled.
 */
export async function closeBillingForDeletion(deps: BillingDeps, userId: number): Promise<number> {
	const now = deps.clock();
	const cancelled = await deps.db
		.update(billingSubscriptions)
		.set({ status: 'cancelled', requestedCancellation: true, retryAt: null })
		.where(
			and(
				eq(billingSubscriptions.userId, userId),
				inArray(billingSubscriptions.status, ['pending', 'active', 'past_due']),
			),
		)
		.returning({ id: billingSubscriptions.id });
	await deps.db
		.update(billingPaymentIntents)
		.set({
			status: 'failed',
			failureCode: 'account_deleted',
			failureMessage: 'The account was deleted.',
			updatedAt: now,
		})
		.where(
			and(
				eq(billingPaymentIntents.userId, userId),
				inArray(billingPaymentIntents.status, ['creating', 'requires_payment_method', 'requires_action']),
			),
		);
	const cards = await deps.db
		.select({ paymentMethod: billingProfiles.ccToken })
		.from(billingProfiles)
		.where(eq(billingProfiles.userId, userId));
	const processor = paymentProcessor(deps);
	let forgotten = 0;
	for (const card of cards) {
		try {
			await withTimeout(
				processor.forgetCard(card.paymentMethod),
				deps.processorTimeoutMs ?? PROCESSOR_TIMEOUT_MS,
			);
			forgotten += 1;
		} catch (error) {
			// The subscriptions are already cancelled, so nothing renews; the card is left for support to remove.
			deps.logger.error({ err: error, userId }, 'processor did not forget a deleted member’s card');
		}
	}
	deps.logger.info(
		{ userId, cancelledSubscriptions: cancelled.length, forgottenCards: forgotten, cards: cards.length },
		'billing closed for account deletion',
	);
	return cancelled.length;
}

function presentSubscription(
	row: SubscriptionRow,
	product: ProductRow,
	provider: PaymentProvider,
): SubscriptionView {
	return {
		subscription_id: row.id,
		subscription_status: row.status as SubscriptionStatus,
		is_trial: row.isTrial,
		requested_cancellation: row.requestedCancellation,
		subscription_start_date: row.startsAt.toISOString(),
		subscription_end_date: row.endsAt.toISOString(),
		product_id: row.productId,
		payment_details: {
			price_point: { amount: product.amount, currency: product.currency },
			platform_details: { platform_name: 'web', payment_providers: [provider] },
		},
		subscription_details: {
			frequency_interval: product.frequencyInterval,
			frequency_unit: product.frequencyUnit,
			trial_details: row.isTrial
				? { duration_interval: row.trialInterval, duration_unit: row.trialUnit }
				: null,
		},
	};
}

export async function listSubscriptions(deps: BillingDeps, viewer: Viewer): Promise<SubscriptionView[]> {
	const rows = await deps.db
		.select({ subscription: billingSubscriptions, product: billingProducts })
		.from(billingSubscriptions)
		.innerJoin(billingProducts, eq(billingProducts.id, billingSubscriptions.productId))
		.where(eq(billingSubscriptions.userId, viewer.id))
		.orderBy(desc(billingSubscriptions.id));
	const provider = paymentProcessor(deps).name;
	return rows.map((row) => presentSubscription(row.subscription, row.product, provider));
}

/**
 * Ad-free with days_remaining −1 (no end the member must act on) while any subscription is active,
 * or past due within its grace period.
 */
export async function premiumStatus(deps: Pick<AppDeps, 'db'>, userId: number): Promise<PremiumStatus> {
	return (await hasActiveSubscription(deps.db, userId))
		? { is_ad_free: true, days_remaining: -1 }
		: { is_ad_free: false, days_remaining: 0 };
}

/** Auto-renew off asks for cancellation at the period's end; on takes the request back. */
export async function setAutoRenew(
	deps: BillingDeps,
	viewer: Viewer,
	id: number,
	autoRenew: boolean,
): Promise<SubscriptionView> {
	const [row] = await deps.db
		.select()
		.from(billingSubscriptions)
		.where(and(eq(billingSubscriptions.id, id), eq(billingSubscriptions.userId, viewer.id)));
	if (!row) throw new AppError('not_found', 'No such subscription.', { detail: 'subscription_not_found' });
	if (!['active', 'past_due'].includes(row.status))
		throw new AppError('conflict', 'This subscription has ended.', { detail: 'subscription_ended' });
	if (autoRenew && !row.billingProfileId && !(await defaultProfile(deps.db, viewer.id)))
		throw new AppError('conflict', 'Add a card before turning auto-renew on.', {
			detail: 'no_billing_profile',
		});
	await deps.db
		.update(billingSubscriptions)
		.set({ requestedCancellation: !autoRenew })
		.where(eq(billingSubscriptions.id, id));
	const views = await listSubscriptions(deps, viewer);
	return views.find((view) => view.subscription_id === id) as SubscriptionView;
}

/**
 * Test mode only: charges the next period now instead of on its due date, as a processor's test
 * clock lets one see a renewal (and, with a card that fails later charges, dunning) without waiting.
 */
export async function tryRenewalNow(deps: BillingDeps, viewer: Viewer, id: number): Promise<void> {
	if (!paymentProcessor(deps).testMode)
		throw new AppError('not_found', 'Only the test processor renews early.', { detail: 'not_test_mode' });
	const [row] = await deps.db
		.select()
		.from(billingSubscriptions)
		.where(and(eq(billingSubscriptions.id, id), eq(billingSubscriptions.userId, viewer.id)));
	if (!row) throw new AppError('not_found', 'No such subscription.', { detail: 'subscription_not_found' });
	if (row.status !== 'active' || row.requestedCancellation)
		throw new AppError('conflict', 'Only a subscription with auto-renew on renews.', {
			detail: 'subscription_not_renewing',
		});
	await renewOnce(deps, row);
}

/** Subscribing with a card already saved: the checkout's steps without the card form. */
export async function createPaidSubscription(
	deps: BillingDeps,
	viewer: Viewer,
	input: PaidSubscriptionCreate,
	idempotencyKey: string,
): Promise<PaymentIntentView> {
	const intent = await createPaymentIntent(
		deps,
		viewer,
		{ product_id: input.product_id, coupon: input.billing_details?.coupon },
		idempotencyKey,
	);
	if (intent.status !== 'requires_payment_method') return intent;
	const profile = input.billing_profile_id
		? await ownProfile(deps.db, viewer, input.billing_profile_id)
		: await defaultProfile(deps.db, viewer.id);
	if (!profile) throw new AppError('conflict', 'Add a card first.', { detail: 'no_billing_profile' });
	await deps.db
		.update(billingPaymentIntents)
		.set({ billingProfileId: profile.id })
		.where(eq(billingPaymentIntents.id, intent.id));
	return prepareToCapture(deps, viewer, intent.id);
}
