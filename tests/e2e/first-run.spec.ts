import path from 'node:path';
import sharp from 'sharp';
import { expect, type Page, test } from './fixtures';
import { expectNoSeriousA11yIssues, HYDRATING_ISLANDS, mailedLink, open } from './helpers';

/**
 * A new member's first steps on the real server: signing up in the United States, onboarding,
 * the profile, changing the password, a new photo, the home page once signed in, the email
 * confirmation page, an empty My routes, and the dashboard a new member lands on: what to do first,
 * their goal, and the reminder to confirm their address.
 */

// The browser runs in Chicago, so onboarding should offer that zone.
test.use({ timezoneId: 'America/Chicago', locale: 'en-US' });
// Each journey signs a new member up first (an argon2 hash and several pages).
test.describe.configure({ timeout: 60_000 });

const PASSWORD = 'Harbour-Lantern-Plum-81';
const NEW_PASSWORD = 'Orchard-Comet-Quiet-27';

/** Signs up through the form as a member in the United States, aged 40, and lands on onboarding. */
async function signUpInUs(page: Page, email: string) {
	await open(page, '/auth/signup');
	await page.getByLabel('First name').fill('Uma');
	await page.getByLabel('Last name').fill('States');
	await page.getByRole('textbox', { name: 'Email' }).fill(email);
	await page.locator('input[name="password"]').fill(PASSWORD);
	await page.getByLabel('Day').selectOption('01');
	await page.getByLabel('Month').selectOption('01');
	await page.getByLabel('Year').selectOption(String(new Date().getFullYear() - 40));
	await page.getByLabel('Gender').selectOption('F');
	await page.getByLabel('Country').selectOption('US');
	await page.getByRole('checkbox', { name: /Terms of Use/ }).check();
	await page.getByRole('button', { name: 'Sign up' }).click();
	await page.waitForURL('**/account/personalization/');
	await expect(page.getByRole('button', { name: 'Continue' })).toBeVisible({ timeout: 15_000 });
}

const uniqueEmail = (name: string, project: string) => `${name}-${project}-${Date.now()}@example.test`;

test('signup shows the password rules before typing and ticks them as they are met', async ({ page }) => {
	await open(page, '/auth/signup');
	const password = page.locator('input[name="password"]');
	const rulesId = (await password.getAttribute('aria-describedby'))?.split(' ')[0];
	const rules = page.locator(`#${rulesId}`);
	await expect(rules.getByText(/At least 8 characters/)).toBeVisible();
	await expect(rules.getByText(/Not a common password/)).toBeVisible();
	await expect(rules.locator('li.password-rules__met')).toHaveCount(0);
	await password.fill('password1');
	await expect(rules.getByText(/At least 8 characters/)).toHaveClass(/password-rules__met/);
	await expect(rules.getByText(/Not a common password/)).not.toHaveClass(/password-rules__met/);
	await password.fill(PASSWORD);
	await expect(rules.locator('li.password-rules__met')).toHaveCount(2);
});

test('a new member in the United States is offered miles and their own time zone, and reads their age band', async ({
	page,
}, testInfo) => {
	await signUpInUs(page, uniqueEmail('us-member', testInfo.project.name));
	await expect(page.getByRole('radio', { name: 'Miles and pounds' })).toBeChecked();
	await expect(page.getByLabel('Time zone', { exact: true })).toHaveValue('America/Chicago');
	await expectNoSeriousA11yIssues(page);
	// The search narrows the list and picks the zone a member types.
	await page.getByLabel('Search time zones').fill('denver');
	await expect(page.getByLabel('Time zone', { exact: true })).toHaveValue('America/Denver');
	await page.getByRole('button', { name: 'Continue' }).click();
	await page.waitForURL((url) => !url.pathname.startsWith('/account/personalization'));

	await open(page, '/account/settings');
	await expect(page.getByLabel('Time zone', { exact: true })).toHaveValue('America/Denver');
	await open(page, '/account/my_profile');
	const age = page.locator('dt', { hasText: 'Age' }).locator('xpath=following-sibling::dd[1]');
	await expect(age).toHaveText(/^\d+ \(35–44\)$/);
	await expect(page.getByText('35to44')).toHaveCount(0);
});

test('a member changes their password, keeps this session and ends the others', async ({
	page,
	browser,
}, testInfo) => {
	const email = uniqueEmail('change-password', testInfo.project.name);
	await signUpInUs(page, email);
	// A second sign-in elsewhere, which the change must end.
	const elsewhere = await browser.newContext();
	const other = await elsewhere.newPage();
	const login = await other.request.post('/api/auth/login', { data: { email, password: PASSWORD } });
	expect(login.status()).toBe(200);

	// The password sits with the account's settings; Contact only points there.
	await open(page, '/account/contact');
	await expect(page.getByRole('region', { name: 'Change your password' })).toHaveCount(0);
	await page.getByRole('link', { name: 'Settings', exact: true }).last().click();
	await page.waitForURL('**/account/settings');
	const form = page.getByRole('region', { name: 'Change your password' });
	await expectNoSeriousA11yIssues(page);
	await form.getByLabel(/^Current password/).fill('not-my-password-at-all');
	await form.getByLabel(/^New password/).fill(NEW_PASSWORD);
	await form.getByLabel(/^Confirm new password/).fill(NEW_PASSWORD);
	await form.getByRole('button', { name: 'Change password' }).click();
	await expect(form.getByText('Your current password is not right.')).toBeVisible();

	await form.getByLabel(/^Current password/).fill(PASSWORD);
	await form.getByLabel(/^Confirm new password/).fill(`${NEW_PASSWORD}x`);
	await form.getByRole('button', { name: 'Change password' }).click();
	await expect(form.getByText('The two new passwords are not the same.')).toBeVisible();

	await form.getByLabel(/^Confirm new password/).fill(NEW_PASSWORD);
	await form.getByRole('button', { name: 'Change password' }).click();
	await expect(form.getByRole('status')).toContainText('your other session was logged out');

	// This browser is still signed in; the other one is not.
	await open(page, '/account/settings');
	await expect(page.getByRole('heading', { name: 'Change your password' })).toBeVisible();
	expect((await other.request.get('/api/auth/refresh-token')).status()).toBe(401);
	await elsewhere.close();
	const again = await page.request.post('/api/auth/login', { data: { email, password: NEW_PASSWORD } });
	expect(again.status()).toBe(200);
});

test('a new photo is confirmed and shows in the header at once', async ({ page }, testInfo) => {
	await signUpInUs(page, uniqueEmail('photo', testInfo.project.name));
	await open(page, '/account/my_profile');
	const header = page.locator('header img[data-avatar]');
	const before = await header.getAttribute('src');
	const png = await sharp({
		create: { width: 64, height: 64, channels: 3, background: { r: 200, g: 40, b: 40 } },
	})
		.png()
		.toBuffer();
	await page.getByLabel(/Change photo/).setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
	await expect(page.getByRole('status').filter({ hasText: 'Your new photo is saved.' })).toBeVisible();
	await expect(header).not.toHaveAttribute('src', before ?? '');
	await expect(header).toHaveAttribute('src', /[?&]v=\d+/);
	// The header now shows the uploaded photo (a JPEG the server made), not the default silhouette.
	const shown = await header.evaluate(async (img: HTMLImageElement) => {
		await img.decode().catch(() => undefined);
		const answer = await fetch(img.src);
		return { width: img.naturalWidth, type: answer.headers.get('content-type') };
	});
	expect(shown.width).toBeGreaterThan(0);
	expect(shown.type).toBe('image/jpeg');
});

test('a signed-in member is not asked to sign up on the home page', async ({ page }, testInfo) => {
	await open(page, '/');
	await expect(page.getByRole('link', { name: 'Sign up free' })).toBeVisible();
	await signUpInUs(page, uniqueEmail('home', testInfo.project.name));
	await open(page, '/');
	await expect(page.getByRole('link', { name: 'Go to my routes' })).toBeVisible();
	await expect(page.getByRole('link', { name: 'Sign up free' })).toBeHidden();
	await page.getByRole('link', { name: 'Go to my routes' }).click();
	await page.waitForURL('**/routes/my_routes/');
	await expect(page.getByRole('heading', { name: 'My routes', level: 1 })).toBeVisible();
});

test('opening /email_verified directly does not claim the address is confirmed', async ({ page }) => {
	const response = await open(page, '/email_verified');
	expect(response?.status()).toBe(200);
	await expect(page.getByRole('heading', { name: 'Confirm your email' })).toBeVisible();
	await expect(page.getByText(/confirmed\./i)).toHaveCount(0);
	await expect(page.getByText(/Check your inbox/)).toBeVisible();
	await expect(page.getByRole('link', { name: /Send a new link/ })).toHaveAttribute(
		'href',
		'/account/contact/',
	);
});

test("a new member's empty My routes explains the page and offers ways forward that work", async ({
	page,
}, testInfo) => {
	await signUpInUs(page, uniqueEmail('empty-routes', testInfo.project.name));
	await open(page, '/routes/my_routes/');
	const empty = page.getByRole('region', { name: 'Your routes will live here' });
	await expect(empty).toBeVisible();
	await expect(page.getByText('No results found')).toHaveCount(0);
	await expectNoSeriousA11yIssues(page);
	const hrefs = await empty
		.getByRole('link')
		.evaluateAll((links) => links.map((link) => link.getAttribute('href')));
	expect(hrefs).toContain('/routes/search/');
	for (const href of hrefs)
		expect((await page.request.get(href as string)).status(), href as string).toBe(200);

	// Importing a GPX file makes the member's first route and opens it.
	await empty
		.getByLabel('Import a route from a GPX file')
		.setInputFiles(path.resolve('tests/fixtures/workouts/gpx/route.gpx'));
	await empty.getByRole('button', { name: 'Import route' }).click();
	await page.waitForURL(/\/routes\/view\/\d+/);
	await open(page, '/routes/my_routes/');
	await expect(page.getByTestId('my-routes').getByRole('listitem')).toHaveCount(1);
	await expect(page.getByRole('heading', { name: 'Your routes will live here' })).toHaveCount(0);
});

/** Leaves onboarding, with whatever it holds, for the dashboard. */
async function continueToDashboard(page: Page) {
	await page.getByRole('button', { name: 'Continue' }).click();
	await page.waitForURL('**/dashboard');
	await page.waitForLoadState('load');
	await expect(page.locator(HYDRATING_ISLANDS)).toHaveCount(0);
}

test("a new member's dashboard says what to do first, and steps aside once they have a workout", async ({
	page,
}, testInfo) => {
	await signUpInUs(page, uniqueEmail('first-steps', testInfo.project.name));
	await continueToDashboard(page);
	const guide = page.getByRole('region', { name: 'Where to start' });
	await expect(guide).toBeVisible();
	await expectNoSeriousA11yIssues(page);
	const steps: [string, string][] = [
		['Upload a file', '/workout/import/'],
		['Log a workout by hand', '/workout/create/'],
		['Connect a device', '/account/connected_apps#devices-title'],
		['Plan a route', '/routes/create/'],
	];
	for (const [name, href] of steps) {
		await expect(guide.getByRole('link', { name })).toHaveAttribute('href', href);
		const answer = await page.request.get(href, { maxRedirects: 0 });
		expect(answer.status(), href).toBe(200);
	}
	await guide.getByRole('link', { name: 'Connect a device' }).click();
	await page.waitForURL('**/account/connected_apps#devices-title');
	await expect(page.getByRole('heading', { name: 'Devices' })).toBeVisible();

	// The first workout, logged through the API as any app would: the guide has done its job.
	const { access_token } = await (await page.request.get('/api/auth/refresh-token')).json();
	const made = await page.request.post('/api/v7.1/workout/', {
		headers: { authorization: `Bearer ${access_token}` },
		data: {
			name: 'First run',
			start_datetime: new Date(Date.now() - 3_600_000).toISOString().replace(/\.\d{3}Z$/, '+00:00'),
			activity_type: 16,
			privacy: 1,
			aggregates: { distance_total: 3000, active_time_total: 1100 },
		},
	});
	expect(made.status()).toBe(201);
	await open(page, '/dashboard');
	await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
	await expect(page.getByRole('region', { name: 'Where to start' })).toHaveCount(0);
});

test('the dashboard shows the goal a new member typed while signing up', async ({ page }, testInfo) => {
	await signUpInUs(page, uniqueEmail('goal', testInfo.project.name));
	await page.getByLabel('What is your goal?').fill('Run my first half marathon <in May>');
	await continueToDashboard(page);
	const goal = page.getByRole('region', { name: 'Your goal' });
	await expect(goal).toContainText('Run my first half marathon <in May>');
	await expect(goal.getByRole('link', { name: /Change/ })).toHaveAttribute('href', '/account/my_profile');
});

test('the dashboard asks a new member to confirm their email, sends the link again, and stops asking once confirmed', async ({
	page,
}, testInfo) => {
	const email = uniqueEmail('confirm-notice', testInfo.project.name);
	const subject = 'Confirm your email address';
	await signUpInUs(page, email);
	await mailedLink(email, subject);
	await continueToDashboard(page);
	const notice = page.getByRole('region', { name: 'Confirm your email address' });
	await expect(notice).toContainText(email);
	await expectNoSeriousA11yIssues(page);
	await notice.getByRole('button', { name: 'Send a new confirmation link' }).click();
	await expect(notice.getByRole('status')).toContainText(`We sent a new link to ${email}`);
	await open(page, '/workout/stats/');
	await expect(page.getByRole('region', { name: 'Confirm your email address' })).toBeVisible();

	await open(page, await mailedLink(email, subject, 1));
	await expect(page.getByText('your email address is confirmed')).toBeVisible();
	for (const path of ['/dashboard', '/workout/stats/']) {
		await open(page, path);
		await expect(page.locator('h1')).toBeVisible();
		await expect(page.getByRole('region', { name: 'Confirm your email address' })).toHaveCount(0);
	}
});

test('the time-zone search finds a city by its name and offers its zone', async ({ page }, testInfo) => {
	await signUpInUs(page, uniqueEmail('zone-city', testInfo.project.name));
	const zone = page.getByLabel('Time zone', { exact: true });
	await expect(zone).toHaveValue('America/Chicago');
	await page.getByLabel('Search time zones').fill('Harrisburg');
	await expect(zone).toHaveValue('America/New_York');
	await expect(
		zone.getByRole('option', { name: 'Harrisburg, Pennsylvania, US — America/New_York' }),
	).toHaveCount(1);
	// Zone names still match as before.
	await page.getByLabel('Search time zones').fill('denver');
	await expect(zone).toHaveValue('America/Denver');
	await page.getByLabel('Search time zones').fill('Seattle');
	await expect(zone).toHaveValue('America/Los_Angeles');
	await page.getByRole('button', { name: 'Continue' }).click();
	await page.waitForURL((url) => !url.pathname.startsWith('/account/personalization'));
	await open(page, '/account/settings');
	await expect(page.getByLabel('Time zone', { exact: true })).toHaveValue('America/Los_Angeles');
});
