import { atom } from 'nanostores';
import { FetchError } from 'ofetch';
import { api } from '../api/client';
import type { PaymentIntentView, PaymentProvider } from './contract';
import type { CardToken } from './local-card';

/** The card form's way to a token: the test processor's fields, or Stripe Elements. */
export type CardSource = () => Promise<CardToken | { error: string }>;

/** The checkout as the member sees it: what is happening, and what went wrong in words they can act on. */
export type CheckoutState =
	| { step: 'idle' }
	| { step: 'working'; message: string }
	| { step: 'error'; message: string }
	| { step: 'pending'; message: string };

export const $checkout = atom<CheckoutState>({ step: 'idle' });

/** Billing answers `{ error_details: { code }, error_description }`; the description is for the member. */
export function billingErrorMessage(error: unknown): string {
	if (error instanceof FetchError) {
		const data = error.data as { error_description?: unknown; error?: unknown } | undefined;
		if (typeof data?.error_description === 'string') return data.error_description;
		if (error.status === undefined)
			return 'We could not reach the server. Check your connection and try again.';
	}
	return 'Something went wrong. Please try again.';
}

/** Where the browser goes once a payment has an outcome that leaves the checkout. */
function nextAddress(intent: PaymentIntentView): string | null {
	if (intent.status === 'succeeded' && intent.receipt_url) return intent.receipt_url;
	if (intent.status === 'requires_action' && intent.next_action_url) return intent.next_action_url;
	return null;
}

async function settle(intent: PaymentIntentView): Promise<void> {
	const address = nextAddress(intent);
	if (address) {
		window.location.assign(address);
		return;
	}
	if (intent.status === 'processing') {
		$checkout.set({
			step: 'pending',
			message: 'Your payment is being confirmed with the card processor. This page updates when it is.',
		});
		for (let wait = 0; wait < 10; wait++) {
			await new Promise((resolve) => setTimeout(resolve, 3000));
			const later = await api<PaymentIntentView>('/checkoutapi/completeTransaction', {
				method: 'POST',
				body: { payment_intent_id: intent.id },
			}).catch(() => null);
			if (later && later.status !== 'processing') return settle(later);
		}
		return;
	}
	$checkout.set({ step: 'error', message: intent.failure_message ?? 'The payment did not go through.' });
}

/**
 * Pays for a plan: the card becomes a token here in the browser (its number never leaves the page),
 * then the checkout's steps run against the server, which sets the price. `idempotencyKey` is made
 * once per form, so a double click is one payment.
 */
export async function payWithCard(input: {
	card: CardSource;
	productId: string;
	coupon: string;
	idempotencyKey: string;
	paymentIntentId?: string;
}): Promise<void> {
	$checkout.set({ step: 'working', message: 'Paying…' });
	const made = await input.card();
	if ('error' in made) {
		$checkout.set({ step: 'error', message: made.error });
		return;
	}
	try {
		const intent =
			input.paymentIntentId !== undefined
				? { id: input.paymentIntentId }
				: await api<PaymentIntentView>('/checkoutapi/paymentIntent', {
						method: 'POST',
						body: { product_id: input.productId, ...(input.coupon ? { coupon: input.coupon } : {}) },
						headers: { 'idempotency-key': input.idempotencyKey },
					});
		await api<PaymentIntentView>('/checkoutapi/addCard', {
			method: 'POST',
			body: { payment_intent_id: intent.id, cc_token: made.token },
		});
		const captured = await api<PaymentIntentView>('/checkoutapi/prepareToCapture', {
			method: 'POST',
			body: { payment_intent_id: intent.id },
		});
		await settle(captured);
	} catch (error) {
		$checkout.set({ step: 'error', message: billingErrorMessage(error) });
	}
}

/** The membership page's card form: idle, saving, or what went wrong. */
export const $cardUpdate = atom<CheckoutState>({ step: 'idle' });

/**
 * Replaces the card renewals are charged to: tokenised here in the browser, saved as the default,
 * and a renewal that failed is charged again at once. The page then shows the outcome.
 */
export async function updateCard(card: CardSource, provider: PaymentProvider, done: string): Promise<void> {
	$cardUpdate.set({ step: 'working', message: 'Saving…' });
	const made = await card();
	if ('error' in made) {
		$cardUpdate.set({ step: 'error', message: made.error });
		return;
	}
	try {
		await api('/billing/billing-profiles', {
			method: 'POST',
			body: { payment_provider: provider, cc_token: made.token, default: true },
		});
		window.location.assign(done);
	} catch (error) {
		$cardUpdate.set({ step: 'error', message: billingErrorMessage(error) });
	}
}
