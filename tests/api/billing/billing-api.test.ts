import { eq, sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { deleteAccount } from '../../../src/lib/account/server/service';
import { users } from '../../../src/lib/auth/server/tables';
import { addBillingPeriod, periodDays } from '../../../src/lib/billing/contract';
import { checkFeature, PREMIUM_FEATURES } from '../../../src/lib/billing/features';
import { createCoupon } from '../../../src/lib/billing/server/catalogue';
import { billingJobs } from '../../../src/lib/billing/server/jobs';
import { localWebhookSecret } from '../../../src/lib/billing/server/local-processor';
import { refundPayment } from '../../../src/lib/billing/server/payment-history';
import { runBillingCycle } from '../../../src/lib/billing/server/renewals';
import { listSubscriptions, premiumStatus } from '../../../src/lib/billing/server/subscriptions';
import {
	billingPaymentIntents,
	billingProfiles,
	billingSubscriptions,
	billingWebhookEvents,
	localProcessorPayments,
} from '../../../src/lib/billing/server/tables';
import { paymentProcessor } from '../../../src/lib/billing/server/webhooks';
import { isUniqueViolation } from '../../../src/lib/db/errors';
import { enqueueJob, runDueJobs } from '../../../src/lib/jobs/server/service';
import { callApi } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import {
	addMember,
	cardToken,
	checkout,
	createBillingTestApp,
	type Member,
	newKey,
	resetBilling,
} from './helpers';

let database: TestDatabase;
let made: ReturnType<typeof createBillingTestApp>;
let alice: Member;
let bob: Member;

beforeAll(async () => {
	database = await openTestDb();
});
beforeEach(async () => {
	await resetBilling(database);
	// A fresh app per test: its clock starts at 2026-06-01T12:00Z and some tests move it.
	made = createBillingTestApp(database);
	alice = await addMember(made.deps, 'alice');
	bob = await addMember(made.deps, 'bob');
});
afterAll(async () => {
	await database.close();
});

const isPremium = async (member: Member) =>
	(await made.deps.db.select({ p: users.isPremium }).from(users).where(eq(users.id, member.id)))[0].p;
/** Read through the service: tests that move the clock past a token's life still read them. */
const subscriptionsOf = (member: Member) =>
	listSubscriptions(made.deps, {
		id: member.id,
		username: member.username,
		displayName: member.username,
		isPremium: false,
	});
const chargesAtProcessor = async () => (await made.deps.db.select().from(localProcessorPayments)).length;

test('paid subscriptions are listed for their member only', async () => {
	await checkout(made.app, alice, '4242424242424242');
	const list = async (member: Member) =>
		(await callApi(made.app, 'GET', '/api/billing/paid-subscriptions', { token: member.token })).json
			._embedded.paid_subscriptions;
	expect(await list(alice)).toHaveLength(1);
	expect(await list(bob)).toEqual([]);
});

describe('catalogue', () => {
	test('products carry their price point, currency and billing period', async () => {
		const monthly = await callApi(made.app, 'GET', '/api/billing/products/mvp-monthly');
		expect(monthly.status).toBe(200);
		expect(monthly.json.availability_details.price_point).toEqual({ amount: 599, currency: 'usd' });
		expect(monthly.json.subscription_details).toMatchObject({
			frequency_interval: 1,
			frequency_unit: 'month',
		});
		const annual = await callApi(made.app, 'GET', '/api/billing/products/mvp-annual');
		expect(annual.json.subscription_details.frequency_interval).toBe(12);
	});

	test('an unknown product answers product_fetch/1 in the billing error shape', async () => {
		const answer = await callApi(made.app, 'GET', '/api/billing/products/mvp-weekly');
		expect(answer.status).toBe(404);
		expect(answer.json.error_details.code).toBe('product_fetch/1');
		expect(answer.json.error_description).toMatch(/not on sale/);
	});

	test('coupons read as free periods: 90 days three months, 30 one month, 365 a year', async () => {
		const free = async (code: string) =>
			(await callApi(made.app, 'GET', `/api/billing/coupons/${code}`)).json.free_period;
		expect(await free('MVP90')).toBe('3 months');
		expect(await free('mvp30')).toBe('1 month');
		expect(await free('MVPYEAR')).toBe('1 year');
		expect((await callApi(made.app, 'GET', '/api/billing/coupons/NOPE')).json.error_details.code).toBe(
			'coupon_not_found',
		);
	});

	test('a 12-month period counts 365 days, other months 30 each', () => {
		expect(periodDays(12, 'month')).toBe(365);
		expect(periodDays(3, 'month')).toBe(90);
		expect(periodDays(1, 'year')).toBe(365);
		expect(addBillingPeriod(new Date('2026-01-31T10:00:00Z'), 1, 'month').toISOString()).toBe(
			'2026-02-28T10:00:00.000Z',
		);
	});
});

describe('checkout with the built-in test processor', () => {
	test('a good card buys MVP: one charge at the catalogue price, an active subscription and premium status', async () => {
		const { intent, capture } = await checkout(made.app, alice, '4242424242424242');
		expect(intent.json).toMatchObject({ amount: 599, currency: 'usd', test_mode: true });
		expect(capture?.status).toBe(200);
		expect(capture?.json.status).toBe('succeeded');
		expect(capture?.json.receipt_url).toBe(`/premium/receipt/${intent.json.id}`);
		const [subscription] = await subscriptionsOf(alice);
		expect(subscription).toMatchObject({
			subscription_status: 'active',
			is_trial: false,
			requested_cancellation: false,
			product_id: 'mvp-monthly',
		});
		expect(subscription.subscription_end_date).toBe('2026-07-01T12:00:00.000Z');
		expect(await isPremium(alice)).toBe(true);
		expect(await premiumStatus(made.deps, alice.id)).toEqual({ is_ad_free: true, days_remaining: -1 });
		expect(await premiumStatus(made.deps, bob.id)).toEqual({ is_ad_free: false, days_remaining: 0 });
		expect(await chargesAtProcessor()).toBe(1);
	});

	test('a declined card is refused with the processor’s words and grants nothing', async () => {
		const { card } = await checkout(made.app, alice, '4000000000000002');
		expect(card?.status).toBe(422);
		expect(card?.json).toEqual({
			error_details: { code: 'card_declined' },
			error_description: 'Your card was declined.',
		});
		expect(await subscriptionsOf(alice)).toEqual([]);
		expect(await isPremium(alice)).toBe(false);
	});

	test('a card needing the extra step waits for it; approving completes the purchase by a signed webhook', async () => {
		const { intent, capture } = await checkout(made.app, alice, '4000002500003155');
		expect(capture?.json.status).toBe('requires_action');
		expect(capture?.json.next_action_url).toMatch(/^\/premium\/checkout\/authenticate\?payment=pi_local_/);
		expect(await isPremium(alice)).toBe(false);
		const answered = await callApi(made.app, 'POST', '/api/checkoutapi/verification', {
			token: alice.token,
			body: { payment_intent_id: intent.json.id, approve: true },
		});
		expect(answered.json.status).toBe('succeeded');
		expect(await isPremium(alice)).toBe(true);
		expect(await made.deps.db.select().from(billingWebhookEvents)).toHaveLength(1);
		expect(await subscriptionsOf(alice)).toHaveLength(1);
	});

	test('refusing the extra step fails the payment; another card can then be used', async () => {
		const { intent } = await checkout(made.app, alice, '4000002500003155');
		const refused = await callApi(made.app, 'POST', '/api/checkoutapi/verification', {
			token: alice.token,
			body: { payment_intent_id: intent.json.id, approve: false },
		});
		expect(refused.json.status).toBe('failed');
		expect(refused.json.failure_message).toMatch(/not confirmed/);
		await callApi(made.app, 'POST', '/api/checkoutapi/addCard', {
			token: alice.token,
			body: { payment_intent_id: intent.json.id, cc_token: cardToken('4242424242424242') },
		});
		const retried = await callApi(made.app, 'POST', '/api/checkoutapi/prepareToCapture', {
			token: alice.token,
			body: { payment_intent_id: intent.json.id },
		});
		expect(retried.json.status).toBe('succeeded');
		expect(await isPremium(alice)).toBe(true);
	});

	test('a coupon at checkout makes the first period free and starts a trial of its length', async () => {
		const { intent, capture } = await checkout(made.app, alice, '4242424242424242', { coupon: 'MVP90' });
		expect(intent.json.amount).toBe(0);
		expect(capture?.json.status).toBe('succeeded');
		const [subscription] = await subscriptionsOf(alice);
		expect(subscription.is_trial).toBe(true);
		expect(subscription.subscription_details.trial_details).toEqual({
			duration_interval: 90,
			duration_unit: 'day',
		});
		expect(subscription.subscription_end_date).toBe('2026-08-30T12:00:00.000Z');
		expect(await chargesAtProcessor()).toBe(0);
		const again = await callApi(made.app, 'POST', '/api/checkoutapi/paymentIntent', {
			token: alice.token,
			body: { product_id: 'mvp-monthly', coupon: 'MVP90' },
			headers: { 'idempotency-key': newKey() },
		});
		expect(again.json.error_details.code).toBe('coupon_already_used');
	});

	test('no card number reaches a table or a log line', async () => {
		await checkout(made.app, alice, '4242424242424242');
		await checkout(made.app, bob, '4000002500003155');
		await checkout(made.app, bob, '4000000000000002');
		const tables = (await made.deps.db.execute(
			sql`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`,
		)) as unknown as { rows: { table_name: string }[] };
		let everything = made.logLines.join('\n');
		for (const { table_name } of tables.rows) {
			const rows = (await made.deps.db.execute(
				sql.raw(`select t::text as row from "${table_name}" t`),
			)) as unknown as {
				rows: unknown[];
			};
			everything += JSON.stringify(rows.rows);
		}
		expect(everything).toContain('4242');
		for (const number of ['4242424242424242', '4000002500003155', '4000000000000002'])
			expect(everything).not.toContain(number);
	});
});

describe('security 34: double submits and idempotency keys', () => {
	test('the same key answers the same intent; the same key with another plan is 422', async () => {
		const body = { product_id: 'mvp-monthly' };
		const headers = { 'idempotency-key': 'subscribe-click-0001' };
		const first = await callApi(made.app, 'POST', '/api/checkoutapi/paymentIntent', {
			token: alice.token,
			body,
			headers,
		});
		const second = await callApi(made.app, 'POST', '/api/checkoutapi/paymentIntent', {
			token: alice.token,
			body,
			headers,
		});
		expect(first.status).toBe(201);
		expect(second.status).toBe(200);
		expect(second.headers.get('idempotent-replayed')).toBe('true');
		expect(second.json.id).toBe(first.json.id);
		const other = await callApi(made.app, 'POST', '/api/checkoutapi/paymentIntent', {
			token: alice.token,
			body: { product_id: 'mvp-annual' },
			headers,
		});
		expect(other.status).toBe(422);
		expect(other.json.error_details.code).toBe('idempotency_key_reused');
	});

	test('two captures of one intent at once make one charge; the one that loses the race is 409', async () => {
		const intent = await callApi(made.app, 'POST', '/api/checkoutapi/paymentIntent', {
			token: alice.token,
			body: { product_id: 'mvp-monthly' },
			headers: { 'idempotency-key': newKey() },
		});
		await callApi(made.app, 'POST', '/api/checkoutapi/addCard', {
			token: alice.token,
			body: { payment_intent_id: intent.json.id, cc_token: cardToken('4242424242424242') },
		});
		const captures = await Promise.all(
			[1, 2, 3].map(() =>
				callApi(made.app, 'POST', '/api/checkoutapi/prepareToCapture', {
					token: alice.token,
					body: { payment_intent_id: intent.json.id },
				}),
			),
		);
		for (const capture of captures) expect([200, 409]).toContain(capture.status);
		expect(captures.some((capture) => capture.json.status === 'succeeded')).toBe(true);
		expect(await chargesAtProcessor()).toBe(1);
		expect(await subscriptionsOf(alice)).toHaveLength(1);
	});

	test('a client-sent amount is ignored: the price is the catalogue’s', async () => {
		const answer = await callApi(made.app, 'POST', '/api/checkoutapi/paymentIntent', {
			token: alice.token,
			body: { product_id: 'mvp-annual', amount: 1, discount: 100 },
			headers: { 'idempotency-key': newKey() },
		});
		expect(answer.json.amount).toBe(2999);
		const [row] = await made.deps.db.select().from(billingPaymentIntents);
		expect(row.amount).toBe(2999);
	});
});

describe('one charge, one membership', () => {
	const buyAgain = (member: Member, headers: Record<string, string>) =>
		callApi(made.app, 'POST', '/api/checkoutapi/paymentIntent', {
			token: member.token,
			body: { product_id: 'mvp-monthly' },
			headers,
		});

	test('a member who holds a membership cannot buy it again, with or without a new key', async () => {
		await checkout(made.app, alice, '4242424242424242');
		const withoutKey = await buyAgain(alice, {});
		expect(withoutKey.status).toBe(400);
		expect(withoutKey.json.error_details.code).toBe('idempotency_key_required');
		expect(withoutKey.json.error_description).toMatch(/Idempotency-Key/);
		const withNewKey = await buyAgain(alice, { 'idempotency-key': newKey() });
		expect(withNewKey.status).toBe(409);
		expect(withNewKey.json.error_details.code).toBe('already_subscribed');
		expect(withNewKey.json.error_description).toContain('/premium/membership');
		const saved = await callApi(made.app, 'POST', '/api/billing/paid-subscriptions', {
			token: alice.token,
			body: { product_id: 'mvp-annual' },
			headers: { 'idempotency-key': newKey() },
		});
		expect(saved.status).toBe(409);
		expect(saved.json.error_details.code).toBe('already_subscribed');
		expect(await subscriptionsOf(alice)).toHaveLength(1);
		expect(await chargesAtProcessor()).toBe(1);
	});

	test('a trial from a coupon counts as the membership', async () => {
		await createCoupon(made.deps, { code: 'TRIAL30', durationInterval: 30, durationUnit: 'day' });
		await checkout(made.app, alice, '4242424242424242', { coupon: 'TRIAL30' });
		expect((await subscriptionsOf(alice))[0].is_trial).toBe(true);
		expect((await buyAgain(alice, { 'idempotency-key': newKey() })).status).toBe(409);
	});

	test('every charge needs a well-formed Idempotency-Key', async () => {
		const malformed = await buyAgain(alice, { 'idempotency-key': 'short' });
		expect(malformed.status).toBe(400);
		expect(malformed.json.error_details.code).toBe('idempotency_key_invalid');
		const saved = await callApi(made.app, 'POST', '/api/billing/paid-subscriptions', {
			token: alice.token,
			body: { product_id: 'mvp-annual' },
		});
		expect(saved.status).toBe(400);
		expect(saved.json.error_details.code).toBe('idempotency_key_required');
		expect(await made.deps.db.select().from(billingPaymentIntents)).toEqual([]);
	});

	test('the same key after the purchase answers the purchase, not a refusal', async () => {
		const { intent } = await checkout(made.app, alice, '4242424242424242', { key: 'subscribe-click-0002' });
		const again = await buyAgain(alice, { 'idempotency-key': 'subscribe-click-0002' });
		expect(again.status).toBe(200);
		expect(again.json).toMatchObject({ id: intent.json.id, status: 'succeeded' });
	});

	test('a checkout opened before the member subscribed elsewhere charges nothing', async () => {
		const older = await buyAgain(alice, { 'idempotency-key': newKey() });
		await callApi(made.app, 'POST', '/api/checkoutapi/addCard', {
			token: alice.token,
			body: { payment_intent_id: older.json.id, cc_token: cardToken('4242424242424242') },
		});
		await checkout(made.app, alice, '4242424242424242');
		const capture = await callApi(made.app, 'POST', '/api/checkoutapi/prepareToCapture', {
			token: alice.token,
			body: { payment_intent_id: older.json.id },
		});
		expect(capture.status).toBe(409);
		expect(capture.json.error_details.code).toBe('already_subscribed');
		expect(await chargesAtProcessor()).toBe(1);
		expect(await subscriptionsOf(alice)).toHaveLength(1);
	});

	test('two checkouts charged at the same instant make one membership that runs for both periods', async () => {
		// Both charges reach the processor before either is settled: the checks before them both passed.
		const local = paymentProcessor(made.deps);
		let arrived = 0;
		let bothArrived: () => void = () => {};
		const barrier = new Promise<void>((resolve) => {
			bothArrived = resolve;
		});
		const racing = createBillingTestApp(database, {
			paymentProcessor: {
				...local,
				charge: async (request) => {
					arrived += 1;
					if (arrived === 2) bothArrived();
					await barrier;
					return local.charge(request);
				},
			},
		});
		const intents = await Promise.all(
			[newKey(), newKey()].map((key) =>
				callApi(racing.app, 'POST', '/api/checkoutapi/paymentIntent', {
					token: alice.token,
					body: { product_id: 'mvp-monthly' },
					headers: { 'idempotency-key': key },
				}),
			),
		);
		for (const intent of intents)
			await callApi(racing.app, 'POST', '/api/checkoutapi/addCard', {
				token: alice.token,
				body: { payment_intent_id: intent.json.id, cc_token: cardToken('4242424242424242') },
			});
		const captures = await Promise.all(
			intents.map((intent) =>
				callApi(racing.app, 'POST', '/api/checkoutapi/prepareToCapture', {
					token: alice.token,
					body: { payment_intent_id: intent.json.id },
				}),
			),
		);
		expect(captures.map((capture) => capture.json.status)).toEqual(['succeeded', 'succeeded']);
		// Two charges got through, and are one membership of two months: a lost race is never a lost payment.
		const subscriptions = await subscriptionsOf(alice);
		expect(subscriptions).toHaveLength(1);
		expect(subscriptions[0].subscription_end_date).toBe('2026-08-01T12:00:00.000Z');
		expect(await chargesAtProcessor()).toBe(2);
	});

	test('the database itself holds one running membership per member', async () => {
		await checkout(made.app, alice, '4242424242424242');
		const now = new Date('2026-06-01T12:00:00Z');
		await expect(
			made.deps.db.insert(billingSubscriptions).values({
				userId: alice.id,
				productId: 'mvp-annual',
				status: 'active',
				startsAt: now,
				endsAt: now,
			}),
		).rejects.toSatisfy(isUniqueViolation);
		// An ended one does not count.
		await made.deps.db.insert(billingSubscriptions).values({
			userId: alice.id,
			productId: 'mvp-annual',
			status: 'cancelled',
			startsAt: now,
			endsAt: now,
		});
	});
});

describe('security 35: webhooks', () => {
	const secret = () => localWebhookSecret(made.deps.config.sessionSecret);
	const nowSeconds = () => Math.floor(made.deps.clock().getTime() / 1000);
	const event = (id: string, ref: string) =>
		JSON.stringify({
			id,
			object: 'event',
			type: 'payment_intent.succeeded',
			data: { object: { id: ref, object: 'payment_intent' } },
		});
	const post = (payload: string, signature: string) =>
		callApi(made.app, 'POST', '/api/billing/webhooks/local', {
			body: payload,
			headers: { 'stripe-signature': signature },
		});

	/** A payment waiting for the extra step, then approved at the processor without telling us. */
	async function approvedBehindOurBack() {
		const { intent } = await checkout(made.app, alice, '4000002500003155');
		const [row] = await made.deps.db
			.select()
			.from(billingPaymentIntents)
			.where(eq(billingPaymentIntents.id, intent.json.id));
		await made.deps.db
			.update(localProcessorPayments)
			.set({ status: 'succeeded' })
			.where(eq(localProcessorPayments.id, row.processorRef as string));
		return row.processorRef as string;
	}

	test('a forged signature and one older than 300 s are refused with 400 and change nothing', async () => {
		const ref = await approvedBehindOurBack();
		const payload = event('evt_forged_1', ref);
		const forged = await post(
			payload,
			Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_guess', timestamp: nowSeconds() }),
		);
		expect(forged.status).toBe(400);
		expect(forged.json.error_details.code).toBe('invalid_signature');
		const stale = await post(
			payload,
			Stripe.webhooks.generateTestHeaderString({ payload, secret: secret(), timestamp: nowSeconds() - 301 }),
		);
		expect(stale.status).toBe(400);
		expect(await post(payload, '')).toMatchObject({ status: 400 });
		expect(await isPremium(alice)).toBe(false);
	});

	test('an event replayed changes state once; premium comes from the processor’s succeeded state', async () => {
		const ref = await approvedBehindOurBack();
		const payload = event('evt_replayed_1', ref);
		const signature = Stripe.webhooks.generateTestHeaderString({
			payload,
			secret: secret(),
			timestamp: nowSeconds(),
		});
		const first = await post(payload, signature);
		expect(first.json).toEqual({ received: true, duplicate: false });
		expect(await isPremium(alice)).toBe(true);
		const replay = await post(payload, signature);
		expect(replay.status).toBe(200);
		expect(replay.json.duplicate).toBe(true);
		expect(await subscriptionsOf(alice)).toHaveLength(1);
	});

	test('an event claiming success for a payment that did not succeed grants nothing', async () => {
		const { intent } = await checkout(made.app, alice, '4000002500003155');
		const [row] = await made.deps.db
			.select()
			.from(billingPaymentIntents)
			.where(eq(billingPaymentIntents.id, intent.json.id));
		const payload = event('evt_lying_1', row.processorRef as string);
		await post(
			payload,
			Stripe.webhooks.generateTestHeaderString({ payload, secret: secret(), timestamp: nowSeconds() }),
		);
		expect(await isPremium(alice)).toBe(false);
	});

	test('an event about a payment we do not know yet is refused with 409, so it comes again', async () => {
		const payload = event('evt_early_1', 'pi_local_000000000000000000000000');
		const early = await post(
			payload,
			Stripe.webhooks.generateTestHeaderString({ payload, secret: secret(), timestamp: nowSeconds() }),
		);
		expect(early.status).toBe(409);
		expect(await made.deps.db.select().from(billingWebhookEvents)).toHaveLength(0);
	});
});

describe('security 36: coupons', () => {
	test('20 members claiming a one-use coupon at once: exactly one gets it', async () => {
		await createCoupon(made.deps, {
			code: 'ONLYONE',
			durationInterval: 30,
			durationUnit: 'day',
			maxRedemptions: 1,
		});
		const members = await Promise.all(
			Array.from({ length: 20 }, (_, index) => addMember(made.deps, `racer${index}`)),
		);
		const answers = await Promise.all(
			members.map((member) =>
				callApi(made.app, 'POST', '/api/billing/user-coupons', {
					token: member.token,
					body: { coupon_id: 'ONLYONE' },
				}),
			),
		);
		expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
		for (const answer of answers.filter((answer) => answer.status !== 201))
			expect(answer.json.error_details.code).toBe('coupon_exhausted');
	});

	test('a member uses a coupon once: claiming again is 409, redeeming twice is 409', async () => {
		const claimed = await callApi(made.app, 'POST', '/api/billing/user-coupons', {
			token: alice.token,
			body: { coupon_id: 'mvp90', country_code: 'US' },
		});
		expect(claimed.json).toMatchObject({ coupon_id: 'MVP90', redeemed: false, user_id: alice.id });
		const again = await callApi(made.app, 'POST', '/api/billing/user-coupons', {
			token: alice.token,
			body: { coupon_id: 'MVP90' },
		});
		expect(again.json.error_details.code).toBe('coupon_already_used');
		const redeem = () =>
			callApi(made.app, 'PATCH', `/api/billing/user-coupons/${claimed.json.id}`, {
				token: alice.token,
				body: { redeemed: true },
			});
		expect((await redeem()).json.redeemed).toBe(true);
		expect((await redeem()).status).toBe(409);
		const [subscription] = await subscriptionsOf(alice);
		expect(subscription).toMatchObject({
			subscription_status: 'active',
			is_trial: true,
			requested_cancellation: true,
		});
		expect(subscription.subscription_end_date).toBe('2026-08-30T12:00:00.000Z');
		expect(await isPremium(alice)).toBe(true);
		// Bob cannot redeem Alice's coupon.
		expect(
			(
				await callApi(made.app, 'PATCH', `/api/billing/user-coupons/${claimed.json.id}`, {
					token: bob.token,
					body: { redeemed: true },
				})
			).status,
		).toBe(404);
	});

	test('grantable coupons are claimed by the member without a code', async () => {
		const granted = await callApi(made.app, 'POST', '/api/billing/user-coupons/grantable', {
			token: alice.token,
		});
		expect(
			granted.json._embedded.user_coupons.map((coupon: { coupon_id: string }) => coupon.coupon_id),
		).toEqual(['UAWIRELESS']);
		const twice = await callApi(made.app, 'POST', '/api/billing/user-coupons/grantable', {
			token: alice.token,
		});
		expect(twice.json._embedded.user_coupons).toHaveLength(1);
	});
});

describe('security 37: a processor that hangs or drops the connection', () => {
	test('a lost answer leaves the payment pending; completing it later finds the one charge', async () => {
		const { intent, capture } = await checkout(made.app, alice, '4000000000000119');
		expect(capture?.status).toBe(200);
		expect(capture?.json.status).toBe('processing');
		expect(await isPremium(alice)).toBe(false);
		const completed = await callApi(made.app, 'POST', '/api/checkoutapi/completeTransaction', {
			token: alice.token,
			body: { payment_intent_id: intent.json.id },
		});
		expect(completed.json.status).toBe('succeeded');
		expect(await isPremium(alice)).toBe(true);
		expect(await chargesAtProcessor()).toBe(1);
	});

	test('a processor that never answers: the member hears "processing" within our timeout', async () => {
		const hanging = createBillingTestApp(database, {
			processorTimeoutMs: 50,
			paymentProcessor: {
				name: 'local',
				testMode: true,
				cardEntry: { provider: 'local', testMode: true },
				saveCard: async () => ({ paymentMethod: 'pm_hang', brand: 'visa', last4: '4242' }),
				charge: () => new Promise(() => {}),
				retrieve: () => new Promise(() => {}),
				refund: async () => {},
				forgetCard: async () => {},
				parseWebhook: () => {
					throw new Error('unused');
				},
			},
		});
		const started = Date.now();
		const { capture } = await checkout(hanging.app, alice, '4242424242424242');
		expect(capture?.json.status).toBe('processing');
		expect(Date.now() - started).toBeLessThan(5000);
		expect(await isPremium(alice)).toBe(false);
	});
});

describe('billing profiles belong to their member', () => {
	async function addCard(member: Member, number: string) {
		return callApi(made.app, 'POST', '/api/billing/billing-profiles', {
			token: member.token,
			body: { payment_provider: 'local', cc_token: cardToken(number) },
		});
	}

	test('another member can neither change, delete nor see a profile', async () => {
		const mine = await addCard(alice, '4242424242424242');
		expect(mine.status).toBe(201);
		expect(mine.json).toMatchObject({ card_last4: '4242', card_brand: 'visa', default: true });
		const id = mine.json.billing_profile_id;
		const patch = await callApi(made.app, 'PATCH', `/api/billing/billing-profiles/${id}`, {
			token: bob.token,
			body: { default: true },
		});
		expect(patch.status).toBe(404);
		const del = await callApi(made.app, 'DELETE', `/api/billing/billing-profiles/${id}`, {
			token: bob.token,
		});
		expect(del.status).toBe(404);
		expect(
			(await callApi(made.app, 'GET', '/api/billing/billing-profiles', { token: bob.token })).json._embedded
				.billing_profiles,
		).toEqual([]);
		expect(
			(await callApi(made.app, 'GET', '/api/billing/billing-profiles', { token: alice.token })).json._embedded
				.billing_profiles,
		).toHaveLength(1);
		expect((await callApi(made.app, 'GET', '/api/billing/billing-profiles')).status).toBe(401);
	});

	test('another member cannot read, pay for or complete my checkout', async () => {
		const { intent } = await checkout(made.app, alice, '4000002500003155');
		const id = intent.json.id;
		expect(
			(await callApi(made.app, 'GET', `/api/checkoutapi/paymentIntent/MMF/${id}`, { token: bob.token }))
				.status,
		).toBe(404);
		expect(
			(await callApi(made.app, 'GET', `/api/checkoutapi/paymentIntent/MMF/${id}`, { token: alice.token }))
				.status,
		).toBe(200);
		for (const path of ['prepareToCapture', 'completeTransaction'])
			expect(
				(
					await callApi(made.app, 'POST', `/api/checkoutapi/${path}`, {
						token: bob.token,
						body: { payment_intent_id: id },
					})
				).status,
			).toBe(404);
		const verify = await callApi(made.app, 'POST', '/api/checkoutapi/verification', {
			token: bob.token,
			body: { payment_intent_id: id, approve: true },
		});
		expect(verify.status).toBe(404);
		expect(await isPremium(alice)).toBe(false);
	});

	test('deleting the default card makes the remaining one the default', async () => {
		const first = await addCard(alice, '4242424242424242');
		const second = await addCard(alice, '5555555555554444');
		expect(second.json.default).toBe(false);
		const made2 = await callApi(
			made.app,
			'PATCH',
			`/api/billing/billing-profiles/${second.json.billing_profile_id}`,
			{
				token: alice.token,
				body: { default: true },
			},
		);
		expect(made2.json.default).toBe(true);
		await callApi(made.app, 'DELETE', `/api/billing/billing-profiles/${second.json.billing_profile_id}`, {
			token: alice.token,
		});
		const left = (await callApi(made.app, 'GET', '/api/billing/billing-profiles', { token: alice.token }))
			.json._embedded.billing_profiles;
		expect(left).toEqual([
			expect.objectContaining({ billing_profile_id: first.json.billing_profile_id, default: true }),
		]);
	});
});

describe('subscriptions over time', () => {
	const advanceDays = (days: number) =>
		(made.deps.clock as unknown as { advance: (s: number) => void }).advance(days * 86_400);

	test('a renewal run twice (and twice at once) charges the period once and moves its end', async () => {
		await checkout(made.app, alice, '4242424242424242');
		advanceDays(31);
		await Promise.all([runBillingCycle(made.deps), runBillingCycle(made.deps)]);
		await runBillingCycle(made.deps);
		expect(await chargesAtProcessor()).toBe(2);
		const renewals = await made.deps.db
			.select()
			.from(billingPaymentIntents)
			.where(eq(billingPaymentIntents.purpose, 'renewal'));
		expect(renewals).toHaveLength(1);
		expect(renewals[0].status).toBe('succeeded');
		const [subscription] = await subscriptionsOf(alice);
		expect(subscription.subscription_end_date).toBe('2026-08-01T12:00:00.000Z');
		expect(subscription.subscription_status).toBe('active');
	});

	test('deleting an account cancels its subscription first: no renewal charges it, its card is forgotten', async () => {
		await checkout(made.app, alice, '4242424242424242');
		await checkout(made.app, bob, '4242424242424242');
		const [aliceCard] = await made.deps.db
			.select({ paymentMethod: billingProfiles.ccToken })
			.from(billingProfiles)
			.where(eq(billingProfiles.userId, alice.id));
		const cancelled: unknown[] = [];
		const logger = {
			...made.deps.logger,
			info: (entry: unknown, message?: string) => {
				if (message === 'billing closed for account deletion') cancelled.push(entry);
			},
		} as typeof made.deps.logger;

		await deleteAccount({ ...made.deps, logger }, alice.id);

		expect(cancelled).toEqual([
			expect.objectContaining({ userId: alice.id, cancelledSubscriptions: 1, forgottenCards: 1 }),
		]);
		advanceDays(31);
		expect(await runBillingCycle(made.deps)).toMatchObject({ renewed: 1, failed: 0 });
		const charged = await made.deps.db.select().from(localProcessorPayments);
		expect(charged.filter((payment) => payment.paymentMethod === aliceCard.paymentMethod)).toHaveLength(1);
		expect((await subscriptionsOf(bob))[0].subscription_end_date).toBe('2026-08-01T12:00:00.000Z');
		// The processor itself refuses the card now, whoever would try it.
		const attempt = await paymentProcessor(made.deps).charge({
			amount: 599,
			currency: 'usd',
			paymentMethod: aliceCard.paymentMethod,
			idempotencyKey: 'after-deletion',
			offSession: true,
			returnUrl: '/',
			metadata: {},
		});
		expect(attempt).toMatchObject({ status: 'failed', failureCode: 'payment_method_detached' });
	});

	test('the scheduled billing job renews once however often it is queued and run', async () => {
		await checkout(made.app, alice, '4242424242424242');
		advanceDays(31);
		await enqueueJob(made.deps, { kind: 'billing.renewals', uniqueKey: 'billing.renewals:tick-1' });
		await enqueueJob(made.deps, { kind: 'billing.renewals', uniqueKey: 'billing.renewals:tick-2' });
		expect(await runDueJobs(made.deps, billingJobs)).toBe(2);
		expect(await chargesAtProcessor()).toBe(2);
		expect((await subscriptionsOf(alice))[0].subscription_end_date).toBe('2026-08-01T12:00:00.000Z');
	});

	test('auto-renew off cancels at the period end without a charge; on takes it back', async () => {
		await checkout(made.app, alice, '4242424242424242');
		const [subscription] = await subscriptionsOf(alice);
		const off = await callApi(
			made.app,
			'PATCH',
			`/api/billing/paid-subscriptions/${subscription.subscription_id}`,
			{
				token: alice.token,
				body: { auto_renew: false },
			},
		);
		expect(off.json.requested_cancellation).toBe(true);
		const on = await callApi(
			made.app,
			'PATCH',
			`/api/billing/paid-subscriptions/${subscription.subscription_id}`,
			{
				token: alice.token,
				body: { auto_renew: true },
			},
		);
		expect(on.json.requested_cancellation).toBe(false);
		const bobs = await callApi(
			made.app,
			'PATCH',
			`/api/billing/paid-subscriptions/${subscription.subscription_id}`,
			{
				token: bob.token,
				body: { auto_renew: false },
			},
		);
		expect(bobs.status).toBe(404);
		await callApi(made.app, 'PATCH', `/api/billing/paid-subscriptions/${subscription.subscription_id}`, {
			token: alice.token,
			body: { auto_renew: false },
		});
		advanceDays(10);
		await runBillingCycle(made.deps);
		expect(await isPremium(alice)).toBe(true);
		advanceDays(25);
		expect((await runBillingCycle(made.deps)).cancelled).toBe(1);
		expect((await subscriptionsOf(alice))[0].subscription_status).toBe('cancelled');
		expect(await isPremium(alice)).toBe(false);
		expect(await chargesAtProcessor()).toBe(1);
	});

	test('subscribing with a saved card through paid-subscriptions', async () => {
		await callApi(made.app, 'POST', '/api/billing/billing-profiles', {
			token: alice.token,
			body: { payment_provider: 'local', cc_token: cardToken('4242424242424242') },
		});
		const answer = await callApi(made.app, 'POST', '/api/billing/paid-subscriptions', {
			token: alice.token,
			body: { product_id: 'mvp-annual', billing_details: { country_code: 'US', payment_provider: 'local' } },
			headers: { 'idempotency-key': newKey() },
		});
		expect(answer.status).toBe(201);
		expect(answer.json).toMatchObject({ status: 'succeeded', amount: 2999 });
		const [subscription] = await subscriptionsOf(alice);
		expect(subscription.subscription_end_date).toBe('2027-06-01T12:00:00.000Z');
		expect(subscription.subscription_details).toMatchObject({
			frequency_interval: 12,
			frequency_unit: 'month',
		});
	});
});

test('every billing and checkout operation is described in /api/openapi.json', async () => {
	const spec = (await callApi(made.app, 'GET', '/api/openapi.json')).json;
	const operations = [
		['get', '/api/billing/billing-profiles'],
		['post', '/api/billing/billing-profiles'],
		['patch', '/api/billing/billing-profiles/{id}'],
		['delete', '/api/billing/billing-profiles/{id}'],
		['get', '/api/billing/paid-subscriptions'],
		['post', '/api/billing/paid-subscriptions'],
		['patch', '/api/billing/paid-subscriptions/{id}'],
		['get', '/api/billing/coupons/{code}'],
		['get', '/api/billing/products/{id}'],
		['get', '/api/billing/user-coupons'],
		['post', '/api/billing/user-coupons'],
		['post', '/api/billing/user-coupons/grantable'],
		['patch', '/api/billing/user-coupons/{id}'],
		['get', '/api/checkoutapi/paymentIntent/{a}/{b}'],
		['post', '/api/checkoutapi/paymentIntent'],
		['post', '/api/checkoutapi/addCard'],
		['post', '/api/checkoutapi/prepareToCapture'],
		['post', '/api/checkoutapi/completeTransaction'],
	];
	for (const [method, path] of operations)
		expect(spec.paths[path]?.[method], `${method} ${path}`).toBeDefined();
});

test('an admin refund returns the money at the processor and ends the membership', async () => {
	const { intent } = await checkout(made.app, alice, '4242424242424242');
	await refundPayment(made.deps, intent.json.id);
	const [payment] = await made.deps.db.select().from(localProcessorPayments);
	expect(payment.status).toBe('refunded');
	expect((await subscriptionsOf(alice))[0].subscription_status).toBe('cancelled');
	expect(await isPremium(alice)).toBe(false);
	await expect(refundPayment(made.deps, intent.json.id)).rejects.toThrow(/Only a paid payment/);
});

test('checkFeature: every MVP feature for members with an active subscription, none for others', () => {
	for (const feature of PREMIUM_FEATURES) {
		expect(checkFeature({ isPremium: true }, feature)).toBe(true);
		expect(checkFeature({ isPremium: false }, feature)).toBe(false);
		expect(checkFeature(null, feature)).toBe(false);
	}
});
