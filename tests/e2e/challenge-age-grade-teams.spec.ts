import { expect, test } from './fixtures';
import { expectNoSeriousA11yIssues, forbidExternalRequests } from './helpers';

/**
 * A 60-year-old member joins this month's running challenge, logs a run and finds it graded on the
 * age-graded board; then joins a team in the club relay and sees the team standings.
 */
test('a member sees their run age graded and their team in the relay standings', async ({
	page,
	baseURL,
}, testInfo) => {
	test.setTimeout(90_000);
	await forbidExternalRequests(page, baseURL as string);
	const email = `graded-${testInfo.project.name}-${Date.now()}@example.test`;
	const password = 'Harrier-Lantern-Brook-62';
	const signup = await page.request.post('/api/auth/signup', {
		data: {
			first_name: 'Gus',
			last_name: `Graded ${testInfo.project.name}`,
			email,
			password,
			birthdate: '1966-03-02',
			gender: 'M',
			location: { country: 'FR' },
		},
	});
	expect(signup.status()).toBe(201);
	expect((await page.request.post('/api/auth/login', { data: { email, password } })).ok()).toBe(true);
	const month = new Date().toISOString().slice(0, 7);

	await page.goto(`/challenges/run-${month}`);
	await page.getByTestId('show-name').check();
	await page.getByTestId('join-challenge').click();
	await expect(page.getByTestId('challenge-flash')).toHaveText('You joined this challenge.');

	await page.goto('/workout/create/');
	const form = page.getByTestId('workout-log');
	await form.getByLabel('Activity type').selectOption({ label: 'Run' });
	await form.getByLabel('Hours').fill('0');
	await form.getByLabel('Minutes').fill('25');
	await form.getByLabel(/^Distance/).fill('5');
	await form.getByLabel('Name').fill('Parkrun');
	await page.getByRole('button', { name: 'Save workout' }).click();
	await page.waitForURL(/\/workout\/\d+$/);

	await page.goto(`/challenges/run-${month}`);
	await expect(page.getByTestId('my-age-grade')).toHaveText(/^\d+\.\d %$/);
	await page.getByTestId('age-graded-link').click();
	await expect(page.getByTestId('age-grade-note')).toContainText('Alan Jones’ 2020');
	await expect(page.getByTestId('age-graded-view')).toHaveAttribute('aria-current', 'page');
	const mine = page.getByTestId('board-me').or(page.getByTestId('board-pinned'));
	await expect(mine).toContainText('Gus');
	await expect(mine).toContainText(/\d+\.\d % · \d+:\d\d age graded \(5 km in 25:00\)/);
	await expectNoSeriousA11yIssues(page);

	await page.goto(`/challenges/relay-${month}`);
	await expect(page.getByTestId('team-standings')).toContainText('Harriers');
	await page.getByTestId('team-choice').selectOption({ label: 'Striders' });
	await page.getByTestId('join-challenge').click();
	await expect(page.getByTestId('challenge-flash')).toHaveText('You joined this challenge.');
	await expect(page.getByTestId('my-team')).toHaveText('Striders');
	const standings = page.getByTestId('team-standings');
	await expect(standings.locator('li', { hasText: 'Striders (your team)' })).toContainText(
		/Striders \(your team\)\s*·\s*\d+ members?/,
	);
	await expect(standings.locator('li', { hasText: 'Striders (your team)' })).toContainText(/\d+(\.\d)? km/);
	await expectNoSeriousA11yIssues(page);

	await page.getByRole('link', { name: 'Team standings' }).click();
	await expect(page.getByTestId('teams-view')).toHaveAttribute('aria-current', 'page');
	await expect(page.getByTestId('team-standings').locator('li')).toHaveCount(3);
	await expect(page.getByTestId('team-standings')).toContainText('Striders (your team)');

	// A member may move to another team while the challenge runs; their distance moves with them.
	await page.goto(`/challenges/relay-${month}`);
	await page.getByTestId('switch-team-choice').selectOption({ label: 'Harriers' });
	await page.getByRole('button', { name: 'Switch team' }).click();
	await expect(page.getByTestId('challenge-flash')).toHaveText('You switched teams.');
	await expect(page.getByTestId('my-team')).toHaveText('Harriers');
	await expect(standings.locator('li', { hasText: 'Harriers (your team)' })).toContainText(/\d+(\.\d)? km/);
	await expect(standings.locator('li', { hasText: 'Striders (your team)' })).toHaveCount(0);
});
