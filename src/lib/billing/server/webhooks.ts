// The processor that takes the payments, and the signed events it sends back. They share a file
// because the built-in test processor delivers its events by calling handleWebhook itself.
import { and, eq } from 'drizzle-orm';
import { AppError } from '../../core/errors';
import type { PaymentProvider } from '../contract';
import type { BillingDeps, IntentRow } from './billing-shared';
import { createLocalProcessor } from './local-processor';
import { settleIntentIn } from './payment-settlement';
import type { PaymentProcessor, ProcessorPayment } from './processor';
import { createStripeProcessor } from './stripe-processor';
import { billingPaymentIntents, billingWebhookEvents } from './tables';

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
