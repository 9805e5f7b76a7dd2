import type { Stripe } from '@stripe/stripe-js';
import type { CardToken } from './local-card';

/** Loads Stripe.js for a publishable key; Stripe asks that it always come from js.stripe.com. */
export type StripeLoader = (publishableKey: string) => Promise<Stripe | null>;

/** Where the checkout pages let Stripe.js load from (their CSP names it only when Stripe is on). */
export const STRIPE_JS_ORIGIN = 'https://js.stripe.com';

export type MountedStripeCard = {
	/** The card as a Stripe PaymentMethod id (pm_…), or what the member must fix. */
	tokenize(): Promise<CardToken | { error: string }>;
	destroy(): void;
};

const loadFromStripe: StripeLoader = async (publishableKey) =>
	(await import('@stripe/stripe-js')).loadStripe(publishableKey);

/**
 * Mounts Stripe Elements' card field into `container`: the number, expiry and code are typed into
 * Stripe's own frame, so they never reach this page's script, let alone our server.
 */
export async function mountStripeCard(
	publishableKey: string,
	container: HTMLElement,
	load: StripeLoader = loadFromStripe,
): Promise<MountedStripeCard> {
	const stripe = await load(publishableKey);
	if (!stripe) throw new Error('Stripe.js could not be loaded.');
	const card = stripe.elements().create('card', { hidePostalCode: true });
	card.mount(container);
	return {
		async tokenize() {
			const { paymentMethod, error } = await stripe.createPaymentMethod({ type: 'card', card });
			if (error || !paymentMethod) return { error: error?.message ?? 'Your card could not be read.' };
			return {
				token: paymentMethod.id,
				brand: paymentMethod.card?.brand ?? 'card',
				last4: paymentMethod.card?.last4 ?? '',
			};
		},
		destroy() {
			card.destroy();
		},
	};
}
