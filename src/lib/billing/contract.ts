import * as v from 'valibot';
import { dbInteger, idNumber } from '../core/integers';

/** Processors a billing profile or payment can belong to: the built-in test one, or Stripe. */
export const PAYMENT_PROVIDERS = ['local', 'stripe'] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];

/**
 * What a page's card form runs on: the built-in test processor's own fields, or Stripe Elements
 * loaded with the publishable key. Either way the card becomes a token in the browser.
 */
export type CardEntryView =
	| { provider: 'local'; testMode: true }
	| { provider: 'stripe'; testMode: boolean; publishableKey: string };

/** Checkout pages are offered for these brands' domains (MyFitnessPal and MapMyFitness). */
export const CHECKOUT_DOMAINS = ['MFP', 'MMF'] as const;
/** Billing serves one country for now. */
export const BILLING_COUNTRY = 'US';

export const SUBSCRIPTION_STATUSES = ['pending', 'active', 'past_due', 'lapsed', 'cancelled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
export const PAYMENT_INTENT_STATUSES = [
	'creating',
	'requires_payment_method',
	'requires_action',
	'processing',
	'succeeded',
	'failed',
	'refunded',
] as const;
export type PaymentIntentStatus = (typeof PAYMENT_INTENT_STATUSES)[number];

export type PeriodUnit = 'day' | 'month' | 'year';

/**
 * Length of a free period in days: a 12-month (or 1-year) period counts 365 days, other months 30
 * each, days as given. So a 90-day coupon reads as 3 months free and a 365-day one as a year.
 */
export function periodDays(interval: number, unit: string): number {
	if (unit === 'year') return interval * 365;
	if (unit === 'month') return interval === 12 ? 365 : interval * 30;
	return interval;
}

/** "3 months", "1 month", "1 year", "10 days": how a free period reads. */
export function describePeriod(interval: number, unit: string): string {
	const days = periodDays(interval, unit);
	if (days > 0 && days % 365 === 0) return plural(days / 365, 'year');
	if (days > 0 && days % 30 === 0) return plural(days / 30, 'month');
	return plural(days, 'day');
}

function plural(count: number, word: string): string {
	return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** End of a paid period: calendar months or years on, clamped to the month's last day. */
export function addBillingPeriod(start: Date, interval: number, unit: string): Date {
	if (unit === 'day') return new Date(start.getTime() + interval * 86_400_000);
	const months = unit === 'year' ? interval * 12 : interval;
	const end = new Date(start);
	const day = end.getUTCDate();
	end.setUTCDate(1);
	end.setUTCMonth(end.getUTCMonth() + months);
	const lastDay = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
	end.setUTCDate(Math.min(day, lastDay));
	return end;
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** "$5.99": an amount in the currency's minor unit. */
export function formatMoney(amount: number, currency: string): string {
	const code = currency.toUpperCase();
	let format = moneyFormats.get(code);
	if (!format) {
		format = new Intl.NumberFormat('en-US', { style: 'currency', currency: code });
		moneyFormats.set(code, format);
	}
	return format.format(amount / 100);
}

// ── Shapes the API answers (and islands read) ──

export type ProductView = {
	id: string;
	name: string;
	availability_details: {
		price_point: { amount: number; currency: string };
		available_platforms: string[];
	};
	subscription_details: {
		frequency_interval: number;
		frequency_unit: string;
		trial_details: { duration_interval: number; duration_unit: string } | null;
	};
};

export type CouponView = {
	id: string;
	duration_interval: number;
	duration_unit: string;
	free_period: string;
};

export type UserCouponView = {
	id: number;
	user_id: number;
	coupon_id: string;
	country_code: string;
	redeemed: boolean;
};

export type BillingProfileView = {
	billing_profile_id: number;
	payment_provider: PaymentProvider;
	cc_token: string;
	card_brand: string;
	card_last4: string;
	default: boolean;
};

export type SubscriptionView = {
	subscription_id: number;
	subscription_status: SubscriptionStatus;
	is_trial: boolean;
	requested_cancellation: boolean;
	subscription_start_date: string;
	subscription_end_date: string;
	product_id: string;
	payment_details: {
		price_point: { amount: number; currency: string };
		platform_details: { platform_name: string; payment_providers: PaymentProvider[] };
	};
	subscription_details: {
		frequency_interval: number;
		frequency_unit: string;
		trial_details: { duration_interval: number; duration_unit: string } | null;
	};
};

export type PaymentIntentView = {
	id: string;
	status: PaymentIntentStatus;
	clientSecret: string;
	checkoutUrl: string;
	amount: number;
	currency: string;
	product_id: string;
	coupon: string | null;
	/** Where the member completes the extra verification step, while status is requires_action. */
	next_action_url: string | null;
	/** Why the card was refused, in words the member can act on. */
	failure_message: string | null;
	/** The receipt page once the payment succeeded. */
	receipt_url: string | null;
	/** True when no real card is charged: the built-in test processor. */
	test_mode: boolean;
};

export type PremiumStatus = { is_ad_free: boolean; days_remaining: number };

// ── Requests ──

const Id = (name: string) => idNumber(`${name} must be a whole number.`);
export const IdParamSchema = v.object({ id: Id('id') });

export const CouponCodeSchema = v.pipe(
	v.string('The coupon code must be text.'),
	v.trim(),
	v.regex(/^[A-Za-z0-9_-]{2,40}$/, 'A coupon code is 2 to 40 letters, digits, dashes or underscores.'),
	v.toUpperCase(),
);
export const CouponParamSchema = v.object({ code: CouponCodeSchema });

export const ProductIdSchema = v.pipe(
	v.string('The product must be text.'),
	v.regex(/^[a-z0-9-]{2,40}$/, 'No such product.'),
);
export const ProductParamSchema = v.object({ id: ProductIdSchema });

/** What a processor's script made of a card: never the card number itself. */
export const CardTokenSchema = v.pipe(
	v.string('The card token must be text.'),
	v.regex(/^(tok|pm)_[A-Za-z0-9_]{4,200}$/, 'The card token is not one the processor made.'),
);

const CountryCodeSchema = v.pipe(v.string(), v.regex(/^[A-Z]{2}$/, 'country_code is two capital letters.'));

export const BillingProfileCreateSchema = v.object({
	payment_provider: v.picklist(PAYMENT_PROVIDERS, 'payment_provider must be local or stripe.'),
	cc_token: CardTokenSchema,
	default: v.optional(v.boolean()),
});
export const BillingProfilePatchSchema = v.object({
	default: v.literal(true, 'A billing profile is made default with default: true.'),
});

export const PaidSubscriptionCreateSchema = v.object({
	product_id: ProductIdSchema,
	billing_details: v.optional(
		v.object({
			coupon: v.optional(CouponCodeSchema),
			country_code: v.optional(CountryCodeSchema),
			payment_provider: v.optional(
				v.picklist(PAYMENT_PROVIDERS, 'payment_provider must be local or stripe.'),
			),
		}),
	),
	billing_profile_id: v.optional(dbInteger('billing_profile_id', 1)),
});
export type PaidSubscriptionCreate = v.InferOutput<typeof PaidSubscriptionCreateSchema>;

export const PaidSubscriptionPatchSchema = v.object({
	auto_renew: v.boolean('auto_renew must be true or false.'),
});

export const UserCouponCreateSchema = v.object({
	coupon_id: CouponCodeSchema,
	country_code: v.optional(CountryCodeSchema),
});
export const UserCouponPatchSchema = v.object({
	redeemed: v.literal(true, 'A user coupon is redeemed with redeemed: true.'),
});

/** The price comes from the catalogue; a client-sent amount is ignored. */
export const PaymentIntentCreateSchema = v.object({
	product_id: ProductIdSchema,
	coupon: v.optional(v.union([v.literal(''), CouponCodeSchema])),
});
export type PaymentIntentCreate = v.InferOutput<typeof PaymentIntentCreateSchema>;

export const PaymentIntentIdSchema = v.pipe(
	v.string('The payment intent id must be text.'),
	v.regex(/^pi_[A-Za-z0-9]{8,40}$/, 'No such payment intent.'),
);
export const PaymentIntentRefSchema = v.object({ payment_intent_id: PaymentIntentIdSchema });
export const AddCardSchema = v.object({
	payment_intent_id: PaymentIntentIdSchema,
	cc_token: CardTokenSchema,
});
export const PaymentIntentParamSchema = v.object({
	a: v.picklist(CHECKOUT_DOMAINS, 'The checkout domain is MFP or MMF.'),
	b: PaymentIntentIdSchema,
});

export const VerificationAnswerSchema = v.object({
	payment_intent_id: PaymentIntentIdSchema,
	approve: v.boolean('approve must be true or false.'),
});
