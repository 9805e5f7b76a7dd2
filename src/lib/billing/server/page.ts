import type { AstroCookies } from 'astro';
import * as v from 'valibot';
import { memberTimeZone } from '../../account/server/time-zone';
import type { Viewer } from '../../auth/contract';
import { encodeSessionHint, SESSION_HINT_COOKIE } from '../../auth/hint';
import { cookieIsSecure } from '../../auth/server/api';
import { findViewerById, SESSION_ABSOLUTE_SECONDS } from '../../auth/server/session';
import { formatDay } from '../../core/dates';
import { AppError } from '../../core/errors';
import { idNumber } from '../../core/integers';
import type { AppDeps } from '../../core/server/deps';
import { loginPathFor } from '../../site/guards';
import { type CardEntryView, CouponCodeSchema, formatMoney, type SubscriptionView } from '../contract';
import { STRIPE_JS_ORIGIN } from '../stripe-card';
import { deleteBillingProfile, listBillingProfiles, makeDefaultBillingProfile } from './billing-profiles';
import { listProducts } from './catalogue';
import { graceEndsAt } from './dunning';
import { redeemCouponCode } from './member-coupons';
import { paymentHistory } from './payment-history';
import { listSubscriptions, premiumStatus, setAutoRenew, tryRenewalNow } from './subscriptions';
import { paymentProcessor } from './webhooks';

/**
 * The card form a page renders for the processor in use. With Stripe the page's CSP lets Stripe.js
 * load from js.stripe.com (Stripe asks that it always come from there); otherwise it names no
 * other origin.
 */
export function cardEntryFor(
	deps: AppDeps,
	csp: { insertScriptResource(resource: string): void } | undefined,
): CardEntryView {
	const view = paymentProcessor(deps).cardEntry;
	if (view.provider === 'stripe') csp?.insertScriptResource(STRIPE_JS_ORIGIN);
	return view;
}

/** "per month", "per year", "every 3 months". */
export function periodText(interval: number, unit: string): string {
	if (unit === 'month' && interval === 12) return 'per year';
	if (interval === 1) return `per ${unit}`;
	return `every ${interval} ${unit}s`;
}

const STATUS_TEXT: Record<string, string> = {
	active: 'Active',
	past_due: 'Payment failed: we will try your card again',
	lapsed: 'Lapsed after failed payments',
	cancelled: 'Cancelled',
	pending: 'Waiting for payment',
};

export type MembershipPlan = SubscriptionView & {
	planName: string;
	priceText: string;
	statusText: string;
	/** When the next charge happens and for how much; null when none is coming. */
	nextChargeText: string | null;
	autoRenew: boolean;
	changeable: boolean;
	/** A renewal failed: the last day the member can replace the card and keep MVP. */
	fixCardByText: string | null;
};

/** Everything the membership page shows, for the signed-in member only. */
export async function loadMembership(deps: AppDeps, viewer: Viewer) {
	const [subscriptions, products, profiles, history, status, zone] = await Promise.all([
		listSubscriptions(deps, viewer),
		listProducts(deps),
		listBillingProfiles(deps, viewer),
		paymentHistory(deps, viewer),
		premiumStatus(deps, viewer.id),
		memberTimeZone(deps, viewer.id),
	]);
	// Days as the member's own calendar has them, not UTC's.
	const day = (date: string | Date) => formatDay(new Date(date), zone);
	const names = new Map(products.map((product) => [product.id, product.name]));
	const plans: MembershipPlan[] = subscriptions.map((subscription) => {
		const price = formatMoney(
			subscription.payment_details.price_point.amount,
			subscription.payment_details.price_point.currency,
		);
		const changeable = ['active', 'past_due'].includes(subscription.subscription_status);
		return {
			...subscription,
			planName: names.get(subscription.product_id) ?? subscription.product_id,
			priceText: `${price} ${periodText(subscription.subscription_details.frequency_interval, subscription.subscription_details.frequency_unit)}`,
			statusText: `${STATUS_TEXT[subscription.subscription_status] ?? subscription.subscription_status}${subscription.is_trial && changeable ? ' (free period)' : ''}`,
			nextChargeText:
				changeable && !subscription.requested_cancellation
					? `${price} on ${day(subscription.subscription_end_date)}`
					: null,
			autoRenew: !subscription.requested_cancellation,
			changeable,
			fixCardByText:
				subscription.subscription_status === 'past_due'
					? day(graceEndsAt(new Date(subscription.subscription_end_date)))
					: null,
		};
	});
	return {
		plans,
		profiles,
		history: history.map((record) => ({
			...record,
			amountText: formatMoney(record.amount, record.currency),
			dayText: day(record.at),
		})),
		status,
		endsText: (plan: MembershipPlan) => day(plan.subscription_end_date),
		testMode: paymentProcessor(deps).testMode,
	};
}

const DONE_TEXT = {
	renew_on: 'Auto-renew is on.',
	renew_off: 'Auto-renew is off: your membership ends at the end of the period you paid for.',
	card_default: 'That card is now your default.',
	card_deleted: 'The card is deleted.',
	coupon: 'Your coupon is redeemed. Enjoy MVP!',
	card_saved: 'Your card is saved and pays your renewals from now on.',
	card_declined_again:
		'Your card is saved, but it was declined for the renewal too. Please try another card.',
	renewal_tried: 'Your next renewal was tried now; the status below says how it went.',
} as const;
export type DoneKey = keyof typeof DONE_TEXT;

export function doneText(key: string | null): string | null {
	return key && key in DONE_TEXT ? DONE_TEXT[key as DoneKey] : null;
}

const IdField = idNumber('must be an id');
const MembershipForm = v.variant('action', [
	v.object({ action: v.literal('auto_renew'), subscription: IdField, auto_renew: v.picklist(['on', 'off']) }),
	v.object({ action: v.literal('card_default'), profile: IdField }),
	v.object({ action: v.literal('card_delete'), profile: IdField }),
	v.object({ action: v.literal('renew_now'), subscription: IdField }),
]);

/** The membership page's forms (they work without script). Answers what was done, or the problem. */
export async function handleMembershipPost(
	deps: AppDeps,
	viewer: Viewer,
	form: FormData | null,
): Promise<{ ok: true; done: DoneKey } | { ok: false; message: string }> {
	const parsed = v.safeParse(MembershipForm, form ? Object.fromEntries(form) : {});
	if (!parsed.success) return { ok: false, message: 'That form was not complete. Please try again.' };
	const input = parsed.output;
	try {
		if (input.action === 'auto_renew') {
			await setAutoRenew(deps, viewer, input.subscription, input.auto_renew === 'on');
			return { ok: true, done: input.auto_renew === 'on' ? 'renew_on' : 'renew_off' };
		}
		if (input.action === 'renew_now') {
			await tryRenewalNow(deps, viewer, input.subscription);
			return { ok: true, done: 'renewal_tried' };
		}
		if (input.action === 'card_default') {
			await makeDefaultBillingProfile(deps, viewer, input.profile);
			return { ok: true, done: 'card_default' };
		}
		await deleteBillingProfile(deps, viewer, input.profile);
		return { ok: true, done: 'card_deleted' };
	} catch (error) {
		if (error instanceof AppError && error.status < 500) return { ok: false, message: error.message };
		throw error;
	}
}

/** The coupon and promo pages' form: claims and redeems a code in one step. */
async function handleCouponPost(
	deps: AppDeps,
	viewer: Viewer,
	form: FormData | null,
): Promise<{ ok: true } | { ok: false; message: string; code: string }> {
	const raw = form?.get('code');
	const typed = typeof raw === 'string' ? raw : '';
	const parsed = v.safeParse(CouponCodeSchema, typed);
	if (!parsed.success)
		return { ok: false, message: 'Enter the coupon code as it is written.', code: typed.slice(0, 40) };
	try {
		await redeemCouponCode(deps, viewer, parsed.output);
		return { ok: true };
	} catch (error) {
		if (error instanceof AppError && error.status < 500)
			return { ok: false, message: error.message, code: parsed.output };
		throw error;
	}
}

/**
 * The coupon and promo pages (the same form in two wordings): a visitor posting is sent to log in,
 * a redeemed code to the membership page; otherwise the form shows again with its problem.
 */
export async function couponPage(
	deps: AppDeps,
	page: { viewer: Viewer | null; request: Request; url: URL; cookies: AstroCookies },
): Promise<{ redirect: string } | { problem: string | null; code: string; status: number }> {
	const code = page.url.searchParams.get('code')?.slice(0, 40) ?? '';
	if (page.request.method !== 'POST') return { problem: null, code, status: 200 };
	if (!page.viewer) return { redirect: loginPathFor(page.url) };
	const outcome = await handleCouponPost(deps, page.viewer, await page.request.formData().catch(() => null));
	if (!outcome.ok) return { problem: outcome.message, code: outcome.code, status: 409 };
	await updateHintCookie(deps, page.viewer, page.cookies);
	return { redirect: '/premium/membership?done=coupon' };
}

/** The plans on the checkout, cheapest first. */
export async function checkoutPlans(deps: AppDeps) {
	return (await listProducts(deps)).map((product) => ({
		id: product.id,
		name: product.name,
		amount: product.availability_details.price_point.amount,
		currency: product.availability_details.price_point.currency,
		period: periodText(
			product.subscription_details.frequency_interval,
			product.subscription_details.frequency_unit,
		),
	}));
}

/**
 * After a page's form changed who is an MVP member (a verified payment, a redeemed coupon), the
 * readable session hint follows at once, so pre-rendered pages drop the promo banner too.
 */
export async function updateHintCookie(deps: AppDeps, before: Viewer, cookies: AstroCookies): Promise<void> {
	const now = await findViewerById(deps, before.id);
	if (!now || now.isPremium === before.isPremium || !cookies.has(SESSION_HINT_COOKIE)) return;
	cookies.set(SESSION_HINT_COOKIE, encodeSessionHint(now), {
		path: '/',
		sameSite: 'lax',
		secure: cookieIsSecure(deps.config),
		maxAge: SESSION_ABSOLUTE_SECONDS,
	});
}
