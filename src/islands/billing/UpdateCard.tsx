import { useStore } from '@nanostores/react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { $cardUpdate, updateCard } from '../../lib/billing/store';
import CardFields from './CardFields';

export type UpdateCardProps = {
	/** Where the page goes once the card is saved (the membership page, saying what happened). */
	done: string;
	/** A renewal is waiting for a card: the button says it pays too. */
	overdue: boolean;
	testMode: boolean;
};

/** A new default card for renewals; with a failed renewal waiting, saving it charges that renewal. */
export default function UpdateCard({ done, overdue, testMode }: UpdateCardProps) {
	const state = useStore($cardUpdate);
	const [awake, setAwake] = useState(false);
	const number = useRef<HTMLInputElement>(null);
	const expiry = useRef<HTMLInputElement>(null);
	const cvc = useRef<HTMLInputElement>(null);
	useEffect(() => setAwake(true), []);

	const submit = (event: FormEvent) => {
		event.preventDefault();
		void updateCard(
			{
				number: number.current?.value ?? '',
				expiry: expiry.current?.value ?? '',
				cvc: cvc.current?.value ?? '',
			},
			done,
		);
	};

	return (
		<form className="checkout" onSubmit={submit} method="post" data-testid="update-card-form">
			{testMode && (
				<p className="checkout__test-mode" role="note">
					<strong>Test mode:</strong> no real card is charged. 4242 4242 4242 4242 pays; 4000 0000 0000 0341
					is saved but declines every later charge.
				</p>
			)}
			<CardFields number={number} expiry={expiry} cvc={cvc} />
			{state.step === 'error' && (
				<p
					role="alert"
					className="checkout__message checkout__message--error"
					data-testid="update-card-message"
				>
					{state.message}
				</p>
			)}
			<button
				className="primary"
				type="submit"
				disabled={!awake || state.step === 'working'}
				data-testid="update-card-save"
			>
				{state.step === 'working' ? 'Saving…' : overdue ? 'Save card and pay now' : 'Save card'}
			</button>
		</form>
	);
}
