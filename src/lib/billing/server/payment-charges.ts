// Charging a claimed payment once, and asking the processor again about one that a timeout left
// pending; checkouts and renewals both charge this way.
import { eq } from 'drizzle-orm';
import { type BillingDeps, type IntentRow, PROCESSOR_TIMEOUT_MS } from './billing-shared';
import { settleIntent } from './payment-settlement';
import { type ProcessorPayment, withTimeout } from './processor';
import { billingProfiles } from './tables';
import { paymentProcessor } from './webhooks';

function idempotencyKeyFor(intent: IntentRow): string {
	return `${intent.id}-${intent.attempts}`;
}

/** One processor call for a claimed ("processing") intent; the outcome is settled here. */
export async function chargeIntent(deps: BillingDeps, intent: IntentRow): Promise<void> {
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
export async function reconcileIntent(deps: BillingDeps, intent: IntentRow): Promise<void> {
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
