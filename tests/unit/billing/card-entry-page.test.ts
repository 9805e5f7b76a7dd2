import { expect, test } from 'vitest';
import { cardEntryFor } from '../../../src/lib/billing/server/page';
import { readConfig } from '../../../src/lib/core/config';
import type { AppDeps } from '../../../src/lib/core/server/deps';

/** What a page's Content-Security-Policy was asked to allow. */
function recordingCsp() {
	const resources: string[] = [];
	return { resources, insertScriptResource: (resource: string) => resources.push(resource) };
}

test('with the built-in processor the card form is ours and the page allows no other script origin', () => {
	const csp = recordingCsp();
	const deps = { config: readConfig({}) } as AppDeps;
	expect(cardEntryFor(deps, csp)).toEqual({ provider: 'local', testMode: true });
	expect(csp.resources).toEqual([]);
});

test('with Stripe the card form is Stripe Elements, and only then may Stripe.js load on the page', () => {
	const csp = recordingCsp();
	const config = readConfig({
		STRIPE_SECRET_KEY: 'sk_live_mapstride',
		STRIPE_WEBHOOK_SECRET: 'whsec_mapstride',
		STRIPE_PUBLISHABLE_KEY: 'pk_live_mapstride',
	});
	expect(cardEntryFor({ config } as AppDeps, csp)).toEqual({
		provider: 'stripe',
		testMode: false,
		publishableKey: 'pk_live_mapstride',
	});
	expect(csp.resources).toEqual(['https://js.stripe.com']);
	// The secret key is for the server only.
	expect(JSON.stringify(cardEntryFor({ config } as AppDeps, undefined))).not.toContain('sk_live');
});
