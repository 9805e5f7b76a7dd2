import { describe, expect, test } from 'vitest';
import { assertReadyForProduction, ConfigError, readConfig } from '../../../src/lib/core/config';

describe('readConfig', () => {
	test('gives working development defaults', () => {
		const config = readConfig({});
		expect(config).toMatchObject({
			port: 4321,
			host: '127.0.0.1',
			dataDir: './data',
			siteVariant: 'fitness',
		});
		expect(config.publicUrl).toBe('http://localhost:4321');
		expect(config.trustedProxy).toBe(false);
	});

	test('refuses development defaults when a production server boots', () => {
		const refuse = (env: Record<string, string>) => () => assertReadyForProduction(readConfig(env), env);
		expect(refuse({ NODE_ENV: 'production' })).toThrow(/SESSION_SECRET is the development default/);
		expect(refuse({ NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(40) })).toThrow(
			/PUBLIC_URL must be set/,
		);
		const ready = {
			NODE_ENV: 'production',
			SESSION_SECRET: 's'.repeat(40),
			PUBLIC_URL: 'https://mapstride.example',
			BILLING_TEST_MODE: '1',
		};
		expect(refuse(ready)).not.toThrow();
		// No card processor: the test one would make anyone MVP for nothing, unless the operator says it is a test.
		const { BILLING_TEST_MODE: _, ...noProcessor } = ready;
		expect(refuse(noProcessor)).toThrow(
			/STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_PUBLISHABLE_KEY must be set/,
		);
		expect(refuse({ ...noProcessor, BILLING_TEST_MODE: '0' })).toThrow(
			/built-in test processor charges no card/,
		);
		expect(() => readConfig({ BILLING_TEST_MODE: 'yes' })).toThrow(/BILLING_TEST_MODE must be 1 or 0/);
		expect(readConfig(ready).publicUrl).toBe('https://mapstride.example');

		// Stripe needs its webhook secret and the publishable key the checkout's card form loads with.
		const stripe = { ...noProcessor, STRIPE_SECRET_KEY: 'sk_live_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' };
		expect(refuse(stripe)).toThrow(/STRIPE_PUBLISHABLE_KEY must be set with STRIPE_SECRET_KEY/);
		expect(refuse({ ...stripe, STRIPE_PUBLISHABLE_KEY: 'pk_live_abc' })).not.toThrow();
		expect(readConfig({ ...stripe, STRIPE_PUBLISHABLE_KEY: 'pk_live_abc' }).stripe).toEqual({
			secretKey: 'sk_live_abc',
			webhookSecret: 'whsec_abc',
			publishableKey: 'pk_live_abc',
		});
	});

	test('limits API callers to 600 requests a minute unless told otherwise, and 0 turns it off', () => {
		expect(readConfig({}).apiRateLimitPerMinute).toBe(600);
		expect(readConfig({ API_RATE_LIMIT: '0' }).apiRateLimitPerMinute).toBe(0);
	});

	test('lets pages be pre-rendered in production mode without secrets', () => {
		expect(readConfig({ NODE_ENV: 'production' }).siteVariant).toBe('fitness');
	});

	test.each([
		[{ PORT: 'eighty' }, /PORT/],
		[{ SITE_VARIANT: 'swim' }, /SITE_VARIANT must be one of/],
		[{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must start with/],
		[{ SESSION_SECRET: 'short' }, /at least 32 characters/],
		[{ API_RATE_LIMIT: 'lots' }, /API_RATE_LIMIT must be a whole number/],
		[{ API_RATE_LIMIT: '-1' }, /API_RATE_LIMIT must be a whole number/],
		[{ STRIPE_PUBLISHABLE_KEY: 'sk_live_abc' }, /STRIPE_PUBLISHABLE_KEY must look like pk_test_/],
	])('explains what is wrong with %o', (env, message) => {
		expect(() => readConfig(env)).toThrow(ConfigError);
		expect(() => readConfig(env)).toThrow(message);
	});
});
