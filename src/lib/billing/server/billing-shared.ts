// What the billing use cases share: the world they are handed, the rows they pass each other, the
// member's default card, and whether the member is an MVP right now.
import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, inArray } from 'drizzle-orm';
import { setPremiumMembership } from '../../auth/server/service';
import type { AppDeps, Db } from '../../core/server/deps';
import type { PaymentProcessor } from './processor';
import {
	type billingCoupons,
	type billingPaymentIntents,
	type billingProducts,
	billingProfiles,
	billingSubscriptions,
} from './tables';

/** Tests hand in their own processor (a Stripe-shaped one, a hanging one); otherwise config decides. */
export type BillingDeps = AppDeps & { paymentProcessor?: PaymentProcessor; processorTimeoutMs?: number };

export type ProductRow = typeof billingProducts.$inferSelect;
export type CouponRow = typeof billingCoupons.$inferSelect;
export type SubscriptionRow = typeof billingSubscriptions.$inferSelect;
export type IntentRow = typeof billingPaymentIntents.$inferSelect;
export type ProfileRow = typeof billingProfiles.$inferSelect;

/** How long a member's request waits for the processor before answering "processing". */
export const PROCESSOR_TIMEOUT_MS = 10_000;

export const DAY_MS = 86_400_000;

export function newId(prefix: string): string {
	return `${prefix}_${randomBytes(12).toString('hex')}`;
}

export function hashOf(value: string): string {
	return createHash('sha256').update(value).digest('hex').slice(0, 32);
}

export async function defaultProfile(db: Db, userId: number): Promise<ProfileRow | undefined> {
	const [row] = await db
		.select()
		.from(billingProfiles)
		.where(eq(billingProfiles.userId, userId))
		.orderBy(desc(billingProfiles.isDefault), desc(billingProfiles.id))
		.limit(1);
	return row;
}

export async function hasActiveSubscription(db: Db, userId: number): Promise<boolean> {
	const [row] = await db
		.select({ id: billingSubscriptions.id })
		.from(billingSubscriptions)
		.where(
			and(
				eq(billingSubscriptions.userId, userId),
				// A failed renewal keeps MVP through the grace period while dunning retries.
				inArray(billingSubscriptions.status, ['active', 'past_due']),
			),
		)
		.limit(1);
	return Boolean(row);
}

export async function syncPremium(db: Db, userId: number): Promise<void> {
	await setPremiumMembership(db, userId, await hasActiveSubscription(db, userId));
}
