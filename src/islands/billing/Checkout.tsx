import { useStore } from '@nanostores/react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { type CardEntryView, formatMoney } from '../../lib/billing/contract';
import { $checkout, payWithCard } from '../../lib/billing/store';
import { useCardEntry } from './card-entry';

export type CheckoutPlan = { id: string; name: string; amount: number; currency: string; period: string };

export type CheckoutProps = {
	plans: CheckoutPlan[];
	/** The plan picked on the page (or the intent's plan on a hosted checkout). */
	selected: string;
	/** A hosted checkout pays an intent that already exists: no plan or coupon choice. */
	paymentIntentId?: string;
	coupon?: string;
	cardEntry: CardEntryView;
};

/**
 * The card form. The Pay button waits for the script, which turns the card into the processor's
 * token in the browser (see useCardEntry), so no card number is ever sent to us.
 */
export default function Checkout({
	plans,
	selected,
	paymentIntentId,
	coupon = '',
	cardEntry,
}: CheckoutProps) {
	const state = useStore($checkout);
	const [awake, setAwake] = useState(false);
	const form = useRef<HTMLFormElement>(null);
	const card = useCardEntry(cardEntry);
	const baseKey = useRef(`checkout_${crypto.randomUUID().replaceAll('-', '')}`);
	useEffect(() => setAwake(true), []);

	const submit = (event: FormEvent) => {
		event.preventDefault();
		const data = new FormData(form.current ?? undefined);
		const productId = String(data.get('plan') ?? selected);
		const code = String(data.get('coupon') ?? '')
			.trim()
			.toUpperCase();
		void payWithCard({
			card: card.tokenize,
			productId,
			coupon: code,
			// One key per plan and coupon: a second click is the same payment, a changed choice a new one.
			idempotencyKey: `${baseKey.current}_${productId}_${code || 'none'}`.slice(0, 100),
			paymentIntentId,
		});
	};
	const busy = state.step === 'working' || state.step === 'pending';

	return (
		<form ref={form} className="checkout" onSubmit={submit} method="post" data-testid="checkout-form">
			{cardEntry.provider === 'local' && (
				<p className="checkout__test-mode" role="note" data-testid="test-mode">
					<strong>Test mode:</strong> no real card is charged. Pay with 4242 4242 4242 4242, any future date
					and any CVC; 4000 0000 0000 0002 is declined, 4000 0025 0000 3155 asks for an extra verification
					step and 4000 0000 0000 0341 pays now but declines its renewals.
				</p>
			)}
			{paymentIntentId === undefined && (
				<fieldset className="checkout__plans">
					<legend>Plan</legend>
					{plans.map((plan) => (
						<label key={plan.id} className="checkout__plan">
							<input type="radio" name="plan" value={plan.id} defaultChecked={plan.id === selected} />
							<span>
								<strong>{plan.name}</strong> {formatMoney(plan.amount, plan.currency)} {plan.period}
							</span>
						</label>
					))}
				</fieldset>
			)}
			{paymentIntentId === undefined && (
				<label className="checkout__field">
					<span>Coupon code (optional)</span>
					<input
						name="coupon"
						autoComplete="off"
						defaultValue={coupon}
						maxLength={40}
						data-testid="checkout-coupon"
					/>
				</label>
			)}
			{cardEntry.provider === 'stripe' && cardEntry.testMode && (
				<p className="checkout__test-mode" role="note" data-testid="test-mode">
					<strong>Test mode:</strong> Stripe's test cards work here, and no real card is charged.
				</p>
			)}
			{card.fields}
			{card.failed && (
				<p role="alert" className="checkout__message checkout__message--error">
					{card.failed}
				</p>
			)}
			{(state.step === 'error' || state.step === 'pending') && (
				<p
					role="alert"
					className={`checkout__message checkout__message--${state.step}`}
					data-testid="checkout-message"
				>
					{state.message}
				</p>
			)}
			<button
				className="primary"
				type="submit"
				disabled={!awake || !card.ready || busy}
				data-testid="checkout-pay"
			>
				{state.step === 'working' ? 'Paying…' : 'Subscribe'}
			</button>
		</form>
	);
}
