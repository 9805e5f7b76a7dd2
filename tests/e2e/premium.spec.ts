import { runGpx } from '../helpers/run-gpx';
import { expect, type Page, test } from './fixtures';
import { deliveredMail, expectNoSeriousA11yIssues, fillCard, payWith } from './helpers';
import { readDeliveredMail } from './smtp-sink';

/**
 * Buying MVP in the browser with the built-in test processor: a card that is declined, one that
 * needs the extra verification step, one that succeeds at once; a coupon; auto-renew; the receipt;
 * the promo banner gone and a premium feature open afterwards.
 */

const PASSWORD = 'Copper-Harbour-Lantern-52';

/** A new member, signed in in this page's browser context. */
async function newMember(
	page: Page,
	label: string,
	projectName: string,
): Promise<{ token: string; email: string }> {
	const email = `mvp-${label}-${projectName}-${Date.now()}@example.test`;
	const signup = await page.request.post('/api/auth/signup', {
		data: {
			first_name: 'Mia',
			last_name: 'Premium',
			email,
			password: PASSWORD,
			birthdate: '1988-05-05',
			gender: 'F',
			location: { country: 'US' },
			// Heart-rate zones (an MVP feature below) are health data, used only with the member's consent.
			consents: { terms_of_use: true, privacy_policy: true, health_data: true },
		},
	});
	expect(signup.status()).toBe(201);
	const login = await page.request.post('/api/auth/login', { data: { email, password: PASSWORD } });
	expect(login.status()).toBe(200);
	return { token: (await login.json()).access_token as string, email };
}

test('a card that succeeds buys MVP: receipt, membership with auto-renew, no banner, heart-rate zones open', async ({
	page,
}, testInfo) => {
	test.setTimeout(60_000);
	const { token } = await newMember(page, 'ok', testInfo.project.name);
	await page.goto('/', { waitUntil: 'load' });
	await expect(page.locator('[data-promo]')).toBeVisible();

	const keys: (string | undefined)[] = [];
	page.on('request', (request) => {
		if (new URL(request.url()).pathname === '/api/checkoutapi/paymentIntent')
			keys.push(request.headers()['idempotency-key']);
	});
	await page.goto('/premium/checkout', { waitUntil: 'commit' });
	await expect(page.getByTestId('test-mode')).toContainText('no real card is charged');
	await page.getByRole('radio', { name: /MVP Annual/ }).check();
	await payWith(page, '4242 4242 4242 4242');
	await page.waitForURL(/\/premium\/receipt\/pi_/);
	// The checkout sends the key every charge needs.
	expect(keys).toEqual([expect.stringMatching(/^checkout_[0-9a-f]{32}_mvp-annual_none$/)]);
	await expect(page.getByTestId('receipt-thanks')).toHaveText('Thank you: you are an MVP member.');
	await expect(page.getByTestId('receipt-amount')).toHaveText('$29.99');
	await expect(page.getByTestId('receipt')).toContainText('visa ending 4242');
	await expect(page.getByRole('button', { name: 'Print' })).toBeVisible();
	// The banner is gone at once, on pre-rendered pages too.
	await expect(page.locator('[data-promo]')).toHaveCount(0);
	await page.goto('/', { waitUntil: 'load' });
	await expect(page.locator('[data-promo]')).toBeHidden();

	await page.goto('/premium', { waitUntil: 'commit' });
	await page.waitForURL('**/premium/membership');
	await expect(page.getByTestId('membership-state')).toHaveText('Active');
	await expect(page.getByTestId('next-charge')).toContainText('$29.99 on');
	await page.getByTestId('auto-renew-toggle').click();
	await expect(page.getByTestId('membership-flash')).toContainText('Auto-renew is off');
	await expect(page.getByTestId('auto-renew-state')).toHaveText('Auto-renew is off.');
	await expect(page.getByTestId('next-charge')).toHaveText('None: auto-renew is off');
	await page.getByTestId('auto-renew-toggle').click();
	await expect(page.getByTestId('auto-renew-state')).toHaveText('Auto-renew is on.');
	await expect(page.getByTestId('payment-history').getByRole('link', { name: 'Receipt' })).toHaveCount(1);

	// A premium feature: heart-rate zones on a recorded workout.
	const start = new Date(
		Date.UTC(2026, 2, 1, 6) + Math.floor(Math.random() * 100_000) * 60_000,
	).toISOString();
	const imported = await page.request.post('/api/v7.1/device/file_import/?privacy=0&name=Zone%20run', {
		headers: { authorization: `Bearer ${token}` },
		multipart: {
			file: {
				name: 'run.gpx',
				mimeType: 'application/gpx+xml',
				buffer: Buffer.from(runGpx({ minutes: 20, mps: 3, start })),
			},
		},
	});
	expect(imported.status()).toBe(201);
	const { id } = (await imported.json()) as { id: number };
	await page.goto(`/workout/${id}`, { waitUntil: 'commit' });
	await expect(page.getByTestId('heart-rate-zones').getByRole('row', { name: /Zone 3/ })).toBeVisible();
	await expect(page.getByTestId('heart-rate-zones-locked')).toHaveCount(0);
});

test('a declined card is explained; a card needing the extra step is confirmed and buys MVP', async ({
	page,
}, testInfo) => {
	test.setTimeout(60_000);
	await newMember(page, 'declined', testInfo.project.name);
	await page.goto('/premium/checkout', { waitUntil: 'commit' });
	await payWith(page, '4000 0000 0000 0002');
	await expect(page.getByTestId('checkout-message')).toHaveText('Your card was declined.');
	await payWith(page, '4242 4242 4242 4241');
	await expect(page.getByTestId('checkout-message')).toHaveText('Your card number is not valid.');

	await payWith(page, '4000 0025 0000 3155');
	await page.waitForURL(/\/premium\/checkout\/authenticate/);
	await expect(page.getByRole('heading', { name: 'Confirm your payment' })).toBeVisible();
	await expect(page.getByText('Confirm the payment of $5.99 to Mapstride?')).toBeVisible();
	await page.getByTestId('verify-approve').click();
	await page.waitForURL(/\/premium\/receipt\/pi_/);
	await expect(page.getByTestId('receipt-amount')).toHaveText('$5.99');
	await page.goto('/premium/membership', { waitUntil: 'commit' });
	await expect(page.getByTestId('membership-state')).toHaveText('Active');
	// The declined attempt left no charge: one paid payment in the history.
	await expect(page.getByTestId('payment-history').getByRole('link', { name: 'Receipt' })).toHaveCount(1);
	await page.goto('/', { waitUntil: 'load' });
	await expect(page.locator('[data-promo]')).toBeHidden();
});

test("an app's payment is paid on the hosted checkout", async ({ page }, testInfo) => {
	const { token } = await newMember(page, 'hosted', testInfo.project.name);
	const keyless = await page.request.post('/api/checkoutapi/paymentIntent', {
		headers: { authorization: `Bearer ${token}` },
		data: { product_id: 'mvp-annual' },
	});
	expect(keyless.status()).toBe(400);
	expect((await keyless.json()).error_description).toContain('Idempotency-Key');
	const started = await page.request.post('/api/checkoutapi/paymentIntent', {
		headers: { authorization: `Bearer ${token}`, 'idempotency-key': `app_${crypto.randomUUID()}` },
		data: { product_id: 'mvp-annual' },
	});
	expect(started.status()).toBe(201);
	const intent = (await started.json()) as { id: string; checkoutUrl: string };
	expect(intent.checkoutUrl).toMatch(new RegExp(`/checkout/en-us/MMF/${intent.id}$`));
	await page.goto(`/checkout/en-us/MMF/${intent.id}`, { waitUntil: 'commit' });
	await expect(page.getByText('MVP Annual: $29.99')).toBeVisible();
	await payWith(page, '4242424242424242');
	await page.waitForURL(`**/premium/receipt/${intent.id}`);
	await expect(page.getByTestId('receipt-amount')).toHaveText('$29.99');
});

test('a coupon is redeemed for a free period; a second use is refused', async ({ page }, testInfo) => {
	await newMember(page, 'coupon', testInfo.project.name);
	await page.goto('/promo/ua', { waitUntil: 'commit' });
	await page.waitForURL('**/premium/coupon');
	await page.getByTestId('coupon-code').fill('mvp90');
	await page.getByTestId('coupon-redeem').click();
	await page.waitForURL('**/premium/membership?done=coupon');
	await expect(page.getByTestId('membership-flash')).toHaveText('Your coupon is redeemed. Enjoy MVP!');
	await expect(page.getByTestId('membership-state')).toHaveText('Active (free period)');
	await expect(page.getByTestId('next-charge')).toHaveText('None: auto-renew is off');
	await expect(page.locator('[data-promo]')).toHaveCount(0);
	await page.goto('/', { waitUntil: 'load' });
	await expect(page.locator('[data-promo]')).toBeHidden();

	await page.goto('/premium/promo', { waitUntil: 'commit' });
	await page.getByTestId('coupon-code').fill('MVP90');
	await page.getByTestId('coupon-redeem').click();
	await expect(page.getByTestId('coupon-problem')).toHaveText('You have already used this coupon.');
});

test('a member whose renewal is declined sees until when to update the card; a new card pays at once', async ({
	page,
}, testInfo) => {
	test.setTimeout(60_000);
	const { email } = await newMember(page, 'dunning', testInfo.project.name);
	await page.goto('/premium/checkout', { waitUntil: 'commit' });
	await payWith(page, '4000 0000 0000 0341');
	await page.waitForURL(/\/premium\/receipt\/pi_/);

	// The test processor's card pays now but declines renewals; test mode charges the renewal now.
	await page.goto('/premium/membership', { waitUntil: 'commit' });
	await page.getByTestId('renew-now').click();
	await expect(page.getByTestId('payment-failed-notice')).toHaveText(
		/^Your last payment failed — update your card by [A-Z][a-z]+ \d{1,2}, \d{4} to keep MVP\.$/,
	);
	await expect(page.getByTestId('membership-state')).toHaveText(
		'Payment failed: we will try your card again',
	);
	await expect(page.getByTestId('payment-history')).toContainText('Your card was declined.');
	await expectNoSeriousA11yIssues(page);

	// The mail says the same and leads to the card form.
	const failed = await deliveredMail(email, 'Your MVP payment failed');
	expect(failed).toMatch(/Update your card by [A-Z][a-z]+ \d{1,2}, \d{4} to keep MVP/);
	const link = new URL(failed.match(/https?:\/\/\S+/)?.[0] as string);
	expect(link.pathname + link.hash).toBe('/premium/membership#update-card');
	await page.getByRole('link', { name: 'update your card' }).click();
	await fillCard(page, '4000 0000 0000 0341');
	await page.getByTestId('update-card-save').click();
	await page.waitForURL('**/premium/membership?done=card_saved');
	await expect(page.getByTestId('membership-flash')).toHaveText(
		'Your card is saved, but it was declined for the renewal too. Please try another card.',
	);
	await expect(page.getByTestId('payment-failed-notice')).toBeVisible();

	await fillCard(page, '4000 0000 0000 0002');
	await page.getByTestId('update-card-save').click();
	await expect(page.getByTestId('update-card-message')).toHaveText('Your card was declined.');
	await expect(page.getByTestId('payment-failed-notice')).toBeVisible();

	await page.getByTestId('card-number').fill('4242 4242 4242 4242');
	await page.getByTestId('update-card-save').click();
	await page.waitForURL('**/premium/membership?done=card_saved');
	await expect(page.getByTestId('membership-flash')).toHaveText(
		'Your card is saved and pays your renewals from now on.',
	);
	await expect(page.getByTestId('payment-failed-notice')).toHaveCount(0);
	await expect(page.getByTestId('membership-state')).toHaveText('Active');
	await expect(page.getByTestId('billing-profiles')).toContainText('visa ending 4242 (default)');
	await expect(page.getByTestId('payment-history').getByText('Paid')).toHaveCount(2);
	expect(await deliveredMail(email, 'Your MVP payment went through')).toContain(
		'your MVP membership goes on',
	);
	expect(
		readDeliveredMail(process.env.E2E_MAIL_DIR as string, email)
			.map((mail) => mail.subject)
			.filter((subject) => subject.includes('MVP')),
	).toEqual(['Your MVP payment failed', 'Your MVP payment went through']);
});
