import Stripe from 'stripe';
import { verifyStripeSignedEvent } from './local-processor';
import { CardError, type PaymentProcessor, type ProcessorPayment } from './processor';

export type StripeSettings = {
	secretKey: string;
	webhookSecret: string;
	/** For the browser: Stripe Elements turns the card into a PaymentMethod with it. */
	publishableKey: string;
	/** For tests against a Stripe-shaped server; production talks to api.stripe.com. */
	host?: string;
	port?: number;
	protocol?: 'http' | 'https';
};

function toPayment(intent: Stripe.PaymentIntent): ProcessorPayment {
	const status: ProcessorPayment['status'] =
		intent.status === 'succeeded'
			? 'succeeded'
			: intent.status === 'requires_action'
				? 'requires_action'
				: intent.status === 'processing'
					? 'processing'
					: 'failed';
	const error = intent.last_payment_error;
	return {
		ref: intent.id,
		status,
		failureCode: status === 'failed' ? (error?.decline_code ?? error?.code ?? 'payment_failed') : null,
		failureMessage: status === 'failed' ? (error?.message ?? 'The payment did not go through.') : null,
		nextActionUrl: intent.next_action?.redirect_to_url?.url ?? null,
	};
}

/** The customer a saved card belongs to: renewals charge it off session through that customer. */
function customerOf(method: Stripe.PaymentMethod): string | undefined {
	return typeof method.customer === 'string' ? method.customer : (method.customer?.id ?? undefined);
}

/**
 * Stripe through its PaymentIntents API. Every create carries an idempotency key, and the client
 * retries once (with the same key) on a 502 or a dropped connection. A saved card is attached to a
 * customer of its own, since Stripe charges a card again (renewals) only through its customer.
 */
export function createStripeProcessor(settings: StripeSettings): PaymentProcessor {
	const stripe = new Stripe(settings.secretKey, {
		maxNetworkRetries: 1,
		timeout: 20_000,
		host: settings.host,
		port: settings.port,
		protocol: settings.protocol,
	});

	return {
		name: 'stripe',
		testMode: settings.secretKey.startsWith('sk_test_'),
		cardEntry: {
			provider: 'stripe',
			testMode: settings.secretKey.startsWith('sk_test_'),
			publishableKey: settings.publishableKey,
		},

		async saveCard(token, idempotencyKey) {
			try {
				// Stripe Elements hands over a PaymentMethod (pm_…); an older client a card token (tok_…).
				const method = token.startsWith('pm_')
					? await stripe.paymentMethods.retrieve(token)
					: await stripe.paymentMethods.create({ type: 'card', card: { token } }, { idempotencyKey });
				if (!customerOf(method))
					await stripe.customers.create(
						{ payment_method: method.id },
						{ idempotencyKey: `${idempotencyKey}-customer` },
					);
				return {
					paymentMethod: method.id,
					brand: method.card?.brand ?? 'card',
					last4: method.card?.last4 ?? '',
				};
			} catch (error) {
				if (error instanceof Stripe.errors.StripeCardError)
					throw new CardError(error.code ?? 'card_declined', error.message);
				throw error;
			}
		},

		async charge(request) {
			try {
				const method = await stripe.paymentMethods.retrieve(request.paymentMethod);
				const intent = await stripe.paymentIntents.create(
					{
						amount: request.amount,
						currency: request.currency,
						customer: customerOf(method),
						payment_method: request.paymentMethod,
						confirm: true,
						off_session: request.offSession || undefined,
						return_url: request.offSession ? undefined : request.returnUrl,
						metadata: request.metadata,
					},
					{ idempotencyKey: request.idempotencyKey },
				);
				return toPayment(intent);
			} catch (error) {
				// A decline answers 402 with the intent inside; it is an outcome, not a fault.
				if (error instanceof Stripe.errors.StripeCardError) {
					const intent = (error.raw as { payment_intent?: Stripe.PaymentIntent }).payment_intent;
					if (intent) return toPayment(intent);
					return {
						ref: `declined_${request.idempotencyKey}`,
						status: 'failed',
						failureCode: error.decline_code ?? error.code ?? 'card_declined',
						failureMessage: error.message,
						nextActionUrl: null,
					};
				}
				throw error;
			}
		},

		async retrieve(ref) {
			return toPayment(await stripe.paymentIntents.retrieve(ref));
		},

		async refund(ref, idempotencyKey) {
			await stripe.refunds.create({ payment_intent: ref }, { idempotencyKey });
		},

		async forgetCard(paymentMethod) {
			try {
				await stripe.paymentMethods.detach(paymentMethod);
			} catch (error) {
				// A card never attached to a customer, or already detached, holds nothing to charge.
				if (error instanceof Stripe.errors.StripeInvalidRequestError) return;
				throw error;
			}
		},

		parseWebhook(rawBody, signature, now) {
			return verifyStripeSignedEvent(rawBody, signature, settings.webhookSecret, now);
		},
	};
}
