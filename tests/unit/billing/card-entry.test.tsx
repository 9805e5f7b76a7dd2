// @vitest-environment happy-dom
import type { Stripe } from '@stripe/stripe-js';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { useCardEntry } from '../../../src/islands/billing/card-entry';
import type { CardEntryView } from '../../../src/lib/billing/contract';
import type { StripeLoader } from '../../../src/lib/billing/stripe-card';

afterEach(cleanup);

type Made = { token: string; brand: string; last4: string } | { error: string };

/** The card form as a page uses it: its fields, and a button that turns the card into a token. */
function CardForm({
	view,
	load,
	onToken,
}: {
	view: CardEntryView;
	load?: StripeLoader;
	onToken(made: Made): void;
}) {
	const card = useCardEntry(view, load);
	return (
		<div>
			{card.fields}
			{card.failed && <p role="alert">{card.failed}</p>}
			<button type="button" disabled={!card.ready} onClick={async () => onToken(await card.tokenize())}>
				Pay
			</button>
		</div>
	);
}

/**
 * Stripe.js as the page meets it: Elements mounts a card field into our container (in production
 * an iframe of Stripe's), and createPaymentMethod answers with a PaymentMethod or Stripe's error.
 */
function stripeDouble(answer: { id: string } | { message: string }) {
	const calls = { mountedInto: null as HTMLElement | null, destroyed: 0, keys: [] as string[] };
	const card = {
		mount(container: HTMLElement) {
			calls.mountedInto = container;
			// Stripe's frame; the test DOM loads no frames, so its place is marked instead.
			container.innerHTML = '<div class="StripeElement"></div>';
		},
		destroy() {
			calls.destroyed++;
		},
	};
	const stripe = {
		elements: () => ({ create: () => card }),
		createPaymentMethod: async () =>
			'id' in answer
				? { paymentMethod: { id: answer.id, card: { brand: 'visa', last4: '4242' } } }
				: { error: { type: 'card_error', message: answer.message } },
	} as unknown as Stripe;
	let release: () => void = () => {};
	const loaded = new Promise<void>((resolve) => {
		release = resolve;
	});
	const load: StripeLoader = async (key) => {
		calls.keys.push(key);
		await loaded;
		return stripe;
	};
	return { calls, load, release };
}

const stripeView: CardEntryView = {
	provider: 'stripe',
	testMode: false,
	publishableKey: 'pk_live_mapstride',
};

describe('the card form', () => {
	test('with the test processor, takes the card in fields without names and makes its token here', async () => {
		const made: Made[] = [];
		render(<CardForm view={{ provider: 'local', testMode: true }} onToken={(token) => made.push(token)} />);
		const number = screen.getByLabelText('Card number');
		expect(number.getAttribute('name')).toBeNull();
		fireEvent.change(number, { target: { value: '4242 4242 4242 4241' } });
		fireEvent.change(screen.getByLabelText('Expiry (MM/YY)'), { target: { value: '12/40' } });
		fireEvent.change(screen.getByLabelText('Security code'), { target: { value: '123' } });
		fireEvent.click(screen.getByRole('button', { name: 'Pay' }));
		await waitFor(() => expect(made).toEqual([{ error: 'Your card number is not valid.' }]));
		fireEvent.change(number, { target: { value: '4242 4242 4242 4242' } });
		fireEvent.click(screen.getByRole('button', { name: 'Pay' }));
		await waitFor(() =>
			expect(made[1]).toMatchObject({ token: expect.stringMatching(/^tok_local_ok_visa_4242_/) }),
		);
	});

	test('with Stripe, mounts Stripe Elements and hands over its PaymentMethod; no card field is ours', async () => {
		const double = stripeDouble({ id: 'pm_1Mapstride' });
		const made: Made[] = [];
		const { unmount } = render(
			<CardForm view={stripeView} load={double.load} onToken={(token) => made.push(token)} />,
		);
		// Until Stripe.js has loaded the form cannot pay.
		expect(screen.getByRole('button', { name: 'Pay' })).toHaveProperty('disabled', true);
		await act(async () => double.release());
		await waitFor(() =>
			expect(screen.getByRole('button', { name: 'Pay' })).toHaveProperty('disabled', false),
		);
		expect(double.calls.keys).toEqual(['pk_live_mapstride']);
		expect(double.calls.mountedInto).toBe(screen.getByTestId('stripe-card'));
		expect(document.querySelectorAll('input')).toHaveLength(0);

		fireEvent.click(screen.getByRole('button', { name: 'Pay' }));
		await waitFor(() => expect(made).toEqual([{ token: 'pm_1Mapstride', brand: 'visa', last4: '4242' }]));
		unmount();
		expect(double.calls.destroyed).toBe(1);
	});

	test('with Stripe, says what Stripe refused, and says so when Stripe.js cannot load', async () => {
		const double = stripeDouble({ message: 'Your card number is incomplete.' });
		const made: Made[] = [];
		render(<CardForm view={stripeView} load={double.load} onToken={(token) => made.push(token)} />);
		await act(async () => double.release());
		await waitFor(() =>
			expect(screen.getByRole('button', { name: 'Pay' })).toHaveProperty('disabled', false),
		);
		fireEvent.click(screen.getByRole('button', { name: 'Pay' }));
		await waitFor(() => expect(made).toEqual([{ error: 'Your card number is incomplete.' }]));
		cleanup();

		render(
			<CardForm
				view={stripeView}
				load={async () => {
					throw new Error('blocked');
				}}
				onToken={() => {}}
			/>,
		);
		expect(await screen.findByRole('alert')).toHaveProperty(
			'textContent',
			'The card form could not be loaded. Check your connection and reload the page.',
		);
		expect(screen.getByRole('button', { name: 'Pay' })).toHaveProperty('disabled', true);
	});
});
