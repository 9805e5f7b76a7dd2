import { useStore } from '@nanostores/react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { formatMoney } from '../../lib/billing/contract';
import { $checkout, payWithCard } from '../../lib/billing/store';
import CardFields from './CardFields';

export type CheckoutPlan = { id: string; name: string; amount: number; currency: string; period: string };

export type CheckoutProps = {
	plans: CheckoutPlan[];
	/** The plan picked on the page (or the intent's plan on a hosted checkout). */
	selected: string;
	/** A hosted checkout pays an intent that already exists: no plan or coupon choice. */
	paymentIntentId?: string;
	coupon?: string;
	testMode: boolean;
};

/**
 * The card form. The card's fields have no names, so even a form sent before this script runs
 * carries no card number; the Pay button waits for the script, which turns the card into the test
 * processor's token in the browser.
 */
export default function Checkout({ plans, selected, paymentIntentId, coupon = '', testMode }: CheckoutProps) {
	const state = useStore($checkout);
	const [awake, setAwake] = useState(false);
	const form = useRef<HTMLFormElement>(null);
	const number = useRef<HTMLInputElement>(null);
	const expiry = useRef<HTMLInputElement>(null);
	const cvc = useRef<HTMLInputElement>(null);
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
			card: {
				number: number.current?.value ?? '',
				expiry: expiry.current?.value ?? '',
				cvc: cvc.current?.value ?? '',
			},
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
			{testMode && (
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
			<CardFields number={number} expiry={expiry} cvc={cvc} />
			{(state.step === 'error' || state.step === 'pending') && (
				<p
					role="alert"
					className={`checkout__message checkout__message--${state.step}`}
					data-testid="checkout-message"
				>
					{state.message}
				</p>
			)}
			<button className="primary" type="submit" disabled={!awake || busy} data-testid="checkout-pay">
				{state.step === 'working' ? 'Paying…' : 'Subscribe'}
			</button>
		</form>
	);
}
