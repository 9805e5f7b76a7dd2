import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { outboxMessages, users } from '../../../src/lib/auth/server/tables';
import { checkFeature } from '../../../src/lib/billing/features';
import { billingJobs } from '../../../src/lib/billing/server/jobs';
import { loadMembership } from '../../../src/lib/billing/server/page';
import { runBillingCycle } from '../../../src/lib/billing/server/renewals';
import { premiumStatus, tryRenewalNow } from '../../../src/lib/billing/server/subscriptions';
import { billingSubscriptions, localProcessorPayments } from '../../../src/lib/billing/server/tables';
import { enqueueJob, runDueJobs } from '../../../src/lib/jobs/server/service';
import { callApi, signInAs } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { addMember, cardToken, checkout, createBillingTestApp, type Member, resetBilling } from './helpers';

/**
 * Dunning as a member lives it, on a clock the test moves: a renewal that fails keeps MVP through
 * the grace period while the job retries on days 1, 3, 5 and 7 after it fell due; a new card pays
 * at once; with no retry left the membership ends. Each mail goes out once.
 */
let database: TestDatabase;
let made: ReturnType<typeof createBillingTestApp>;
let alice: Member;

const DECLINES_RENEWALS = '4000000000000341';
const GOOD_CARD = '4242424242424242';
// The checkout is at 2026-06-01T12:00Z; the monthly renewal falls due 2026-07-01T12:00Z.
const DUE = new Date('2026-07-01T12:00:00.000Z');

beforeAll(async () => {
	database = await openTestDb();
});
beforeEach(async () => {
	await resetBilling(database);
	made = createBillingTestApp(database);
	alice = await addMember(made.deps, 'alice');
	await checkout(made.app, alice, DECLINES_RENEWALS);
});
afterAll(async () => {
	await database.close();
});

const viewerOf = (member: Member) => ({
	id: member.id,
	username: member.username,
	displayName: member.username,
	isPremium: false,
});
/** Moves the clock to `days` after the renewal fell due and runs the billing job as the worker does. */
async function runBillingJobAt(days: number) {
	const clock = made.deps.clock as unknown as { advance: (s: number) => void };
	clock.advance((DUE.getTime() + days * 86_400_000 - made.deps.clock().getTime()) / 1000);
	const tick = `billing.renewals:day-${days}`;
	await enqueueJob(made.deps, { kind: 'billing.renewals', uniqueKey: tick });
	// Two workers at once, as two processes would: each attempt is charged once.
	await Promise.all([runDueJobs(made.deps, billingJobs), runDueJobs(made.deps, billingJobs)]);
}
const subscription = async () => (await made.deps.db.select().from(billingSubscriptions))[0];
const memberUser = async () =>
	(await made.deps.db.select().from(users).where(eq(users.id, alice.id)))[0] as { isPremium: boolean };
const charges = async () => (await made.deps.db.select().from(localProcessorPayments)).length;
/** Alice's mail, once the worker has run the mail jobs queued so far. */
const mails = async () => {
	await runDueJobs(made.deps, billingJobs);
	return (
		await made.deps.db
			.select({
				to: outboxMessages.toAddress,
				subject: outboxMessages.subject,
				text: outboxMessages.textBody,
			})
			.from(outboxMessages)
			.orderBy(asc(outboxMessages.id))
	).filter((mail) => mail.to === 'alice@example.test');
};

describe('a renewal that fails', () => {
	test('keeps MVP in the grace period, mails once with the date and the card page, and a new card pays at once', async () => {
		await runBillingJobAt(0);
		expect(await subscription()).toMatchObject({
			status: 'past_due',
			failedAttempts: 1,
			retryAt: new Date('2026-07-02T12:00:00.000Z'),
		});
		expect(checkFeature(await memberUser(), 'heart_rate_zones')).toBe(true);
		expect(await premiumStatus(made.deps, alice.id)).toEqual({ is_ad_free: true, days_remaining: -1 });
		let sent = await mails();
		expect(sent.map((mail) => mail.subject)).toEqual(['Your MVP payment failed']);
		expect(sent[0].text).toContain('Update your card by Jul 8, 2026 to keep MVP');
		expect(sent[0].text).toContain('http://localhost:4321/premium/membership#update-card');

		// The member's page says the same.
		const page = await loadMembership(made.deps, viewerOf(alice));
		expect(page.plans[0].fixCardByText).toBe('Jul 8, 2026');

		// Running the job again before the retry is due charges nothing and mails nothing.
		await runBillingJobAt(0.5);
		expect(await charges()).toBe(2);
		await runBillingJobAt(1);
		expect(await subscription()).toMatchObject({ status: 'past_due', failedAttempts: 2 });
		expect(await charges()).toBe(3);
		expect(await mails()).toHaveLength(1);

		// A new default card is charged at once, for the period that fell due.
		const token = await signInAs(made.deps, viewerOf(alice));
		const saved = await callApi(made.app, 'POST', '/api/billing/billing-profiles', {
			token,
			body: { payment_provider: 'local', cc_token: cardToken(GOOD_CARD), default: true },
		});
		expect(saved.status).toBe(201);
		expect(await subscription()).toMatchObject({
			status: 'active',
			failedAttempts: 0,
			retryAt: null,
			endsAt: new Date('2026-08-01T12:00:00.000Z'),
		});
		expect(await charges()).toBe(4);
		await runBillingJobAt(2);
		await runBillingJobAt(3);
		expect(await charges()).toBe(4);
		sent = await mails();
		expect(sent.map((mail) => mail.subject)).toEqual([
			'Your MVP payment failed',
			'Your MVP payment went through',
		]);
		expect(sent[1].text).toContain('Your next renewal is on Aug 1, 2026');
		expect(checkFeature(await memberUser(), 'heart_rate_zones')).toBe(true);
	});

	test('making a saved card the default also pays the failed renewal at once', async () => {
		await runBillingJobAt(0);
		// The member makes an existing good card the default: it pays at once too.
		const token = await signInAs(made.deps, viewerOf(alice));
		await callApi(made.app, 'POST', '/api/billing/billing-profiles', {
			token,
			body: { payment_provider: 'local', cc_token: cardToken(GOOD_CARD) },
		});
		expect(await subscription()).toMatchObject({ status: 'past_due' });
		const listed = await callApi(made.app, 'GET', '/api/billing/billing-profiles', { token });
		const good = (
			listed.json._embedded as { billing_profiles: { billing_profile_id: number; default: boolean }[] }
		).billing_profiles.find((profile) => !profile.default);
		const patched = await callApi(
			made.app,
			'PATCH',
			`/api/billing/billing-profiles/${good?.billing_profile_id}`,
			{
				token,
				body: { default: true },
			},
		);
		expect(patched.status).toBe(200);
		expect(await subscription()).toMatchObject({ status: 'active', failedAttempts: 0 });
		expect((await mails()).map((mail) => mail.subject)).toEqual([
			'Your MVP payment failed',
			'Your MVP payment went through',
		]);
	});

	test('failing every retry ends the subscription after the grace period, MVP stops, each mail once', async () => {
		for (const day of [0, 1, 3, 5]) {
			await runBillingJobAt(day);
			expect(await subscription()).toMatchObject({ status: 'past_due' });
			expect(checkFeature(await memberUser(), 'training_plans')).toBe(true);
		}
		expect((await mails()).map((mail) => mail.subject)).toEqual([
			'Your MVP payment failed',
			'Last try to renew your MVP membership',
		]);
		expect((await mails())[1].text).toContain('We will try one last time on Jul 8, 2026');
		await runBillingJobAt(6.9);
		expect(await subscription()).toMatchObject({ status: 'past_due', failedAttempts: 4 });
		await runBillingJobAt(7);
		expect(await subscription()).toMatchObject({ status: 'lapsed', failedAttempts: 5, retryAt: null });
		expect((await memberUser()).isPremium).toBe(false);
		expect(checkFeature(await memberUser(), 'training_plans')).toBe(false);
		expect(await premiumStatus(made.deps, alice.id)).toEqual({ is_ad_free: false, days_remaining: 0 });
		await runBillingJobAt(10);
		await runBillingJobAt(40);
		// The purchase, the due date and four retries: one charge each.
		expect(await charges()).toBe(6);
		const sent = await mails();
		expect(sent.map((mail) => mail.subject)).toEqual([
			'Your MVP payment failed',
			'Last try to renew your MVP membership',
			'Your MVP membership has ended',
		]);
		expect(sent[2].text).toContain('ended on Jul 8, 2026');
		expect(sent[2].text).toContain('http://localhost:4321/premium/checkout');
	});

	test('a reminder no longer true when its job runs is not sent', async () => {
		for (const day of [0, 1, 3]) await runBillingJobAt(day);
		// The last-try reminder is queued with the day-5 failure; the member pays before it goes out.
		const clock = made.deps.clock as unknown as { advance: (s: number) => void };
		clock.advance(2 * 86_400);
		await runBillingCycle(made.deps);
		const token = await signInAs(made.deps, viewerOf(alice));
		await callApi(made.app, 'POST', '/api/billing/billing-profiles', {
			token,
			body: { payment_provider: 'local', cc_token: cardToken(GOOD_CARD), default: true },
		});
		expect((await mails()).map((mail) => mail.subject)).toEqual([
			'Your MVP payment failed',
			'Your MVP payment went through',
		]);
	});
});

test('in test mode a member can charge the next renewal now; with a card that declines renewals, dunning starts', async () => {
	await tryRenewalNow(made.deps, viewerOf(alice), (await subscription()).id);
	expect(await subscription()).toMatchObject({ status: 'past_due', failedAttempts: 1 });
	expect((await memberUser()).isPremium).toBe(true);
	await runDueJobs(made.deps, billingJobs);
	expect((await mails()).map((mail) => mail.subject)).toEqual(['Your MVP payment failed']);
	await expect(tryRenewalNow(made.deps, viewerOf(alice), (await subscription()).id)).rejects.toMatchObject({
		code: 'conflict',
	});
	const bob = await addMember(made.deps, 'bob');
	await expect(tryRenewalNow(made.deps, viewerOf(bob), (await subscription()).id)).rejects.toMatchObject({
		code: 'not_found',
	});
});
