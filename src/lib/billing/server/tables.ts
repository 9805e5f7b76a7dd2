import { sql } from 'drizzle-orm';
import {
	boolean,
	check,
	index,
	integer,
	jsonb,
	pgTable,
	serial,
	text,
	timestamp,
	uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from '../../auth/server/tables';

/** What a member can buy: a plan with its price (in the currency's minor unit) and billing period. */
export const billingProducts = pgTable('billing_products', {
	id: text('id').primaryKey(),
	name: text('name').notNull(),
	amount: integer('amount').notNull(),
	currency: text('currency').notNull(),
	frequencyInterval: integer('frequency_interval').notNull(),
	frequencyUnit: text('frequency_unit').notNull(),
	/** A first subscription to the plan starts with this free period (0: none). */
	trialInterval: integer('trial_interval').notNull().default(0),
	trialUnit: text('trial_unit').notNull().default('day'),
	platforms: jsonb('platforms').$type<string[]>().notNull().default(['web']),
	active: boolean('active').notNull().default(true),
});

/** A code worth a free period. `max_redemptions` null is unlimited; the count is raised by a conditional update. */
export const billingCoupons = pgTable(
	'billing_coupons',
	{
		code: text('code').primaryKey(),
		durationInterval: integer('duration_interval').notNull(),
		durationUnit: text('duration_unit').notNull(),
		maxRedemptions: integer('max_redemptions'),
		redemptionCount: integer('redemption_count').notNull().default(0),
		/** Members may claim a grantable coupon without knowing its code (a promotion's offer). */
		grantable: boolean('grantable').notNull().default(false),
		active: boolean('active').notNull().default(true),
	},
	(t) => [
		check(
			'billing_coupons_redemptions_check',
			sql`${t.maxRedemptions} is null or ${t.redemptionCount} <= ${t.maxRedemptions}`,
		),
	],
);

/** A coupon a member claimed; redeeming it starts (or lengthens) their free period. Once per member. */
export const billingUserCoupons = pgTable(
	'billing_user_coupons',
	{
		id: serial('id').primaryKey(),
		userId: integer('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		couponCode: text('coupon_code')
			.notNull()
			.references(() => billingCoupons.code),
		countryCode: text('country_code').notNull().default('US'),
		redeemed: boolean('redeemed').notNull().default(false),
		redeemedAt: timestamp('redeemed_at', { withTimezone: true }),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(t) => [uniqueIndex('billing_user_coupons_pair_idx').on(t.userId, t.couponCode)],
);

/**
 * A saved card: only the processor's reference to it, its brand and last four digits. The card
 * number never reaches us: the browser turns it into a token with the processor's own script.
 */
export const billingProfiles = pgTable(
	'billing_profiles',
	{
		id: serial('id').primaryKey(),
		userId: integer('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		paymentProvider: text('payment_provider').notNull(),
		ccToken: text('cc_token').notNull(),
		cardBrand: text('card_brand').notNull(),
		cardLast4: text('card_last4').notNull(),
		isDefault: boolean('is_default').notNull().default(false),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(t) => [index('billing_profiles_user_idx').on(t.userId)],
);

/**
 * A member's plan. `ends_at` is the end of the current paid (or free) period: renewals charge for
 * the period starting there. A failed renewal keeps the member `past_due` while dunning retries.
 */
export const billingSubscriptions = pgTable(
	'billing_subscriptions',
	{
		id: serial('id').primaryKey(),
		userId: integer('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		productId: text('product_id')
			.notNull()
			.references(() => billingProducts.id),
		status: text('status').notNull(),
		isTrial: boolean('is_trial').notNull().default(false),
		requestedCancellation: boolean('requested_cancellation').notNull().default(false),
		startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
		endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
		billingProfileId: integer('billing_profile_id').references(() => billingProfiles.id, {
			onDelete: 'set null',
		}),
		couponCode: text('coupon_code'),
		trialInterval: integer('trial_interval').notNull().default(0),
		trialUnit: text('trial_unit').notNull().default('day'),
		/** Failed renewal attempts for the current period, and when dunning tries again. */
		failedAttempts: integer('failed_attempts').notNull().default(0),
		retryAt: timestamp('retry_at', { withTimezone: true }),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(t) => [
		index('billing_subscriptions_user_idx').on(t.userId),
		index('billing_subscriptions_due_idx').on(t.status, t.endsAt),
		// One running membership per member (a trial is an active one): a second purchase is refused.
		uniqueIndex('billing_subscriptions_one_running_idx')
			.on(t.userId)
			.where(sql`${t.status} in ('active', 'past_due')`),
		check(
			'billing_subscriptions_status_check',
			sql`${t.status} in ('pending', 'active', 'past_due', 'lapsed', 'cancelled')`,
		),
	],
);

/**
 * One payment attempt, from the checkout or a renewal, with the price the server set. The member's
 * Idempotency-Key makes a double-clicked Subscribe one intent; `request_hash` tells a reused key
 * with another body apart. Renewals are unique per subscription and period: never two charges.
 */
export const billingPaymentIntents = pgTable(
	'billing_payment_intents',
	{
		id: text('id').primaryKey(),
		userId: integer('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		productId: text('product_id')
			.notNull()
			.references(() => billingProducts.id),
		subscriptionId: integer('subscription_id').references(() => billingSubscriptions.id, {
			onDelete: 'cascade',
		}),
		purpose: text('purpose').notNull(),
		/** For a renewal: the start of the period it pays for. */
		periodStart: timestamp('period_start', { withTimezone: true }),
		couponCode: text('coupon_code'),
		amount: integer('amount').notNull(),
		currency: text('currency').notNull(),
		status: text('status').notNull(),
		processor: text('processor').notNull(),
		processorRef: text('processor_ref'),
		clientSecret: text('client_secret').notNull(),
		billingProfileId: integer('billing_profile_id').references(() => billingProfiles.id, {
			onDelete: 'set null',
		}),
		idempotencyKey: text('idempotency_key'),
		requestHash: text('request_hash'),
		failureCode: text('failure_code'),
		failureMessage: text('failure_message'),
		/** Processor calls made for this intent: each gets its own idempotency key. */
		attempts: integer('attempts').notNull().default(0),
		succeededAt: timestamp('succeeded_at', { withTimezone: true }),
		refundedAt: timestamp('refunded_at', { withTimezone: true }),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
		updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(t) => [
		index('billing_payment_intents_user_idx').on(t.userId),
		uniqueIndex('billing_payment_intents_key_idx').on(t.userId, t.idempotencyKey),
		uniqueIndex('billing_payment_intents_processor_ref_idx').on(t.processor, t.processorRef),
		uniqueIndex('billing_payment_intents_renewal_idx')
			.on(t.subscriptionId, t.periodStart)
			.where(sql`${t.purpose} = 'renewal'`),
		check('billing_payment_intents_purpose_check', sql`${t.purpose} in ('checkout', 'renewal')`),
		check(
			'billing_payment_intents_status_check',
			sql`${t.status} in ('creating', 'requires_payment_method', 'requires_action', 'processing', 'succeeded', 'failed', 'refunded')`,
		),
	],
);

/** Processor events already applied: a replayed event id changes nothing. */
export const billingWebhookEvents = pgTable('billing_webhook_events', {
	id: text('id').primaryKey(),
	processor: text('processor').notNull(),
	type: text('type').notNull(),
	receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The built-in test processor's own books (it stands in for a card processor's servers): the
 * payments it holds, keyed by the idempotency key each request carried.
 */
export const localProcessorPayments = pgTable(
	'local_processor_payments',
	{
		id: text('id').primaryKey(),
		idempotencyKey: text('idempotency_key').notNull(),
		amount: integer('amount').notNull(),
		currency: text('currency').notNull(),
		paymentMethod: text('payment_method'),
		status: text('status').notNull(),
		failureCode: text('failure_code'),
		failureMessage: text('failure_message'),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(t) => [uniqueIndex('local_processor_payments_key_idx').on(t.idempotencyKey)],
);

/**
 * Saved cards the built-in test processor was told to forget, as a card processor detaches a
 * payment method: a later charge against one is refused.
 */
export const localProcessorForgottenCards = pgTable('local_processor_forgotten_cards', {
	paymentMethod: text('payment_method').primaryKey(),
	forgottenAt: timestamp('forgotten_at', { withTimezone: true }).notNull().defaultNow(),
});
