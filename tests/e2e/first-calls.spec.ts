import { expect, type Page, test } from './fixtures';
import { registerMember } from './helpers';

/**
 * A page's first calls to the API are answered, not refused: a visitor on the login page is not
 * asked for a session they do not have, and a member's first payment call carries their token
 * rather than failing with 401 and being retried. The console shows no 401 either way. Desktop only:
 * the calls do not change with the screen.
 */

/** Every 401 the page's own API answers from now on, by path. */
function watchRefusals(page: Page): string[] {
	const refused: string[] = [];
	page.on('response', (response) => {
		if (response.status() === 401) refused.push(new URL(response.url()).pathname);
	});
	return refused;
}

test('a visitor on the login page is not refused a session @desktop-layout', async ({ page }) => {
	const refused = watchRefusals(page);
	const messages: string[] = [];
	page.on('console', (message) => messages.push(message.text()));
	await page.goto('/auth/login');
	await page.waitForLoadState('networkidle');
	await expect(page.getByRole('button', { name: 'Log in' })).toBeEnabled();
	expect(refused).toEqual([]);
	expect(messages.filter((text) => text.includes('401'))).toEqual([]);
});

test('a member on the login page goes straight on to where they were headed @desktop-layout', async ({
	page,
	baseURL,
}, testInfo) => {
	const stamp = `${Date.now().toString(36)}${testInfo.project.name.replace(/\W/g, '')}`;
	await registerMember(page.request, baseURL as string, {
		first_name: 'Lena',
		last_name: 'Login',
		email: `lena.login.${stamp}@mapstride.example`,
		password: `Quiet-Login-Trail-${stamp}`,
	});
	const refused = watchRefusals(page);
	await page.goto('/auth/login?next=%2Fpeople%2Ffriends%2F');
	await page.waitForURL('**/people/friends/');
	expect(refused).toEqual([]);
});

test("a member's first payment call carries their token @desktop-layout", async ({
	page,
	baseURL,
}, testInfo) => {
	test.setTimeout(60_000);
	const stamp = `${Date.now().toString(36)}${testInfo.project.name.replace(/\W/g, '')}`;
	await registerMember(page.request, baseURL as string, {
		first_name: 'Pia',
		last_name: 'Payer',
		email: `pia.payer.${stamp}@mapstride.example`,
		password: `Quiet-Checkout-Trail-${stamp}`,
	});
	const refused = watchRefusals(page);
	const intents: string[] = [];
	page.on('request', (request) => {
		if (new URL(request.url()).pathname === '/api/checkoutapi/paymentIntent')
			intents.push(request.headers().authorization ?? 'no token');
	});
	await page.goto('/premium/checkout', { waitUntil: 'load' });
	await page.getByRole('radio', { name: /MVP Annual/ }).check();
	await page.getByTestId('card-number').fill('4242 4242 4242 4242');
	await page.getByTestId('card-expiry').fill('12/34');
	await page.getByTestId('card-cvc').fill('123');
	await page.getByTestId('checkout-pay').click();
	await page.waitForURL(/\/premium\/receipt\/pi_/);
	// One payment call, with the token, and nothing refused on the way.
	expect(intents).toHaveLength(1);
	expect(intents[0]).toMatch(/^Bearer /);
	expect(refused).toEqual([]);
});
