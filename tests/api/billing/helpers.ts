import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { tokenizeLocalCard } from '../../../src/lib/billing/local-card';
import { createBillingApi } from '../../../src/lib/billing/server/api';
import type { BillingDeps } from '../../../src/lib/billing/server/billing-shared';
import { seedCatalogue } from '../../../src/lib/billing/server/catalogue';
import type { AppDeps } from '../../../src/lib/core/server/deps';
import { callApi, createTestApi, createTestDeps } from '../../helpers/app';
import type { TestDatabase } from '../../helpers/db';
import type { Member } from '../routes/helpers';

export { addMember, type Member } from '../routes/helpers';

/** The billing API over a test database, with every log line kept so tests can read them. */
export function createBillingTestApp(database: TestDatabase, extra: Partial<BillingDeps> = {}) {
	const logLines: string[] = [];
	const logger = pino({ level: 'debug' }, { write: (line: string) => logLines.push(line) });
	const deps: BillingDeps = { ...createTestDeps(database.db, { logger }), ...extra };
	const app = createTestApi(deps, { routes: [createBillingApi(extra)] });
	return { deps: deps as AppDeps & BillingDeps, app, logLines };
}

export async function resetBilling(database: TestDatabase) {
	await database.reset();
	await seedCatalogue({ db: database.db });
}

export function cardToken(number: string): string {
	const made = tokenizeLocalCard({ number, expiry: '12/34', cvc: '123' });
	if ('error' in made) throw new Error(made.error);
	return made.token;
}

/** A fresh Idempotency-Key, as the checkout form makes one per payment. */
export const newKey = () => `test_${randomUUID().replaceAll('-', '')}`;

type App = ReturnType<typeof createBillingTestApp>['app'];

/** The checkout as the browser runs it: an intent, a card, the charge. */
export async function checkout(
	app: App,
	member: Member,
	card: string,
	options: { product?: string; coupon?: string; key?: string } = {},
) {
	const intent = await callApi(app, 'POST', '/api/checkoutapi/paymentIntent', {
		token: member.token,
		body: { product_id: options.product ?? 'mvp-monthly', coupon: options.coupon },
		headers: { 'idempotency-key': options.key ?? newKey() },
	});
	if (intent.status !== 201 && intent.status !== 200) return { intent, card: null, capture: null };
	const id = intent.json.id as string;
	const added = await callApi(app, 'POST', '/api/checkoutapi/addCard', {
		token: member.token,
		body: { payment_intent_id: id, cc_token: cardToken(card) },
	});
	if (added.status !== 200) return { intent, card: added, capture: null };
	const capture = await callApi(app, 'POST', '/api/checkoutapi/prepareToCapture', {
		token: member.token,
		body: { payment_intent_id: id },
	});
	return { intent, card: added, capture };
}
