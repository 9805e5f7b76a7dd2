import { type ReactNode, useEffect, useRef, useState } from 'react';
import type { CardEntryView } from '../../lib/billing/contract';
import { tokenizeLocalCard } from '../../lib/billing/local-card';
import type { CardSource } from '../../lib/billing/store';
import { type MountedStripeCard, mountStripeCard, type StripeLoader } from '../../lib/billing/stripe-card';

export type CardEntry = {
	fields: ReactNode;
	/** Turns what the member entered into the processor's token, in this browser. */
	tokenize: CardSource;
	/** False until the fields can take a card (Stripe's frame is still loading). */
	ready: boolean;
	/** Stripe.js did not load: the form says so instead of waiting forever. */
	failed: string | null;
};

/**
 * A card's fields for the page's processor. The test processor's fields have no names, so even a
 * form sent before the script runs carries no card number; Stripe's live in Stripe's own frame.
 */
export function useCardEntry(view: CardEntryView, loadStripe?: StripeLoader): CardEntry {
	const number = useRef<HTMLInputElement>(null);
	const expiry = useRef<HTMLInputElement>(null);
	const cvc = useRef<HTMLInputElement>(null);
	const frame = useRef<HTMLDivElement>(null);
	const stripeCard = useRef<MountedStripeCard | null>(null);
	const [ready, setReady] = useState(view.provider === 'local');
	const [failed, setFailed] = useState<string | null>(null);
	const publishableKey = view.provider === 'stripe' ? view.publishableKey : null;

	useEffect(() => {
		if (!publishableKey || !frame.current) return;
		let gone = false;
		mountStripeCard(publishableKey, frame.current, loadStripe).then(
			(mounted) => {
				if (gone) return mounted.destroy();
				stripeCard.current = mounted;
				setReady(true);
			},
			() => {
				if (!gone) setFailed('The card form could not be loaded. Check your connection and reload the page.');
			},
		);
		return () => {
			gone = true;
			stripeCard.current?.destroy();
			stripeCard.current = null;
		};
	}, [publishableKey, loadStripe]);

	const tokenize: CardSource = async () => {
		if (view.provider === 'stripe')
			return stripeCard.current?.tokenize() ?? { error: 'The card form is still loading.' };
		return tokenizeLocalCard({
			number: number.current?.value ?? '',
			expiry: expiry.current?.value ?? '',
			cvc: cvc.current?.value ?? '',
		});
	};

	const fields =
		view.provider === 'stripe' ? (
			<fieldset className="checkout__card">
				<legend>Card</legend>
				<div ref={frame} className="checkout__stripe-card" data-testid="stripe-card" />
			</fieldset>
		) : (
			<fieldset className="checkout__card">
				<legend>Card</legend>
				<label className="checkout__field">
					<span>Card number</span>
					<input
						ref={number}
						inputMode="numeric"
						autoComplete="cc-number"
						placeholder="1234 1234 1234 1234"
						maxLength={23}
						data-testid="card-number"
					/>
				</label>
				<div className="checkout__row">
					<label className="checkout__field">
						<span>Expiry (MM/YY)</span>
						<input
							ref={expiry}
							autoComplete="cc-exp"
							placeholder="MM/YY"
							maxLength={7}
							data-testid="card-expiry"
						/>
					</label>
					<label className="checkout__field">
						<span>Security code</span>
						<input
							ref={cvc}
							inputMode="numeric"
							autoComplete="cc-csc"
							placeholder="CVC"
							maxLength={4}
							data-testid="card-cvc"
						/>
					</label>
				</div>
			</fieldset>
		);
	return { fields, tokenize, ready, failed };
}
