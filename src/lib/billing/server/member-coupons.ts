// A member's coupons: claiming one (once each, within the coupon's cap) and redeeming it for a free
// period that lengthens the running membership or starts a trial.
import { and, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Viewer } from '../../auth/contract';
import { AppError } from '../../core/errors';
import type { AppDeps, Db } from '../../core/server/deps';
import { BILLING_COUNTRY, type CouponView, periodDays, type UserCouponView } from '../contract';
import { type BillingDeps, type CouponRow, DAY_MS, defaultProfile, syncPremium } from './billing-shared';
import { CATALOGUE, couponRow, presentCoupon } from './catalogue';
import { UPDATE_CARD_PATH } from './dunning';
import { billingCoupons, billingSubscriptions, billingUserCoupons } from './tables';

function presentUserCoupon(row: typeof billingUserCoupons.$inferSelect): UserCouponView {
	return {
		id: row.id,
		user_id: row.userId,
		coupon_id: row.couponCode,
		country_code: row.countryCode,
		redeemed: row.redeemed,
	};
}

export async function listUserCoupons(deps: Pick<AppDeps, 'db'>, viewer: Viewer): Promise<UserCouponView[]> {
	const rows = await deps.db
		.select()
		.from(billingUserCoupons)
		.where(eq(billingUserCoupons.userId, viewer.id))
		.orderBy(desc(billingUserCoupons.id));
	return rows.map(presentUserCoupon);
}

/**
 * Claims a coupon for the member: once per member (a unique pair), and within the coupon's cap by
 * one conditional update, so parallel claims of the last one let exactly one through.
 */
export async function claimCouponIn(db: Db, userId: number, code: string, countryCode: string) {
	const coupon = await couponRow(db, code);
	const [claimed] = await db
		.insert(billingUserCoupons)
		.values({ userId, couponCode: coupon.code, countryCode })
		.onConflictDoNothing()
		.returning();
	if (!claimed)
		throw new AppError('conflict', 'You have already used this coupon.', { detail: 'coupon_already_used' });
	const [counted] = await db
		.update(billingCoupons)
		.set({ redemptionCount: sql`${billingCoupons.redemptionCount} + 1` })
		.where(
			and(
				eq(billingCoupons.code, coupon.code),
				or(
					isNull(billingCoupons.maxRedemptions),
					sql`${billingCoupons.redemptionCount} < ${billingCoupons.maxRedemptions}`,
				),
			),
		)
		.returning({ code: billingCoupons.code });
	if (!counted)
		throw new AppError('conflict', 'This coupon has been used up.', { detail: 'coupon_exhausted' });
	return { coupon, claimed };
}

export async function claimCoupon(
	deps: Pick<AppDeps, 'db'>,
	viewer: Viewer,
	code: string,
	countryCode = BILLING_COUNTRY,
): Promise<UserCouponView> {
	const { claimed } = await deps.db.transaction((tx) => claimCouponIn(tx, viewer.id, code, countryCode));
	return presentUserCoupon(claimed);
}

/** Claims every grantable coupon (a promotion's offer) the member does not hold yet. */
export async function claimGrantableCoupons(
	deps: Pick<AppDeps, 'db'>,
	viewer: Viewer,
): Promise<UserCouponView[]> {
	const grantable = await deps.db
		.select({ code: billingCoupons.code })
		.from(billingCoupons)
		.where(and(eq(billingCoupons.grantable, true), eq(billingCoupons.active, true)));
	for (const { code } of grantable) {
		try {
			await claimCoupon(deps, viewer, code);
		} catch (error) {
			if (!(error instanceof AppError && error.code === 'conflict')) throw error;
		}
	}
	return listUserCoupons(deps, viewer);
}

/**
 * Redeeming starts the coupon's free period: it lengthens a running subscription, or starts a trial
 * of the monthly plan that ends by itself unless the member turns auto-renew on with a card.
 */
export async function redeemUserCoupon(
	deps: BillingDeps,
	viewer: Viewer,
	id: number,
): Promise<UserCouponView> {
	const now = deps.clock();
	const redeemed = await deps.db.transaction(async (tx) => {
		const [row] = await tx
			.update(billingUserCoupons)
			.set({ redeemed: true, redeemedAt: now })
			.where(
				and(
					eq(billingUserCoupons.id, id),
					eq(billingUserCoupons.userId, viewer.id),
					eq(billingUserCoupons.redeemed, false),
				),
			)
			.returning();
		if (!row) {
			const [mine] = await tx
				.select({ id: billingUserCoupons.id })
				.from(billingUserCoupons)
				.where(and(eq(billingUserCoupons.id, id), eq(billingUserCoupons.userId, viewer.id)));
			if (mine)
				throw new AppError('conflict', 'This coupon is already redeemed.', {
					detail: 'coupon_already_redeemed',
				});
			throw new AppError('not_found', 'No such coupon of yours.', { detail: 'user_coupon_not_found' });
		}
		const coupon = await couponRow(tx, row.couponCode);
		await applyFreePeriod(tx, viewer.id, coupon, now);
		return row;
	});
	return presentUserCoupon(redeemed);
}

/** Claim and redeem in one step: the coupon page's form. */
export async function redeemCouponCode(deps: BillingDeps, viewer: Viewer, code: string): Promise<CouponView> {
	const now = deps.clock();
	return deps.db.transaction(async (tx) => {
		const { coupon, claimed } = await claimCouponIn(tx, viewer.id, code, BILLING_COUNTRY);
		await tx
			.update(billingUserCoupons)
			.set({ redeemed: true, redeemedAt: now })
			.where(eq(billingUserCoupons.id, claimed.id));
		await applyFreePeriod(tx, viewer.id, coupon, now);
		return presentCoupon(coupon);
	});
}

async function applyFreePeriod(tx: Db, userId: number, coupon: CouponRow, now: Date): Promise<void> {
	const days = periodDays(coupon.durationInterval, coupon.durationUnit);
	const [running] = await tx
		.select()
		.from(billingSubscriptions)
		.where(
			and(
				eq(billingSubscriptions.userId, userId),
				inArray(billingSubscriptions.status, ['active', 'past_due']),
			),
		)
		.orderBy(desc(billingSubscriptions.endsAt))
		.limit(1);
	// A failed renewal is settled with a card, not a free period laid over it.
	if (running?.status === 'past_due')
		throw new AppError('conflict', `Update your card first, on your membership page: ${UPDATE_CARD_PATH}`, {
			detail: 'subscription_past_due',
		});
	if (running) {
		await tx
			.update(billingSubscriptions)
			.set({ endsAt: new Date(running.endsAt.getTime() + days * DAY_MS) })
			.where(eq(billingSubscriptions.id, running.id));
	} else {
		const profile = await defaultProfile(tx, userId);
		await tx.insert(billingSubscriptions).values({
			userId,
			productId: CATALOGUE.products[0].id,
			status: 'active',
			isTrial: true,
			// Nothing is charged at the end of a free period unless the member asks for it with a card.
			requestedCancellation: !profile,
			startsAt: now,
			endsAt: new Date(now.getTime() + days * DAY_MS),
			billingProfileId: profile?.id ?? null,
			couponCode: coupon.code,
			trialInterval: coupon.durationInterval,
			trialUnit: coupon.durationUnit,
		});
	}
	await syncPremium(tx, userId);
}
