import { expect, test } from './fixtures';
import { drawnFill, expectNoSeriousA11yIssues, forbidExternalRequests } from './helpers';

/**
 * A new member joins this month's running challenge, logs a run that counts, sees their progress,
 * an award and their rank, opens the full leaderboard and the app's twin of the page, and leaves.
 */
test('a member joins a challenge, logs a run that counts, climbs the board and leaves', async ({
	page,
	baseURL,
}, testInfo) => {
	test.setTimeout(90_000);
	await forbidExternalRequests(page, baseURL as string);
	const email = `challenger-${testInfo.project.name}-${Date.now()}@example.test`;
	const password = 'Summit-Lantern-Brook-91';
	const signup = await page.request.post('/api/auth/signup', {
		data: {
			first_name: 'Cleo',
			last_name: `Challenger ${testInfo.project.name}`,
			email,
			password,
			birthdate: '1990-02-02',
			gender: 'F',
			location: { country: 'US' },
		},
	});
	expect(signup.status()).toBe(201);
	const login = await page.request.post('/api/auth/login', { data: { email, password } });
	expect(login.ok()).toBe(true);

	await page.goto('/challenges/?sport=run');
	const joinable = page.getByTestId('challenges-joinable');
	await expect(joinable.getByRole('link', { name: /Running Challenge/ })).toBeVisible();
	await expectNoSeriousA11yIssues(page);
	await joinable.getByRole('link', { name: /Running Challenge/ }).click();
	await expect(page.getByTestId('challenge-name')).toHaveText(/Running Challenge/);
	const challengePath = new URL(page.url()).pathname;

	await page.getByTestId('show-name').check();
	await page.getByTestId('join-challenge').click();
	await expect(page.getByTestId('challenge-flash')).toHaveText('You joined this challenge.');
	await expect(page.getByTestId('my-progress')).toHaveText('0 km');
	expect(await drawnFill(page.getByTestId('challenge-bar'))).toBeLessThan(0.05);
	await expectNoSeriousA11yIssues(page);

	// A long run logged by hand counts: more than a quarter of the 100 km goal earns the first award.
	await page.goto('/workout/create/');
	const form = page.getByTestId('workout-log');
	await form.getByLabel('Activity type').selectOption({ label: 'Run' });
	await form.getByLabel('Hours').fill('3');
	await form.getByLabel('Minutes').fill('10');
	await form.getByLabel(/^Distance/).fill('27');
	await form.getByLabel('Name').fill('Long run for the challenge');
	await page.getByRole('button', { name: 'Save workout' }).click();
	await page.waitForURL(/\/workout\/\d+$/);

	await page.goto(challengePath);
	await expect(page.getByTestId('my-progress')).not.toHaveText('0 km');
	await expect(page.getByTestId('my-progress')).toHaveText(/^\d+(\.\d)? km$/);
	// The bar shows the share of the 100 km the page states, not a full bar.
	const kilometres = Number.parseFloat((await page.getByTestId('my-progress').textContent()) ?? '');
	expect(await drawnFill(page.getByTestId('challenge-bar'))).toBeCloseTo(kilometres / 100, 1);
	await expect(page.getByTestId('my-rank')).toHaveText(/^#\d+$/);
	await expect(page.getByTestId('my-awards').locator('[data-earned="true"]').first()).toContainText('25%');
	await expect(page.getByTestId('board-me')).toContainText('Cleo');

	// Hiding the name saves at once, and the page drawn again remembers it.
	await page.getByTestId('name-choice').uncheck();
	await expect(page.getByTestId('name-choice-status')).toHaveText('Saved.');
	await page.reload();
	await expect(page.getByTestId('name-choice')).not.toBeChecked();

	await page.getByTestId('full-leaderboard').click();
	await expect(page.getByRole('heading', { name: 'Leaderboard' })).toBeVisible();
	await expect(page.getByTestId('board-me')).toContainText('(you)');
	await expect(page.getByTestId('board-page')).toHaveText(/^Page 1 of \d+$/);
	await expectNoSeriousA11yIssues(page);
	await page.getByTestId('friends-view').click();
	await expect(page.getByTestId('board-me')).toContainText('#1');

	// The app's webview twin: the same challenge without the site's header and footer.
	await page.goto(`/mobile${challengePath}`);
	await expect(page.getByTestId('challenge-name')).toHaveText(/Running Challenge/);
	await expect(page.getByRole('banner')).toHaveCount(0);
	await expect(page.getByRole('contentinfo')).toHaveCount(0);
	await expect(page.getByTestId('my-progress')).not.toHaveText('0 km');
	expect(await drawnFill(page.getByTestId('challenge-bar'))).toBeCloseTo(kilometres / 100, 1);

	// The year's own page draws the member's 2025 against the 1,000 km goal.
	await page.goto('/challenges/yvty2025');
	await expect(page.getByTestId('yvty-chart')).toBeVisible();
	await expect(page.getByTestId('yvty-total')).toContainText('of 1,000 km in 2025');

	await page.goto(challengePath);
	await page.getByTestId('leave-challenge').click();
	await expect(page.getByTestId('challenge-flash')).toHaveText('You left this challenge.');
	await expect(page.getByTestId('join-challenge')).toBeVisible();
});

test("the header's You VS The Year opens this year's challenge", async ({ page }) => {
	const year = new Date().getUTCFullYear();
	// From a pre-rendered page and an on-demand one alike.
	for (const from of ['/', '/challenges/']) {
		await page.goto(from);
		const link = page.getByRole('banner').getByRole('link', { name: 'You VS The Year', includeHidden: true });
		await page.goto((await link.first().getAttribute('href')) as string);
		await expect(page).toHaveURL(new RegExp(`/challenges/yvty${year}$`));
		await expect(page.getByTestId('challenge-name')).toHaveText(`You VS The Year ${year}`);
		await expect(page.getByRole('heading', { name: `Your ${year}, day by day` })).toBeVisible();
	}
});

test('You VS The Year 2025 shows the year and asks visitors to log in', async ({ page }) => {
	await page.goto('/challenges/yvty2025');
	await expect(page.getByTestId('challenge-name')).toHaveText('You VS The Year 2025');
	await expect(page.getByTestId('challenge-target')).toHaveText('1,000 km');
	await expect(page.locator('#main').getByRole('link', { name: 'Log in', exact: true })).toHaveAttribute(
		'href',
		'/auth/login?next=%2Fchallenges%2Fyvty2025',
	);
	await page.getByRole('link', { name: 'Full leaderboard' }).click();
	await expect(page.getByRole('heading', { name: 'Leaderboard' })).toBeVisible();
});
