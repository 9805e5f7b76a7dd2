import type { CardEntryView, PaymentProvider } from '../contract';

/** A payment as the processor holds it. `ref` is the processor's id for it. */
export type ProcessorPayment = {
	ref: string;
	status: 'requires_action' | 'processing' | 'succeeded' | 'failed';
	failureCode: string | null;
	failureMessage: string | null;
	/** Where the member completes the bank's extra verification step (status requires_action). */
	nextActionUrl: string | null;
};

/** A card saved with the processor, by its reference: never the number. */
export type SavedCard = { paymentMethod: string; brand: string; last4: string };

/** A verified event from the processor: only the id and which payment it concerns are believed. */
export type ProcessorEvent = { id: string; type: string; paymentRef: string | null };

export type ChargeRequest = {
	amount: number;
	currency: string;
	paymentMethod: string;
	/** The same key on a retry returns the first answer instead of charging again. */
	idempotencyKey: string;
	/** Renewals run without the member present: no extra verification step can be asked for. */
	offSession: boolean;
	/** Where the extra verification step sends the member back to. */
	returnUrl: string;
	metadata: Record<string, string>;
};

/** A card the processor refused, with the processor's words for why. */
export class CardError extends Error {
	constructor(
		readonly code: string,
		message: string,
	) {
		super(message);
		this.name = 'CardError';
	}
}

/** A signature that does not verify, or an event older than the tolerance. */
export class WebhookSignatureError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'WebhookSignatureError';
	}
}

/**
 * Every card processor the product can use. The built-in local one is the default and says it is a
 * test one; Stripe runs when STRIPE_SECRET_KEY is set. Calls that fail on the network throw; the
 * caller keeps the payment "processing" and reconciles later with the same idempotency key.
 */
export interface PaymentProcessor {
	readonly name: PaymentProvider;
	readonly testMode: boolean;
	/** How the browser turns a card into a token for this processor. */
	readonly cardEntry: CardEntryView;
	/** Turns a browser-made card token into a reusable payment method; a refused card throws CardError. */
	saveCard(token: string, idempotencyKey: string): Promise<SavedCard>;
	/** Creates and confirms a payment against a saved card. */
	charge(request: ChargeRequest): Promise<ProcessorPayment>;
	retrieve(ref: string): Promise<ProcessorPayment>;
	refund(ref: string, idempotencyKey: string): Promise<void>;
	/** Detaches a saved card so nothing can be charged to it again; one already gone is fine. */
	forgetCard(paymentMethod: string): Promise<void>;
	/** Verifies a webhook's signature and age; throws WebhookSignatureError when it does not hold. */
	parseWebhook(rawBody: string, signature: string | null, now: Date): ProcessorEvent;
}

/** Waits at most `ms` for a processor call; a hung processor must not hang the member's request. */
export async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
	let timer: ReturnType<typeof setTimeout> | undefined;
	const timeout = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new Error(`processor did not answer within ${ms} ms`)), ms);
	});
	try {
		return await Promise.race([promise, timeout]);
	} finally {
		clearTimeout(timer);
	}
}
