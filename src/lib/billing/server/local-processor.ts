import { createHmac, randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import Stripe from 'stripe';
import type { AppDeps } from '../../core/server/deps';
import { readLocalToken } from '../local-card';
import {
	CardError,
	type ChargeRequest,
	type PaymentProcessor,
	type ProcessorEvent,
	type ProcessorPayment,
	WebhookSignatureError,
} from './processor';
import { localProcessorForgottenCards, localProcessorPayments } from './tables';

/** Seconds a signed webhook stays acceptable, as at Stripe. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

const DECLINES: Record<string, { code: string; message: string }> = {
	declined: { code: 'card_declined', message: 'Your card was declined.' },
	insufficient_funds: { code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
	expired_card: { code: 'expired_card', message: 'Your card has expired.' },
	renewal_fails: { code: 'card_declined', message: 'Your card was declined.' },
};

/** What a processor answers for a card detached from its account. */
const FORGOTTEN = {
	code: 'payment_method_detached',
	message: 'This card was removed and cannot be charged.',
};

/** The secret the local processor signs its webhooks with, derived from the session secret. */
export function localWebhookSecret(sessionSecret: string): string {
	return `whsec_${createHmac('sha256', sessionSecret).update('local billing webhooks').digest('hex')}`;
}

/** Where the local processor asks the member to complete the extra verification step. */
export function localAuthenticationPath(ref: string): string {
	return `/premium/checkout/authenticate?payment=${encodeURIComponent(ref)}`;
}

type Row = typeof localProcessorPayments.$inferSelect;

function toPayment(row: Row): ProcessorPayment {
	return {
		ref: row.id,
		status: row.status as ProcessorPayment['status'],
		failureCode: row.failureCode,
		failureMessage: row.failureMessage,
		nextActionUrl: row.status === 'requires_action' ? localAuthenticationPath(row.id) : null,
	};
}

/**
 * The built-in test processor. It keeps its own books in its table, answers by the well-known test
 * card numbers (the browser's token says which), asks for an extra verification step for
 * 4000 0025 0000 3155, saves 4000 0000 0000 0341 but declines its charges made without the member
 * (renewals, so dunning can be seen), and reports changes by webhooks signed the way Stripe signs them. It never
 * charges a real card.
 */
export function createLocalProcessor(
	deps: Pick<AppDeps, 'db' | 'config'>,
	deliver: (rawBody: string, signature: string) => Promise<void> = async () => {},
): PaymentProcessor & {
	authenticate(ref: string, approve: boolean): Promise<ProcessorPayment>;
} {
	const secret = localWebhookSecret(deps.config.sessionSecret);

	async function find(ref: string): Promise<Row> {
		const [row] = await deps.db
			.select()
			.from(localProcessorPayments)
			.where(eq(localProcessorPayments.id, ref));
		if (!row) throw new Error('local processor: no such payment');
		return row;
	}

	async function byKey(key: string): Promise<Row | undefined> {
		const [row] = await deps.db
			.select()
			.from(localProcessorPayments)
			.where(eq(localProcessorPayments.idempotencyKey, key));
		return row;
	}

	async function sendEvent(type: string, ref: string): Promise<void> {
		const payload = JSON.stringify({
			id: `evt_local_${randomBytes(12).toString('hex')}`,
			object: 'event',
			type,
			data: { object: { id: ref, object: 'payment_intent' } },
		});
		await deliver(payload, Stripe.webhooks.generateTestHeaderString({ payload, secret }));
	}

	return {
		name: 'local',
		testMode: true,
		cardEntry: { provider: 'local', testMode: true },

		async saveCard(token) {
			const card = readLocalToken(token);
			if (!card) throw new CardError('invalid_token', 'The card could not be read. Please enter it again.');
			// Cards the issuer refuses outright are refused when saved, as a real processor's check does.
			const refused = card.behaviour === 'renewal_fails' ? undefined : DECLINES[card.behaviour];
			if (refused) throw new CardError(refused.code, refused.message);
			return { paymentMethod: token.replace(/^tok_/, 'pm_'), brand: card.brand, last4: card.last4 };
		},

		async charge(request: ChargeRequest) {
			const existing = await byKey(request.idempotencyKey);
			if (existing) return toPayment(existing);
			const card = readLocalToken(request.paymentMethod);
			const behaviour = card?.behaviour ?? 'declined';
			const [forgotten] = await deps.db
				.select()
				.from(localProcessorForgottenCards)
				.where(eq(localProcessorForgottenCards.paymentMethod, request.paymentMethod));
			const decline = forgotten
				? FORGOTTEN
				: behaviour === 'renewal_fails'
					? request.offSession
						? DECLINES.renewal_fails
						: undefined
					: DECLINES[behaviour];
			const status = decline
				? 'failed'
				: behaviour === 'authenticate' && !request.offSession
					? 'requires_action'
					: behaviour === 'authenticate'
						? 'failed'
						: 'succeeded';
			const [row] = await deps.db
				.insert(localProcessorPayments)
				.values({
					id: `pi_local_${randomBytes(12).toString('hex')}`,
					idempotencyKey: request.idempotencyKey,
					amount: request.amount,
					currency: request.currency,
					paymentMethod: request.paymentMethod,
					status,
					failureCode: decline?.code ?? (status === 'failed' ? 'authentication_required' : null),
					failureMessage:
						decline?.message ??
						(status === 'failed' ? 'Your bank asks you to confirm this payment yourself.' : null),
				})
				.onConflictDoNothing()
				.returning();
			const payment = row ?? (await byKey(request.idempotencyKey));
			if (!payment) throw new Error('local processor: payment vanished');
			// The test card for network trouble: the charge went through, but the answer is lost.
			if (behaviour === 'network_error' && row) throw new Error('local processor: connection reset');
			return toPayment(payment);
		},

		async retrieve(ref) {
			return toPayment(await find(ref));
		},

		async forgetCard(paymentMethod) {
			await deps.db.insert(localProcessorForgottenCards).values({ paymentMethod }).onConflictDoNothing();
		},

		async refund(ref) {
			await deps.db
				.update(localProcessorPayments)
				.set({ status: 'refunded' })
				.where(and(eq(localProcessorPayments.id, ref), eq(localProcessorPayments.status, 'succeeded')));
		},

		/** The member's answer on the local processor's verification page. */
		async authenticate(ref, approve) {
			const [row] = await deps.db
				.update(localProcessorPayments)
				.set(
					approve
						? { status: 'succeeded' }
						: {
								status: 'failed',
								failureCode: 'authentication_failed',
								failureMessage: 'The payment was not confirmed with your bank.',
							},
				)
				.where(and(eq(localProcessorPayments.id, ref), eq(localProcessorPayments.status, 'requires_action')))
				.returning();
			const payment = row ?? (await find(ref));
			if (row) await sendEvent(approve ? 'payment_intent.succeeded' : 'payment_intent.payment_failed', ref);
			return toPayment(payment);
		},

		parseWebhook(rawBody, signature, now): ProcessorEvent {
			return verifyStripeSignedEvent(rawBody, signature, secret, now);
		},
	};
}

/** Both processors sign events the Stripe way: `t=<seconds>,v1=<HMAC-SHA256>` over `t.body`. */
export function verifyStripeSignedEvent(
	rawBody: string,
	signature: string | null,
	secret: string,
	now: Date,
): ProcessorEvent {
	if (!signature) throw new WebhookSignatureError('The webhook carries no signature.');
	let event: Stripe.Event;
	try {
		event = Stripe.webhooks.constructEvent(
			rawBody,
			signature,
			secret,
			WEBHOOK_TOLERANCE_SECONDS,
			undefined,
			now.getTime(),
		);
	} catch (error) {
		throw new WebhookSignatureError(
			error instanceof Error ? error.message : 'The signature does not verify.',
		);
	}
	const object = (event.data?.object ?? {}) as { id?: unknown; object?: unknown };
	return {
		id: event.id,
		type: event.type,
		paymentRef: object.object === 'payment_intent' && typeof object.id === 'string' ? object.id : null,
	};
}
