import { useStore } from '@nanostores/react';
import { type FormEvent, useEffect, useState } from 'react';
import type { CardEntryView } from '../../lib/billing/contract';
import { $cardUpdate, updateCard } from '../../lib/billing/store';
import { useCardEntry } from './card-entry';

export type UpdateCardProps = {
	/** Where the page goes once the card is saved (the membership page, saying what happened). */
	done: string;
	/** A renewal is waiting for a card: the button says it pays too. */
	overdue: boolean;
	cardEntry: CardEntryView;
};

/** A new default card for renewals; with a failed renewal waiting, saving it charges that renewal. */
export default function UpdateCard({ done, overdue, cardEntry }: UpdateCardProps) {
	const state = useStore($cardUpdate);
	const [awake, setAwake] = useState(false);
	const card = useCardEntry(cardEntry);
	useEffect(() => setAwake(true), []);

	const submit = (event: FormEvent) => {
		event.preventDefault();
		void updateCard(card.tokenize, cardEntry.provider, done);
	};

	return (
		<form className="checkout" onSubmit={submit} method="post" data-testid="update-card-form">
			{cardEntry.testMode && cardEntry.provider === 'local' && (
				<p className="checkout__test-mode" role="note">
					<strong>Test mode:</strong> no real card is charged. 4242 4242 4242 4242 pays; 4000 0000 0000 0341
					is saved but declines every later charge.
				</p>
			)}
			{card.fields}
			{card.failed && (
				<p role="alert" className="checkout__message checkout__message--error">
					{card.failed}
				</p>
			)}
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
				disabled={!awake || !card.ready || state.step === 'working'}
				data-testid="update-card-save"
			>
				{state.step === 'working' ? 'Saving…' : overdue ? 'Save card and pay now' : 'Save card'}
			</button>
		</form>
	);
}
