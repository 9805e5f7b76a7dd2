import { DEMO_LOGIN } from '../../src/lib/db/seed';
import { expect, type Page, test } from './fixtures';
import { expectNoSeriousA11yIssues, HYDRATING_ISLANDS, open } from './helpers';
import { readDeliveredMail } from './smtp-sink';

/**
 * The account journey on the real server: sign up, confirm the email from the mail, log out,
 * log in through a guarded page's `next`, reset the password by mail, delete the account.
 * Mail is read as delivered over SMTP to the test sink that playwright.config.ts runs.
 */

async function mailLink(_page: Page, to: string, subject: string): Promise<string> {
	const folder = process.env.E2E_MAIL_DIR as string;
	let text = '';
	await expect
		.poll(
			() => {
				const mail = readDeliveredMail(folder, to)
					.filter((message) => message.subject.includes(subject))
					.at(-1);
				text = mail?.text ?? '';
				return text;
			},
			{ timeout: 15_000 },
		)
		.toMatch(/https?:\/\//);
	const link = text.match(/https?:\/\/\S+/)?.[0];
	return new URL(link as string).pathname;
}

test('sign up, verify, log out, log in via next, reset by mail, delete', async ({ page }, testInfo) => {
	test.setTimeout(90_000);
	const email = `journey-${testInfo.project.name}-${Date.now()}@example.test`;
	const first = 'Plum-Harbour-Lantern-81';
	const second = 'Quiet-Orchard-Comet-27';

	// Sign up
	await open(page, '/auth/signup?next=%2Faccount%2Fmy_profile');
	await expect(page.getByRole('heading', { name: 'Sign up' })).toBeVisible();
	const year = page.getByLabel('Year');
	const years = await year.locator('option').allTextContents();
	const now = new Date().getFullYear();
	expect(years[1]).toBe(String(now - 11));
	expect(years.at(-1)).toBe(String(now - 120));
	await page.getByRole('button', { name: 'Sign up' }).click();
	await expect(page.getByText('First name is required.')).toBeVisible();
	await expect(page.getByText('Gender is required.')).toBeVisible();
	await page.getByLabel('First name').fill('Jo');
	await page.getByLabel('Last name').fill('Journey');
	await page.getByRole('textbox', { name: 'Email' }).fill(email);
	await page.locator('input[name="password"]').fill(first);
	await page.getByRole('button', { name: 'Show password' }).click();
	await expect(page.locator('input[name="password"]')).toHaveAttribute('type', 'text');
	await page.getByLabel('Day').selectOption('07');
	await page.getByLabel('Month').selectOption('03');
	await year.selectOption(String(now - 30));
	await page.getByLabel('Gender').selectOption('F');
	await page.getByLabel('Country').selectOption('NL');
	await page.getByRole('checkbox', { name: /Terms of Use/ }).check();
	await page.getByRole('button', { name: 'Sign up' }).click();
	await page.waitForURL('**/account/my_profile');
	await expect(page.getByRole('heading', { name: 'Account settings' })).toBeVisible();
	await expect(page.getByLabel('First name')).toHaveValue('Jo');

	// Verify the email from the mail
	const verify = await mailLink(page, email, 'Confirm your email address');
	expect(verify).toMatch(/^\/verify_email\/[A-Za-z0-9_-]{43}$/);
	await open(page, verify);
	await expect(page.getByText('your email address is confirmed')).toBeVisible();

	// Log out; the guarded page now sends us to log in with `next`
	await page.goto('/auth/logout');
	await page.goto('/account/settings');
	await page.waitForURL('**/auth/login?next=%2Faccount%2Fsettings');
	await expect(page.locator(HYDRATING_ISLANDS)).toHaveCount(0);
	await page.getByRole('textbox', { name: 'Email' }).fill(email);
	await page.locator('input[name="password"]').fill('not-my-password-1');
	await page.getByRole('button', { name: 'Log in' }).click();
	await expect(page.getByText('Incorrect email or password.')).toBeVisible();
	await page.locator('input[name="password"]').fill(first);
	await page.getByRole('button', { name: 'Log in' }).click();
	await page.waitForURL('**/account/settings');
	await expect(page.getByText(/zone5/)).toBeVisible();

	// Reset the password by mail
	await page.goto('/auth/logout');
	await open(page, '/auth/forgot_password/');
	await page.getByRole('textbox', { name: 'Email' }).fill(email);
	await page.getByRole('button', { name: 'Send reset link' }).click();
	await expect(page.getByText(/we have sent it a link/)).toBeVisible();
	const reset = await mailLink(page, email, 'Reset your password');
	await open(page, reset);
	await page.getByLabel('New password').fill('password1');
	await page.getByRole('button', { name: 'Set new password' }).click();
	await expect(page.getByRole('alert')).toContainText('commonly used password');
	await page.getByLabel('New password').fill(second);
	await page.getByRole('button', { name: 'Set new password' }).click();
	await expect(page.getByText(/Your password is changed/)).toBeVisible();

	// Log in with the new password, straight to deletion
	await open(page, '/auth/login?next=%2Faccount%2Fdelete');
	await page.getByRole('textbox', { name: 'Email' }).fill(email);
	await page.locator('input[name="password"]').fill(second);
	await page.getByRole('button', { name: 'Log in' }).click();
	await page.waitForURL('**/account/delete');
	await expect(page.locator(HYDRATING_ISLANDS)).toHaveCount(0);
	await page.getByLabel('Your password').fill(second);
	await page.getByRole('checkbox', { name: /permanently/ }).check();
	await page.getByRole('button', { name: 'Delete my account' }).click();
	await expect(page.getByText(/everything in it are deleted/)).toBeVisible();

	// The account is gone
	await open(page, '/auth/login');
	await page.getByRole('textbox', { name: 'Email' }).fill(email);
	await page.locator('input[name="password"]').fill(second);
	await page.getByRole('button', { name: 'Log in' }).click();
	await expect(page.getByText('Incorrect email or password.')).toBeVisible();
});

for (const path of [
	'/auth/login',
	'/auth/signup',
	'/auth/forgot_password/',
	'/password_reset/unknown-but-well-formed-token-0000000000000',
]) {
	test(`${path} has labelled fields and no serious accessibility issues`, async ({ page }) => {
		await open(page, path);
		await expectNoSeriousA11yIssues(page);
	});
}

test('the development mailbox lists what the server sent', async ({ page }) => {
	const response = await open(page, '/dev/mailbox');
	expect(response?.status()).toBe(200);
	await expect(page.getByRole('heading', { name: 'Development mailbox' })).toBeVisible();
});

test('a new member is onboarded through personalization and sees where they are logged in', async ({
	page,
	request,
}, testInfo) => {
	const email = `onboard-${testInfo.project.name}-${Date.now()}@example.test`;
	const signup = await request.post('/api/auth/signup', {
		data: {
			first_name: 'Olu',
			last_name: 'Onboard',
			email,
			password: 'Velvet-Canyon-Drift-64',
			birthdate: '1985-09-09',
			gender: 'M',
			location: { country: 'US' },
		},
	});
	expect(signup.status()).toBe(201);
	await page.request.post('/api/auth/login', { data: { email, password: 'Velvet-Canyon-Drift-64' } });
	await open(page, '/account/personalization/');
	await expect(page.getByRole('heading', { name: 'Make it yours' })).toBeVisible();
	await page.getByRole('radio', { name: 'Miles and pounds' }).check();
	await page.getByLabel('What is your goal?').fill('Ride 100 miles');
	await page.getByRole('button', { name: 'Continue' }).click();
	await page.waitForURL('**/dashboard');
	await open(page, '/account/display_settings');
	await expect(page.getByRole('radio', { name: /Imperial/ })).toBeChecked();
	await open(page, '/account/contact');
	await expect(page.getByRole('heading', { name: "Where you're logged in" })).toBeVisible();
	await expect(page.getByRole('button', { name: 'Log out' }).first()).toBeVisible();
});

test('ending another sign-in from "Where you\'re logged in" removes it and signs that browser out', async ({
	browser,
	baseURL,
	pageProblems,
}, testInfo) => {
	const email = `devices-${testInfo.project.name}-${Date.now()}@example.test`;
	const password = 'Amber-Lighthouse-Fern-38';
	const laptop = await browser.newContext({ baseURL });
	const phone = await browser.newContext({
		baseURL,
		userAgent: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
	});
	try {
		const signup = await laptop.request.post('/api/auth/signup', {
			data: {
				first_name: 'Dev',
				last_name: 'Ices',
				email,
				password,
				birthdate: '1991-03-03',
				gender: 'F',
				location: { country: 'US' },
			},
		});
		expect(signup.status()).toBe(201);
		const phoneLogin = await phone.request.post('/api/auth/login', { data: { email, password } });
		expect(phoneLogin.status()).toBe(200);
		const phoneToken = (await phoneLogin.json()).access_token as string;

		const page = await laptop.newPage();
		await open(page, '/account/contact');
		const sessions = page.getByRole('region', { name: "Where you're logged in" }).getByRole('listitem');
		await expect(sessions).toHaveCount(2);
		await expect(sessions.filter({ hasText: 'This device' })).toHaveCount(1);
		const phoneRow = sessions.filter({ hasText: 'Firefox on Ubuntu' });
		await expect(phoneRow).not.toContainText('This device');

		// A failure is said, and the row stays.
		pageProblems.expectFailedRequest(/^\/api\/auth\/sessions\//);
		await page.route('**/api/auth/sessions/*', (route) =>
			route.request().method() === 'DELETE'
				? route.fulfill({ status: 503, json: { error: 'unavailable', message: 'Service unavailable' } })
				: route.fallback(),
		);
		await phoneRow.getByRole('button', { name: 'Log out' }).click();
		await expect(page.getByRole('alert')).toContainText('Could not log out Firefox on Ubuntu');
		await expect(sessions).toHaveCount(2);
		await page.unroute('**/api/auth/sessions/*');

		await phoneRow.getByRole('button', { name: 'Log out' }).click();
		await expect(phoneRow).toHaveCount(0);
		await expect(sessions).toHaveCount(1);
		await expect(page.getByRole('alert')).toHaveCount(0);

		// The phone is signed out on its very next call, token and cookie alike.
		const read = await phone.request.get('/api/v7.1/user/self/', {
			headers: { authorization: `Bearer ${phoneToken}` },
		});
		expect(read.status()).toBe(401);
		expect((await phone.request.get('/api/auth/refresh-token')).status()).toBe(401);
	} finally {
		await laptop.close();
		await phone.close();
	}
});

test('what a person types into the login form before its script has loaded is kept', async ({ page }) => {
	// The page's script arrives only after both fields are filled, as on a slow phone.
	let release: () => void = () => {};
	const scriptHeld = new Promise<void>((resolve) => {
		release = resolve;
	});
	await page.route('**/_astro/*.js', async (route) => {
		await scriptHeld;
		await route.continue();
	});
	await page.goto('/auth/login?next=%2Fworkout%2Fcreate%2F', { waitUntil: 'commit' });
	await page.getByRole('textbox', { name: 'Email' }).fill(DEMO_LOGIN.email);
	await page.locator('input[name="password"]').fill(DEMO_LOGIN.password);
	// Until the script is in charge the browser may not send the form itself: that would be a GET with
	// the password in the address.
	await expect(page.getByRole('button', { name: 'Log in' })).toBeDisabled();
	await page.locator('input[name="password"]').press('Enter');
	await page.waitForTimeout(300);
	expect(page.url()).not.toContain('password');
	release();
	// Astro takes the `ssr` mark off an island once its script has taken over.
	await expect(page.locator('astro-island:has(form.auth-form)')).not.toHaveAttribute('ssr', /.*/);
	await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue(DEMO_LOGIN.email);
	await page.getByRole('button', { name: 'Log in' }).click();
	await page.waitForURL('**/workout/create/');
});

test('what a person types, chooses and ticks in the sign-up form before its script has loaded is kept', async ({
	page,
}, testInfo) => {
	let release: () => void = () => {};
	const scriptHeld = new Promise<void>((resolve) => {
		release = resolve;
	});
	await page.route('**/_astro/*.js', async (route) => {
		await scriptHeld;
		await route.continue();
	});
	await page.goto('/auth/signup', { waitUntil: 'commit' });
	await page.getByLabel('First name').fill('Early');
	await page.getByLabel('Last name').fill('Bird');
	await page
		.getByRole('textbox', { name: 'Email' })
		.fill(`early-${testInfo.project.name}-${Date.now()}@example.test`);
	await page.locator('input[name="password"]').fill('Harbour-Lantern-Plum-81');
	await page.getByLabel('Day').selectOption('01');
	await page.getByLabel('Month').selectOption('01');
	await page.getByLabel('Year').selectOption(String(new Date().getFullYear() - 40));
	await page.getByLabel('Gender').selectOption('F');
	await page.getByLabel('Country').selectOption('GB');
	const terms = page.getByRole('checkbox', { name: /Terms of Use/ });
	await terms.check();
	release();
	await expect(page.locator('astro-island:has(form.auth-form)')).not.toHaveAttribute('ssr', /.*/);
	// The box the person ticked is still ticked once the script is in charge, and the form goes through.
	await expect(page.getByRole('button', { name: 'Sign up' })).toBeEnabled();
	await expect(terms).toBeChecked();
	await page.getByRole('button', { name: 'Sign up' }).click();
	await page.waitForURL('**/account/personalization/');
});
