import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, inArray, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Viewer } from '../../auth/contract';
import { setPremiumMembership } from '../../auth/server/service';
import { users } from '../../auth/server/tables';
import { formatApiDateTime, formatDay } from '../../core/dates';
import { AppError } from '../../core/errors';
import type { AppDeps, Db } from '../../core/server/deps';
import { isListedTimeZone } from '../../core/time-zones';
import { enqueueJob } from '../../jobs/server/service';
import { queueMail } from '../../mail/server/service';
import {
	addBillingPeriod,
	BILLING_COUNTRY,
	type BillingProfileView,
	type CouponView,
	describePeriod,
	formatMoney,
	type PaidSubscriptionCreate,
	type PaymentIntentCreate,
	type PaymentIntentView,
	type PaymentProvider,
	type PremiumStatus,
	type ProductView,
	periodDays,
	type SubscriptionStatus,
	type SubscriptionView,
	type UserCouponView,
} from '../contract';
import { createLocalProcessor } from './local-processor';
import { CardError, type PaymentProcessor, type ProcessorPayment, withTimeout } from './processor';
import { createStripeProcessor } from './stripe-processor';
import {
	billingCoupons,
	billingPaymentIntents,
	billingProducts,
	billingProfiles,
	billingSubscriptions,
	billingUserCoupons,
	billingWebhookEvents,
} from './tables';

/** Tests hand in their own processor (a Stripe-shaped one, a hanging one); otherwise config decides. */
export type BillingDeps = AppDeps & { paymentProcessor?: PaymentProcessor; processorTimeoutMs?: number };

type ProductRow = typeof billingProducts.$inferSelect;
type CouponRow = typeof billingCoupons.$inferSelect;
type SubscriptionRow = typeof billingSubscriptions.$inferSelect;
type IntentRow = typeof billingPaymentIntents.$inferSelect;
type ProfileRow = typeof billingProfiles.$inferSelect;

/** How long a member's request waits for the processor before answering "processing". */
const PROCESSOR_TIMEOUT_MS = 10_000;
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
const DAY_MS = 86_400_000;

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

export function paymentProcessor(deps: BillingDeps): PaymentProcessor {
	if (deps.paymentProcessor) return deps.paymentProcessor;
	if (deps.config.stripe) return createStripeProcessor(deps.config.stripe);
	return createLocalProcessor(deps, (rawBody, signature) =>
		handleWebhook(deps, 'local', rawBody, signature).then(() => undefined),
	);
}

/** The local processor, for its own verification page; null when Stripe takes the payments. */
export function localProcessor(deps: BillingDeps) {
	if (deps.config.stripe || deps.paymentProcessor) return null;
	return createLocalProcessor(deps, (rawBody, signature) =>
		handleWebhook(deps, 'local', rawBody, signature).then(() => undefined),
	);
}

function newId(prefix: string): string {
	return `${prefix}_${randomBytes(12).toString('hex')}`;
}

// ───────────────────────────────────────────────────────────── catalogue

/** The plans on sale and the coupons the demo and promotions hand out. */
export const CATALOGUE = {
	products: [
		{
			id: 'mvp-monthly',
			name: 'MVP Monthly',
			amount: 599,
			currency: 'usd',
			frequencyInterval: 1,
			frequencyUnit: 'month',
		},
		{
			id: 'mvp-annual',
			name: 'MVP Annual',
			amount: 2999,
			currency: 'usd',
			frequencyInterval: 12,
			frequencyUnit: 'month',
		},
	],
	coupons: [
		{ code: 'MVP90', durationInterval: 90, durationUnit: 'day', maxRedemptions: null, grantable: false },
		{ code: 'MVP30', durationInterval: 30, durationUnit: 'day', maxRedemptions: null, grantable: false },
		{ code: 'MVPYEAR', durationInterval: 365, durationUnit: 'day', maxRedemptions: 500, grantable: false },
		{ code: 'UAWIRELESS', durationInterval: 90, durationUnit: 'day', maxRedemptions: null, grantable: true },
	],
} as const;

/** Puts the catalogue in place; safe to run on every start. */
export async function seedCatalogue(deps: Pick<AppDeps, 'db'>): Promise<void> {
	await deps.db
		.insert(billingProducts)
		.values(CATALOGUE.products.map((product) => ({ ...product, platforms: ['web'] })))
		.onConflictDoNothing();
	await deps.db
		.insert(billingCoupons)
		.values(CATALOGUE.coupons.map((coupon) => ({ ...coupon })))
		.onConflictDoNothing();
}

/** An operator's coupon (a campaign with a redemption cap, say). */
export async function createCoupon(
	deps: Pick<AppDeps, 'db'>,
	coupon: {
		code: string;
		durationInterval: number;
		durationUnit: string;
		maxRedemptions?: number | null;
		grantable?: boolean;
	},
): Promise<void> {
	await deps.db.insert(billingCoupons).values({ ...coupon, code: coupon.code.toUpperCase() });
}

function presentProduct(row: ProductRow): ProductView {
	return {
		id: row.id,
		name: row.name,
		availability_details: {
			price_point: { amount: row.amount, currency: row.currency },
			available_platforms: row.platforms,
		},
		subscription_details: {
			frequency_interval: row.frequencyInterval,
			frequency_unit: row.frequencyUnit,
			trial_details:
				row.trialInterval > 0 ? { duration_interval: row.trialInterval, duration_unit: row.trialUnit } : null,
		},
	};
}

async function productRow(deps: Pick<AppDeps, 'db'>, id: string): Promise<ProductRow> {
	const [row] = await deps.db
		.select()
		.from(billingProducts)
		.where(and(eq(billingProducts.id, id), eq(billingProducts.active, true)));
	if (!row) throw new AppError('not_found', 'That plan is not on sale.', { detail: 'product_fetch/1' });
	return row;
}

export async function getProduct(deps: Pick<AppDeps, 'db'>, id: string): Promise<ProductView> {
	return presentProduct(await productRow(deps, id));
}

export async function listProducts(deps: Pick<AppDeps, 'db'>): Promise<ProductView[]> {
	const rows = await deps.db
		.select()
		.from(billingProducts)
		.where(eq(billingProducts.active, true))
		.orderBy(billingProducts.amount);
	return rows.map(presentProduct);
}

function presentCoupon(row: CouponRow): CouponView {
	return {
		id: row.code,
		duration_interval: row.durationInterval,
		duration_unit: row.durationUnit,
		free_period: describePeriod(row.durationInterval, row.durationUnit),
	};
}

async function couponRow(db: Db, code: string): Promise<CouponRow> {
	const [row] = await db
		.select()
		.from(billingCoupons)
		.where(and(eq(billingCoupons.code, code.toUpperCase()), eq(billingCoupons.active, true)));
	if (!row) throw new AppError('not_found', 'That coupon code is not valid.', { detail: 'coupon_not_found' });
	return row;
}

export async function getCoupon(deps: Pick<AppDeps, 'db'>, code: string): Promise<CouponView> {
	return presentCoupon(await couponRow(deps.db, code));
}

// ───────────────────────────────────────────────────────────── user coupons

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
async function claimCouponIn(db: Db, userId: number, code: string, countryCode: string) {
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

// ───────────────────────────────────────────────────────────── billing profiles

function presentProfile(row: ProfileRow): BillingProfileView {
	return {
		billing_profile_id: row.id,
		payment_provider: row.paymentProvider as PaymentProvider,
		cc_token: row.ccToken,
		card_brand: row.cardBrand,
		card_last4: row.cardLast4,
		default: row.isDefault,
	};
}

async function defaultProfile(db: Db, userId: number): Promise<ProfileRow | undefined> {
	const [row] = await db
		.select()
		.from(billingProfiles)
		.where(eq(billingProfiles.userId, userId))
		.orderBy(desc(billingProfiles.isDefault), desc(billingProfiles.id))
		.limit(1);
	return row;
}

async function ownProfile(db: Db, viewer: Viewer, id: number): Promise<ProfileRow> {
	const [row] = await db
		.select()
		.from(billingProfiles)
		.where(and(eq(billingProfiles.id, id), eq(billingProfiles.userId, viewer.id)));
	// Another member's profile answers exactly as a missing one: its existence is not ours to tell.
	if (!row)
		throw new AppError('not_found', 'No such billing profile.', { detail: 'billing_profile_not_found' });
	return row;
}

export async function listBillingProfiles(
	deps: Pick<AppDeps, 'db'>,
	viewer: Viewer,
): Promise<BillingProfileView[]> {
	const rows = await deps.db
		.select()
		.from(billingProfiles)
		.where(eq(billingProfiles.userId, viewer.id))
		.orderBy(desc(billingProfiles.isDefault), billingProfiles.id);
	return rows.map(presentProfile);
}

/** Saves a card the browser tokenised; the processor refuses a card it would decline. */
export async function addBillingProfile(
	deps: BillingDeps,
	viewer: Viewer,
	input: { payment_provider: PaymentProvider; cc_token: string; default?: boolean },
): Promise<BillingProfileView> {
	const processor = paymentProcessor(deps);
	if (input.payment_provider !== processor.name)
		throw new AppError('bad_request', `Cards are taken by the ${processor.name} processor.`, {
			detail: 'payment_provider_mismatch',
		});
	let card: Awaited<ReturnType<PaymentProcessor['saveCard']>>;
	try {
		card = await withTimeout(
			processor.saveCard(input.cc_token, `card-${viewer.id}-${hashOf(input.cc_token)}`),
			deps.processorTimeoutMs ?? PROCESSOR_TIMEOUT_MS,
		);
	} catch (error) {
		if (error instanceof CardError)
			throw new AppError('unprocessable', error.message, { detail: error.code });
		deps.logger.warn({ processor: processor.name }, 'card could not be saved');
		throw new AppError('unavailable', 'The card processor did not answer. Please try again.', {
			detail: 'processor_unavailable',
		});
	}
	const row = await deps.db.transaction(async (tx) => {
		const existing = await defaultProfile(tx, viewer.id);
		const makeDefault = input.default === true || !existing;
		if (makeDefault)
			await tx.update(billingProfiles).set({ isDefault: false }).where(eq(billingProfiles.userId, viewer.id));
		const [inserted] = await tx
			.insert(billingProfiles)
			.values({
				userId: viewer.id,
				paymentProvider: processor.name,
				ccToken: card.paymentMethod,
				cardBrand: card.brand,
				cardLast4: card.last4,
				isDefault: makeDefault,
			})
			.returning();
		return inserted;
	});
	if (row.isDefault) await chargeRenewalsTo(deps, viewer.id, row.id);
	return presentProfile(row);
}

/**
 * The default card pays the member's renewals from now on; a renewal that failed is charged again
 * at once, so replacing the card ends the grace period without waiting for the next retry.
 */
async function chargeRenewalsTo(deps: BillingDeps, userId: number, profileId: number): Promise<void> {
	const moved = await deps.db
		.update(billingSubscriptions)
		.set({ billingProfileId: profileId })
		.where(
			and(
				eq(billingSubscriptions.userId, userId),
				inArray(billingSubscriptions.status, ['active', 'past_due']),
			),
		)
		.returning();
	for (const subscription of moved)
		if (subscription.status === 'past_due') await renewOnce(deps, subscription);
}

export async function makeDefaultBillingProfile(
	deps: BillingDeps,
	viewer: Viewer,
	id: number,
): Promise<BillingProfileView> {
	const made = await deps.db.transaction(async (tx) => {
		await ownProfile(tx, viewer, id);
		await tx.update(billingProfiles).set({ isDefault: false }).where(eq(billingProfiles.userId, viewer.id));
		const [row] = await tx
			.update(billingProfiles)
			.set({ isDefault: true })
			.where(eq(billingProfiles.id, id))
			.returning();
		return presentProfile(row);
	});
	await chargeRenewalsTo(deps, viewer.id, id);
	return made;
}

/** Deleting a card: if one remains, it becomes the default. */
export async function deleteBillingProfile(
	deps: Pick<AppDeps, 'db'>,
	viewer: Viewer,
	id: number,
): Promise<void> {
	await deps.db.transaction(async (tx) => {
		await ownProfile(tx, viewer, id);
		await tx.delete(billingProfiles).where(eq(billingProfiles.id, id));
		const remaining = await defaultProfile(tx, viewer.id);
		if (remaining && !remaining.isDefault)
			await tx.update(billingProfiles).set({ isDefault: true }).where(eq(billingProfiles.id, remaining.id));
	});
}

// ───────────────────────────────────────────────────────────── subscriptions

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

async function hasActiveSubscription(db: Db, userId: number): Promise<boolean> {
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

async function syncPremium(db: Db, userId: number): Promise<void> {
	await setPremiumMembership(db, userId, await hasActiveSubscription(db, userId));
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

// ───────────────────────────────────────────────────────────── checkout

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

function hashOf(value: string): string {
	return createHash('sha256').update(value).digest('hex').slice(0, 32);
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

function idempotencyKeyFor(intent: IntentRow): string {
	return `${intent.id}-${intent.attempts}`;
}

/** One processor call for a claimed ("processing") intent; the outcome is settled here. */
async function chargeIntent(deps: BillingDeps, intent: IntentRow): Promise<void> {
	if (intent.amount === 0) {
		// A free first period: the card was checked when it was saved; nothing to charge yet.
		await settleIntent(deps, intent.id, {
			ref: '',
			status: 'succeeded',
			failureCode: null,
			failureMessage: null,
			nextActionUrl: null,
		});
		return;
	}
	const processor = paymentProcessor(deps);
	const profile = intent.billingProfileId
		? (await deps.db.select().from(billingProfiles).where(eq(billingProfiles.id, intent.billingProfileId)))[0]
		: undefined;
	if (!profile) {
		await settleIntent(deps, intent.id, {
			ref: '',
			status: 'failed',
			failureCode: 'no_card',
			failureMessage: null,
			nextActionUrl: null,
		});
		return;
	}
	let payment: ProcessorPayment;
	try {
		payment = await withTimeout(
			processor.charge({
				amount: intent.amount,
				currency: intent.currency,
				paymentMethod: profile.ccToken,
				idempotencyKey: idempotencyKeyFor(intent),
				offSession: intent.purpose === 'renewal',
				returnUrl: `${deps.config.publicUrl}/premium/checkout?payment_intent=${intent.id}`,
				metadata: { payment_intent: intent.id, user: String(intent.userId) },
			}),
			deps.processorTimeoutMs ?? PROCESSOR_TIMEOUT_MS,
		);
	} catch (error) {
		// Left processing; the same key later returns whatever the processor did.
		deps.logger.warn(
			{
				paymentIntent: intent.id,
				processor: processor.name,
				reason: error instanceof Error ? error.message : 'unknown',
			},
			'payment left pending',
		);
		return;
	}
	await settleIntent(deps, intent.id, payment);
}

/** Asks the processor what became of a pending payment and settles it. */
async function reconcileIntent(deps: BillingDeps, intent: IntentRow): Promise<void> {
	const processor = paymentProcessor(deps);
	if (intent.processorRef && intent.status === 'requires_action') {
		const payment = await withTimeout(
			processor.retrieve(intent.processorRef),
			deps.processorTimeoutMs ?? PROCESSOR_TIMEOUT_MS,
		).catch(() => null);
		if (payment) await settleIntent(deps, intent.id, payment);
		return;
	}
	if (intent.status === 'processing') await chargeIntent(deps, intent);
}

/**
 * Applies a processor's answer once: only an intent not yet final changes, and only a succeeded
 * payment grants anything (a new subscription, or the next period of a renewed one).
 */
async function settleIntent(deps: BillingDeps, id: string, payment: ProcessorPayment): Promise<void> {
	await deps.db.transaction((tx) => settleIntentIn(tx, id, payment, deps.clock()));
}

async function settleIntentIn(tx: Db, id: string, payment: ProcessorPayment, now: Date): Promise<void> {
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

async function renewSubscription(tx: Db, intent: IntentRow, now: Date): Promise<void> {
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
async function dunSubscription(tx: Db, intent: IntentRow, now: Date): Promise<void> {
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

// ───────────────────────────────────────────────────────────── renewals and reconciliation

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

async function renewOnce(deps: BillingDeps, subscription: SubscriptionRow): Promise<string | null> {
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

// ───────────────────────────────────────────────────────────── webhooks

/**
 * A processor's event: the signature and age are checked, the event id is recorded in the same
 * transaction as its effect (a replay changes nothing), and the payment's state is read from the
 * processor, not from the event. An event about a payment we do not know yet is refused with 409,
 * so the processor sends it again later.
 */
export async function handleWebhook(
	deps: BillingDeps,
	provider: PaymentProvider,
	rawBody: string,
	signature: string | null,
): Promise<{ received: true; duplicate: boolean }> {
	const processor = paymentProcessor(deps);
	if (processor.name !== provider)
		throw new AppError('not_found', 'This processor does not send us events.', {
			detail: 'unknown_processor',
		});
	let event: ReturnType<PaymentProcessor['parseWebhook']>;
	try {
		event = processor.parseWebhook(rawBody, signature, deps.clock());
	} catch {
		throw new AppError('bad_request', 'The webhook signature does not verify.', {
			detail: 'invalid_signature',
		});
	}
	const [seen] = await deps.db
		.select({ id: billingWebhookEvents.id })
		.from(billingWebhookEvents)
		.where(eq(billingWebhookEvents.id, event.id));
	if (seen) return { received: true, duplicate: true };
	let intent: IntentRow | undefined;
	let payment: ProcessorPayment | null = null;
	if (event.paymentRef) {
		[intent] = await deps.db
			.select()
			.from(billingPaymentIntents)
			.where(
				and(
					eq(billingPaymentIntents.processor, provider),
					eq(billingPaymentIntents.processorRef, event.paymentRef),
				),
			);
		if (!intent)
			throw new AppError('conflict', 'This payment is not known yet; send the event again later.', {
				detail: 'payment_not_yet_known',
			});
		payment = await processor.retrieve(event.paymentRef);
	}
	const now = deps.clock();
	const applied = await deps.db.transaction(async (tx) => {
		const [recorded] = await tx
			.insert(billingWebhookEvents)
			.values({ id: event.id, processor: provider, type: event.type, receivedAt: now })
			.onConflictDoNothing()
			.returning();
		if (!recorded) return false;
		if (intent && payment && payment.status !== 'requires_action' && payment.status !== 'processing')
			await settleIntentIn(tx, intent.id, payment, now);
		return true;
	});
	return { received: true, duplicate: !applied };
}

// ───────────────────────────────────────────────────────────── history, receipts, refunds

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
