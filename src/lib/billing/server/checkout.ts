// The checkout: a payment intent at the catalogue's price, the card the member enters for it, its
// one charge, and the extra verification step some cards ask for.
import { randomBytes } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Viewer } from '../../auth/contract';
import { AppError } from '../../core/errors';
import type { AppDeps, Db } from '../../core/server/deps';
import type { BillingProfileView, PaymentIntentCreate, PaymentIntentView } from '../contract';
import { addBillingProfile } from './billing-profiles';
import { type BillingDeps, hasActiveSubscription, hashOf, type IntentRow, newId } from './billing-shared';
import { couponRow, productRow } from './catalogue';
import { chargeIntent, reconcileIntent } from './payment-charges';
import { billingPaymentIntents, billingSubscriptions, billingUserCoupons } from './tables';
import { localProcessor, paymentProcessor } from './webhooks';

export const MEMBERSHIP_PATH = '/premium/membership';

/** A member holds one membership (the database's unique index holds it too): a second purchase is refused. */
function alreadyMember(): AppError {
	return new AppError(
		'conflict',
		`You are already an MVP member, so nothing was charged. Change your plan or card on your membership page: ${MEMBERSHIP_PATH}`,
		{ detail: 'already_subscribed' },
	);
}

async function refuseSecondMembership(db: Db, userId: number): Promise<void> {
	if (await hasActiveSubscription(db, userId)) throw alreadyMember();
}

const FAILURE_TEXT: Record<string, string> = {
	no_card: 'There is no card to charge.',
};

export function presentIntent(
	deps: Pick<AppDeps, 'config'>,
	row: IntentRow,
	testMode: boolean,
): PaymentIntentView {
	return {
		id: row.id,
		status: row.status as PaymentIntentView['status'],
		clientSecret: row.clientSecret,
		checkoutUrl: `${deps.config.publicUrl}/checkout/en-us/MMF/${row.id}`,
		amount: row.amount,
		currency: row.currency,
		product_id: row.productId,
		coupon: row.couponCode,
		next_action_url:
			row.status === 'requires_action' && row.processorRef && row.processor === 'local'
				? `/premium/checkout/authenticate?payment=${encodeURIComponent(row.processorRef)}&intent=${row.id}`
				: null,
		failure_message:
			row.status === 'failed' ? (row.failureMessage ?? FAILURE_TEXT[row.failureCode ?? ''] ?? null) : null,
		receipt_url:
			row.status === 'succeeded' || row.status === 'refunded' ? `/premium/receipt/${row.id}` : null,
		test_mode: testMode,
	};
}

async function ownIntent(db: Db, viewer: Viewer, id: string): Promise<IntentRow> {
	const [row] = await db
		.select()
		.from(billingPaymentIntents)
		.where(and(eq(billingPaymentIntents.id, id), eq(billingPaymentIntents.userId, viewer.id)));
	if (!row) throw new AppError('not_found', 'No such payment.', { detail: 'payment_intent_not_found' });
	return row;
}

export async function getPaymentIntent(
	deps: BillingDeps,
	viewer: Viewer,
	id: string,
): Promise<PaymentIntentView> {
	return presentIntent(deps, await ownIntent(deps.db, viewer, id), paymentProcessor(deps).testMode);
}

/**
 * Starts a checkout at the catalogue's price (a coupon makes the first period free). With an
 * Idempotency-Key, a repeat of the same request answers the same intent; the same key with another
 * request is refused with 422.
 */
export async function createPaymentIntent(
	deps: BillingDeps,
	viewer: Viewer,
	input: PaymentIntentCreate,
	idempotencyKey: string,
): Promise<PaymentIntentView & { replayed?: boolean }> {
	const processor = paymentProcessor(deps);
	const product = await productRow(deps, input.product_id);
	const couponCode = input.coupon ? (await couponRow(deps.db, input.coupon)).code : null;
	if (couponCode) {
		const [used] = await deps.db
			.select({ id: billingUserCoupons.id })
			.from(billingUserCoupons)
			.where(and(eq(billingUserCoupons.userId, viewer.id), eq(billingUserCoupons.couponCode, couponCode)));
		if (used)
			throw new AppError('conflict', 'You have already used this coupon.', { detail: 'coupon_already_used' });
	}
	const requestHash = hashOf(JSON.stringify({ product: product.id, coupon: couponCode }));
	// A repeat of a request already answered answers the same, even once it made the member an MVP.
	const replay = await earlierIntent(deps.db, viewer.id, idempotencyKey);
	if (replay) return replayed(deps, replay, requestHash, processor.testMode);
	await refuseSecondMembership(deps.db, viewer.id);
	const id = newId('pi');
	const [row] = await deps.db
		.insert(billingPaymentIntents)
		.values({
			id,
			userId: viewer.id,
			productId: product.id,
			purpose: 'checkout',
			couponCode,
			amount: couponCode ? 0 : product.amount,
			currency: product.currency,
			status: 'requires_payment_method',
			processor: processor.name,
			clientSecret: `${id}_secret_${randomBytes(12).toString('hex')}`,
			idempotencyKey,
			requestHash,
		})
		.onConflictDoNothing()
		.returning();
	if (row) return presentIntent(deps, row, processor.testMode);
	// The same key at the same moment: the request that lost the race answers what the other made.
	const earlier = await earlierIntent(deps.db, viewer.id, idempotencyKey);
	if (!earlier) throw new AppError('conflict', 'Please try again.', { detail: 'payment_intent_conflict' });
	return replayed(deps, earlier, requestHash, processor.testMode);
}

async function earlierIntent(db: Db, userId: number, idempotencyKey: string): Promise<IntentRow | undefined> {
	const [row] = await db
		.select()
		.from(billingPaymentIntents)
		.where(
			and(eq(billingPaymentIntents.userId, userId), eq(billingPaymentIntents.idempotencyKey, idempotencyKey)),
		);
	return row;
}

function replayed(
	deps: BillingDeps,
	earlier: IntentRow,
	requestHash: string,
	testMode: boolean,
): PaymentIntentView & { replayed: true } {
	if (earlier.requestHash !== requestHash)
		throw new AppError('unprocessable', 'This Idempotency-Key was used for a different request.', {
			detail: 'idempotency_key_reused',
		});
	return { ...presentIntent(deps, earlier, testMode), replayed: true };
}

/** Attaches a card the browser tokenised to the checkout (and saves it as a billing profile). */
export async function addCardToIntent(
	deps: BillingDeps,
	viewer: Viewer,
	id: string,
	token: string,
): Promise<PaymentIntentView> {
	const intent = await ownIntent(deps.db, viewer, id);
	if (!['requires_payment_method', 'failed'].includes(intent.status))
		throw new AppError('conflict', 'This payment is already under way.', { detail: 'payment_in_progress' });
	const processor = paymentProcessor(deps);
	let profile: BillingProfileView;
	try {
		profile = await addBillingProfile(deps, viewer, { payment_provider: processor.name, cc_token: token });
	} catch (error) {
		if (error instanceof AppError && error.code === 'unprocessable') {
			await deps.db
				.update(billingPaymentIntents)
				.set({
					status: 'failed',
					failureCode: error.detail ?? 'card_declined',
					failureMessage: error.message,
					updatedAt: deps.clock(),
				})
				.where(eq(billingPaymentIntents.id, id));
		}
		throw error;
	}
	const [row] = await deps.db
		.update(billingPaymentIntents)
		.set({
			billingProfileId: profile.billing_profile_id,
			status: 'requires_payment_method',
			failureCode: null,
			failureMessage: null,
			updatedAt: deps.clock(),
		})
		.where(
			and(
				eq(billingPaymentIntents.id, id),
				inArray(billingPaymentIntents.status, ['requires_payment_method', 'failed']),
			),
		)
		.returning();
	if (!row)
		throw new AppError('conflict', 'This payment is already under way.', { detail: 'payment_in_progress' });
	return presentIntent(deps, row, processor.testMode);
}

/**
 * Charges the checkout's card. The intent is claimed by one conditional update, so a second click
 * (or a concurrent request) gets 409 instead of a second charge. A processor that hangs or drops
 * the connection leaves the payment "processing": completeTransaction or the reconciliation job
 * settles it later by asking again with the same idempotency key.
 */
export async function prepareToCapture(
	deps: BillingDeps,
	viewer: Viewer,
	id: string,
): Promise<PaymentIntentView> {
	const processor = paymentProcessor(deps);
	const intent = await ownIntent(deps.db, viewer, id);
	if (['succeeded', 'requires_action', 'refunded'].includes(intent.status))
		return presentIntent(deps, intent, processor.testMode);
	if (!intent.billingProfileId)
		throw new AppError('conflict', 'Enter a card first.', { detail: 'card_required' });
	const [claimed] = await deps.db
		.update(billingPaymentIntents)
		.set({
			status: 'processing',
			attempts: sql`${billingPaymentIntents.attempts} + 1`,
			updatedAt: deps.clock(),
		})
		.where(
			and(
				eq(billingPaymentIntents.id, id),
				inArray(billingPaymentIntents.status, ['requires_payment_method', 'failed']),
				// A checkout started before the member became an MVP (another tab, an older key) charges nothing.
				sql`not exists (select 1 from ${billingSubscriptions} where ${billingSubscriptions.userId} = ${viewer.id}
					and ${billingSubscriptions.status} in ('active', 'past_due'))`,
			),
		)
		.returning();
	if (!claimed) {
		await refuseSecondMembership(deps.db, viewer.id);
		throw new AppError('conflict', 'This payment is already under way.', { detail: 'payment_in_progress' });
	}
	await chargeIntent(deps, claimed);
	return presentIntent(deps, await ownIntent(deps.db, viewer, id), processor.testMode);
}

/**
 * The member's answer on the built-in test processor's verification page (standing in for their
 * bank's). Only the member whose checkout it is may answer; the processor then sends its webhook.
 */
export async function answerLocalVerification(
	deps: BillingDeps,
	viewer: Viewer,
	intentId: string,
	approve: boolean,
): Promise<PaymentIntentView> {
	const processor = localProcessor(deps);
	if (!processor)
		throw new AppError('not_found', 'Payments are not taken by the test processor.', {
			detail: 'unknown_processor',
		});
	const intent = await ownIntent(deps.db, viewer, intentId);
	if (intent.status === 'requires_action' && intent.processorRef) {
		await processor.authenticate(intent.processorRef, approve);
		await completeTransaction(deps, viewer, intentId);
	}
	return getPaymentIntent(deps, viewer, intentId);
}

/** Finishes a checkout after the extra verification step, or one that was left processing. */
export async function completeTransaction(
	deps: BillingDeps,
	viewer: Viewer,
	id: string,
): Promise<PaymentIntentView> {
	const processor = paymentProcessor(deps);
	const intent = await ownIntent(deps.db, viewer, id);
	if (intent.status === 'processing' || intent.status === 'requires_action')
		await reconcileIntent(deps, intent);
	return presentIntent(deps, await ownIntent(deps.db, viewer, id), processor.testMode);
}
