import type { RefObject } from 'react';

type Refs = {
	number: RefObject<HTMLInputElement | null>;
	expiry: RefObject<HTMLInputElement | null>;
	cvc: RefObject<HTMLInputElement | null>;
};

/**
 * A card's fields for the test processor's script. They have no names, so even a form sent before
 * the script runs carries no card number; the script reads them through the refs.
 */
export default function CardFields({ number, expiry, cvc }: Refs) {
	return (
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
}
