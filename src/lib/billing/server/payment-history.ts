// Payments after the fact: a member's history, receipts and data export, and the operators' list
// of payments and their refunds.
import { and, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Viewer } from '../../auth/contract';
import { formatApiDateTime } from '../../core/dates';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../../core/server/deps';
import { listBillingProfiles } from './billing-profiles';
import { type BillingDeps, syncPremium } from './billing-shared';
import { listUserCoupons } from './member-coupons';
import { billingPaymentIntents, billingProducts, billingProfiles, billingSubscriptions } from './tables';
import { paymentProcessor } from './webhooks';

export type PaymentRecord = {
	id: string;
	status: string;
	amount: number;
	currency: string;
	productName: string;
	purpose: string;
	at: Date;
	card: string | null;
	failureMessage: string | null;
};

export async function paymentHistory(deps: Pick<AppDeps, 'db'>, viewer: Viewer): Promise<PaymentRecord[]> {
	return readPayments(deps, eq(billingPaymentIntents.userId, viewer.id));
}

/**
 * A member's MVP history for their data export: subscriptions, payments, cards by brand and last
 * four digits (never the processor's reference) and coupons.
 */
export async function membershipForExport(deps: Pick<AppDeps, 'db'>, viewer: Viewer) {
	const subscriptions = await deps.db
		.select({ subscription: billingSubscriptions, product: billingProducts })
		.from(billingSubscriptions)
		.innerJoin(billingProducts, eq(billingProducts.id, billingSubscriptions.productId))
		.where(eq(billingSubscriptions.userId, viewer.id))
		.orderBy(billingSubscriptions.id);
	return {
		subscriptions: subscriptions.map(({ subscription, product }) => ({
			plan: product.name,
			status: subscription.status,
			trial: subscription.isTrial,
			coupon: subscription.couponCode,
			auto_renew: !subscription.requestedCancellation,
			start_datetime: formatApiDateTime(subscription.startsAt),
			end_datetime: formatApiDateTime(subscription.endsAt),
		})),
		payments: (await paymentHistory(deps, viewer)).map((payment) => ({
			id: payment.id,
			status: payment.status,
			amount: payment.amount,
			currency: payment.currency,
			plan: payment.productName,
			purpose: payment.purpose,
			card: payment.card,
			datetime: formatApiDateTime(payment.at),
		})),
		cards: (await listBillingProfiles(deps, viewer)).map((card) => ({
			brand: card.card_brand,
			last4: card.card_last4,
			default: card.default,
		})),
		coupons: (await listUserCoupons(deps, viewer)).map((coupon) => ({
			code: coupon.coupon_id,
			redeemed: coupon.redeemed,
		})),
	};
}

/** The latest payments of every member, for the operators' refunds page. */
export async function recentPayments(
	deps: Pick<AppDeps, 'db'>,
	limit = 50,
): Promise<(PaymentRecord & { memberId: number })[]> {
	return readPayments(deps, undefined, limit);
}

async function readPayments(deps: Pick<AppDeps, 'db'>, condition: SQL | undefined, limit?: number) {
	const query = deps.db
		.select({ intent: billingPaymentIntents, product: billingProducts, profile: billingProfiles })
		.from(billingPaymentIntents)
		.innerJoin(billingProducts, eq(billingProducts.id, billingPaymentIntents.productId))
		.leftJoin(billingProfiles, eq(billingProfiles.id, billingPaymentIntents.billingProfileId))
		.where(and(condition, inArray(billingPaymentIntents.status, ['succeeded', 'failed', 'refunded'])))
		.orderBy(desc(billingPaymentIntents.updatedAt));
	const rows = limit === undefined ? await query : await query.limit(limit);
	return rows.map(({ intent, product, profile }) => ({
		id: intent.id,
		memberId: intent.userId,
		status: intent.status,
		amount: intent.amount,
		currency: intent.currency,
		productName: product.name,
		purpose: intent.purpose,
		at: intent.succeededAt ?? intent.updatedAt,
		card: profile ? `${profile.cardBrand} ending ${profile.cardLast4}` : null,
		failureMessage: intent.failureMessage,
	}));
}

/** A paid (or refunded) payment of the member's own; anything else is not found. */
export async function findReceipt(
	deps: Pick<AppDeps, 'db'>,
	viewer: Viewer,
	id: string,
): Promise<PaymentRecord | null> {
	const history = await paymentHistory(deps, viewer);
	return history.find((record) => record.id === id && record.status !== 'failed') ?? null;
}

/** An admin's refund: the processor returns the money and the period paid for ends now. */
export async function refundPayment(deps: BillingDeps, id: string): Promise<void> {
	const [intent] = await deps.db.select().from(billingPaymentIntents).where(eq(billingPaymentIntents.id, id));
	if (intent?.status !== 'succeeded')
		throw new AppError('conflict', 'Only a paid payment can be refunded.', { detail: 'not_refundable' });
	if (intent.amount > 0 && intent.processorRef)
		await paymentProcessor(deps).refund(intent.processorRef, `refund-${intent.id}`);
	await deps.db.transaction(async (tx) => {
		await tx
			.update(billingPaymentIntents)
			.set({ status: 'refunded', refundedAt: deps.clock(), updatedAt: deps.clock() })
			.where(eq(billingPaymentIntents.id, id));
		if (intent.subscriptionId)
			await tx
				.update(billingSubscriptions)
				.set({ status: 'cancelled', endsAt: deps.clock() })
				.where(eq(billingSubscriptions.id, intent.subscriptionId));
		await syncPremium(tx, intent.userId);
	});
}
