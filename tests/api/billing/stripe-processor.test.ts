import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { WebhookSignatureError } from '../../../src/lib/billing/server/processor';
import { createStripeProcessor } from '../../../src/lib/billing/server/stripe-processor';

/**
 * A Stripe-shaped server: answers the PaymentMethods, Customers and PaymentIntents calls as Stripe
 * does and records every request's idempotency key, failing the next PaymentIntent create with 502
 * when asked to. `pm_elements_*` methods stand for cards Stripe Elements made in a browser.
 */
type Seen = { method: string; path: string; key: string | undefined; body: string };
let server: Server;
let port: number;
let seen: Seen[] = [];
let failNextWith: number | null = null;
const intents = new Map<string, Record<string, unknown>>();
const methods = new Map<
	string,
	{ id: string; object: 'payment_method'; customer: string | null; card: object }
>();
let customers = 0;

function paymentMethod(id: string) {
	const known = methods.get(id);
	if (known) return known;
	const made = {
		id,
		object: 'payment_method' as const,
		customer: null,
		card: { brand: 'visa', last4: '4242' },
	};
	methods.set(id, made);
	return made;
}

function read(request: IncomingMessage): Promise<string> {
	return new Promise((resolve) => {
		let body = '';
		request.on('data', (chunk) => {
			body += chunk;
		});
		request.on('end', () => resolve(body));
	});
}

beforeAll(async () => {
	server = createServer(async (request, response) => {
		const body = await read(request);
		const key = request.headers['idempotency-key'] as string | undefined;
		seen.push({ method: request.method ?? '', path: request.url ?? '', key, body });
		response.setHeader('content-type', 'application/json');
		const form = new URLSearchParams(body);
		const methodPath = /^\/v1\/payment_methods\/(\w+)$/.exec(request.url ?? '');
		if (methodPath && request.method === 'GET') {
			response.end(JSON.stringify(paymentMethod(methodPath[1])));
			return;
		}
		if (request.url === '/v1/payment_methods' && request.method === 'POST') {
			response.end(JSON.stringify(paymentMethod(`pm_from_${form.get('card[token]')}`)));
			return;
		}
		if (request.url === '/v1/customers' && request.method === 'POST') {
			const id = `cus_test_${++customers}`;
			const attached = form.get('payment_method');
			if (attached) paymentMethod(attached).customer = id;
			response.end(JSON.stringify({ id, object: 'customer' }));
			return;
		}
		if (failNextWith) {
			response.statusCode = failNextWith;
			failNextWith = null;
			response.end(JSON.stringify({ error: { type: 'api_error', message: 'Bad gateway' } }));
			return;
		}
		if (request.url === '/v1/payment_intents' && request.method === 'POST') {
			const method = form.get('payment_method');
			const id = `pi_test_${intents.size + 1}`;
			const declined = method === 'pm_card_chargeDeclined';
			const intent = {
				id,
				object: 'payment_intent',
				amount: Number(form.get('amount')),
				currency: form.get('currency'),
				status: declined
					? 'requires_payment_method'
					: method === 'pm_card_authenticationRequired'
						? 'requires_action'
						: 'succeeded',
				next_action:
					method === 'pm_card_authenticationRequired'
						? { type: 'redirect_to_url', redirect_to_url: { url: 'https://hooks.stripe.com/3d_secure/x' } }
						: null,
				last_payment_error: declined
					? { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' }
					: null,
			};
			intents.set(id, intent);
			if (declined) {
				response.statusCode = 402;
				response.end(
					JSON.stringify({
						error: {
							type: 'card_error',
							code: 'card_declined',
							decline_code: 'generic_decline',
							message: 'Your card was declined.',
							payment_intent: intent,
						},
					}),
				);
				return;
			}
			response.end(JSON.stringify(intent));
			return;
		}
		const retrieve = /^\/v1\/payment_intents\/([\w]+)$/.exec(request.url ?? '');
		if (retrieve && request.method === 'GET') {
			response.end(JSON.stringify(intents.get(retrieve[1])));
			return;
		}
		response.statusCode = 404;
		response.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'unknown' } }));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	port = (server.address() as AddressInfo).port;
});
beforeEach(() => {
	seen = [];
	failNextWith = null;
});
afterAll(() => {
	server.close();
});

const processor = () =>
	createStripeProcessor({
		secretKey: 'sk_test_mapstride',
		webhookSecret: 'whsec_mapstride_test',
		publishableKey: 'pk_test_mapstride',
		host: '127.0.0.1',
		port,
		protocol: 'http',
	});
const charge = (paymentMethod: string, idempotencyKey: string) =>
	processor().charge({
		amount: 599,
		currency: 'usd',
		paymentMethod,
		idempotencyKey,
		offSession: false,
		returnUrl: 'http://localhost:4321/premium/checkout',
		metadata: { payment_intent: 'pi_ours' },
	});

const creates = () =>
	seen.filter((request) => request.method === 'POST' && request.path === '/v1/payment_intents');

test('a charge creates and confirms a PaymentIntent with our idempotency key', async () => {
	const payment = await charge('pm_card_visa', 'pi_ours-1');
	expect(payment).toMatchObject({ status: 'succeeded', ref: expect.stringMatching(/^pi_test_/) });
	expect(creates()).toHaveLength(1);
	expect(creates()[0]).toMatchObject({ key: 'pi_ours-1' });
	expect(new URLSearchParams(creates()[0].body).get('confirm')).toBe('true');
	expect(processor().testMode).toBe(true);
});

test('a 502 is retried once with the same idempotency key', async () => {
	failNextWith = 502;
	const payment = await charge('pm_card_visa', 'pi_ours-2');
	expect(payment.status).toBe('succeeded');
	expect(creates().map((request) => request.key)).toEqual(['pi_ours-2', 'pi_ours-2']);
});

test('a card from Stripe Elements is kept on a customer of its own, and charges name that customer', async () => {
	expect(processor().cardEntry).toEqual({
		provider: 'stripe',
		testMode: true,
		publishableKey: 'pk_test_mapstride',
	});
	const saved = await processor().saveCard('pm_elements_1', 'card-7-abc');
	expect(saved).toEqual({ paymentMethod: 'pm_elements_1', brand: 'visa', last4: '4242' });
	// Elements already made the PaymentMethod: it is read, never made again from a token.
	expect(seen.some((request) => request.method === 'POST' && request.path === '/v1/payment_methods')).toBe(
		false,
	);
	const customer = seen.find((request) => request.path === '/v1/customers');
	expect(customer?.key).toBe('card-7-abc-customer');
	expect(new URLSearchParams(customer?.body).get('payment_method')).toBe('pm_elements_1');

	// Saving it again (a retried request) attaches nothing twice.
	seen = [];
	await processor().saveCard('pm_elements_1', 'card-7-abc');
	expect(seen.filter((request) => request.path === '/v1/customers')).toHaveLength(0);

	// A renewal charges off session through the customer, as Stripe requires for a saved card.
	seen = [];
	const renewal = await processor().charge({
		amount: 2999,
		currency: 'usd',
		paymentMethod: 'pm_elements_1',
		idempotencyKey: 'renewal-7-2027',
		offSession: true,
		returnUrl: 'http://localhost:4321/premium/membership',
		metadata: {},
	});
	expect(renewal.status).toBe('succeeded');
	const sent = new URLSearchParams(creates()[0].body);
	expect(sent.get('customer')).toMatch(/^cus_test_\d+$/);
	expect(sent.get('customer')).toBe(methods.get('pm_elements_1')?.customer);
	expect(sent.get('off_session')).toBe('true');
});

test('an older client’s card token becomes a PaymentMethod on a customer', async () => {
	const saved = await processor().saveCard('tok_visa', 'card-8-def');
	expect(saved.paymentMethod).toBe('pm_from_tok_visa');
	expect(seen.map((request) => `${request.method} ${request.path}`)).toEqual([
		'POST /v1/payment_methods',
		'POST /v1/customers',
	]);
});

test('a decline is an outcome with Stripe’s reason; the extra step carries its address', async () => {
	expect(await charge('pm_card_chargeDeclined', 'pi_ours-3')).toMatchObject({
		status: 'failed',
		failureCode: 'generic_decline',
		failureMessage: 'Your card was declined.',
	});
	const action = await charge('pm_card_authenticationRequired', 'pi_ours-4');
	expect(action).toMatchObject({
		status: 'requires_action',
		nextActionUrl: 'https://hooks.stripe.com/3d_secure/x',
	});
	expect((await processor().retrieve(action.ref)).status).toBe('requires_action');
});

test('Stripe-signed events verify; a wrong secret or a stale timestamp is refused', () => {
	const now = new Date('2026-06-01T12:00:00Z');
	const payload = JSON.stringify({
		id: 'evt_1',
		object: 'event',
		type: 'payment_intent.succeeded',
		data: { object: { id: 'pi_test_1', object: 'payment_intent' } },
	});
	const at = Math.floor(now.getTime() / 1000);
	const signed = Stripe.webhooks.generateTestHeaderString({
		payload,
		secret: 'whsec_mapstride_test',
		timestamp: at,
	});
	expect(processor().parseWebhook(payload, signed, now)).toEqual({
		id: 'evt_1',
		type: 'payment_intent.succeeded',
		paymentRef: 'pi_test_1',
	});
	const forged = Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_other', timestamp: at });
	expect(() => processor().parseWebhook(payload, forged, now)).toThrow(WebhookSignatureError);
	const stale = Stripe.webhooks.generateTestHeaderString({
		payload,
		secret: 'whsec_mapstride_test',
		timestamp: at - 301,
	});
	expect(() => processor().parseWebhook(payload, stale, now)).toThrow(WebhookSignatureError);
	expect(() => processor().parseWebhook(`${payload} `, signed, now)).toThrow(WebhookSignatureError);
});
