import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { WebhookSignatureError } from '../../../src/lib/billing/server/processor';
import { createStripeProcessor } from '../../../src/lib/billing/server/stripe-processor';

/**
 * A Stripe-shaped server: answers the PaymentIntents calls as Stripe does and records every
 * request's idempotency key, failing the first create with 502 when asked to.
 */
type Seen = { method: string; path: string; key: string | undefined; body: string };
let server: Server;
let port: number;
let seen: Seen[] = [];
let failNextWith: number | null = null;
const intents = new Map<string, Record<string, unknown>>();

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
		if (failNextWith) {
			response.statusCode = failNextWith;
			failNextWith = null;
			response.end(JSON.stringify({ error: { type: 'api_error', message: 'Bad gateway' } }));
			return;
		}
		const form = new URLSearchParams(body);
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

test('a charge creates and confirms a PaymentIntent with our idempotency key', async () => {
	const payment = await charge('pm_card_visa', 'pi_ours-1');
	expect(payment).toMatchObject({ status: 'succeeded', ref: expect.stringMatching(/^pi_test_/) });
	expect(seen).toHaveLength(1);
	expect(seen[0]).toMatchObject({ method: 'POST', path: '/v1/payment_intents', key: 'pi_ours-1' });
	expect(new URLSearchParams(seen[0].body).get('confirm')).toBe('true');
	expect(processor().testMode).toBe(true);
});

test('a 502 is retried once with the same idempotency key', async () => {
	failNextWith = 502;
	const payment = await charge('pm_card_visa', 'pi_ours-2');
	expect(payment.status).toBe('succeeded');
	expect(seen.map((request) => request.key)).toEqual(['pi_ours-2', 'pi_ours-2']);
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
