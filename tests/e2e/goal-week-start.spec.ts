import { expect, type Page, test } from './fixtures';
import { expectNoSeriousA11yIssues, forbidExternalRequests, registerMember } from './helpers';

/**
 * A new member sets a weekly goal, then moves the start of their week from Monday to Sunday on the
 * goals page: the goal's current week, the goals page's wording and the dashboard calendar's
 * columns all follow.
 */

/** The first and last day of "This week: Nov 23, 2026 – Nov 29, 2026" as UTC calendar days. */
async function shownWeek(page: Page): Promise<{ first: Date; last: Date }> {
	const text = (await page.getByTestId('goal-week').textContent()) ?? '';
	const match = /This week: (\w{3} \d{2}, \d{4}) – (\w{3} \d{2}, \d{4})/.exec(text);
	expect(match, `week span in "${text}"`).not.toBeNull();
	const day = (value: string) => new Date(`${value} 00:00 UTC`);
	return { first: day(match?.[1] ?? ''), last: day(match?.[2] ?? '') };
}

test('a member changes the day their weeks start on and sees the goal week move', async ({
	page,
	baseURL,
}, testInfo) => {
	test.setTimeout(90_000);
	await forbidExternalRequests(page, baseURL as string);
	const origin = { origin: new URL(baseURL as string).origin };
	const { user } = await registerMember(page.request, baseURL as string, {
		first_name: 'Wendy',
		last_name: 'Weeks',
		email: `wendy.${testInfo.project.name}.${Date.now()}@mapstride.example`,
		password: 'Sunday-First-Trail-2026',
		location: { country: 'US', region: 'NY', locality: 'Albany' },
	});
	// Today in the member's zone, as a UTC calendar day, to check the week shown holds it.
	const todayKey = new Intl.DateTimeFormat('en-CA', { timeZone: user.time_zone }).format(new Date());
	const today = new Date(`${todayKey}T00:00:00Z`);

	// A goal, set through the plain form; the start day is offered there too, Monday by default.
	await page.goto('/goals/create/');
	await expect(page.getByLabel('My weeks start on')).toHaveValue('1');
	await page.getByLabel('Activity').selectOption('run');
	await page.getByLabel('Goal for').selectOption('count');
	await page.getByLabel('Target each week').fill('3');
	await page.getByRole('button', { name: 'Save goal' }).click();
	await expect(page).toHaveURL(new RegExp(`/profile/${user.id}/goals/$`));
	await expect(page.getByTestId('goals-week-run')).toContainText('Weeks run Monday to Sunday');
	const monday = await shownWeek(page);
	expect(monday.first.getUTCDay()).toBe(1);
	expect(monday.last.getUTCDay()).toBe(0);
	expect(monday.first <= today && today <= monday.last).toBe(true);

	// Weeks from Sunday: the same goal's week now runs Sunday to Saturday around today.
	await page.getByTestId('week-start-day').selectOption('0');
	await page.getByTestId('week-start-save').click();
	await expect(page.getByTestId('goals-week-run')).toContainText('Weeks run Sunday to Saturday');
	await expect(page.getByTestId('week-start-day')).toHaveValue('0');
	const sunday = await shownWeek(page);
	expect(sunday.first.getUTCDay()).toBe(0);
	expect(sunday.last.getUTCDay()).toBe(6);
	expect(sunday.first <= today && today <= sunday.last).toBe(true);
	expect(sunday.first.getTime()).not.toBe(monday.first.getTime());
	const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
	expect(overflow).toBeLessThanOrEqual(0);
	await expectNoSeriousA11yIssues(page);

	// The dashboard calendar's week rows start on Sunday too, and the goal form remembers the day.
	await page.goto('/dashboard/');
	await expect(page.getByTestId('calendar-grid').locator('thead th').first()).toHaveText('Sun');
	await page.goto('/workouts/dashboard/lifetime/');
	await expect(page.getByTestId('heatmap').locator('tbody th').first()).toContainText('Sunday');
	await page.goto('/goals/create/');
	await expect(page.getByLabel('My weeks start on')).toHaveValue('0');

	// The same setting lives in the display settings, where it can be moved back to Monday.
	await page.goto('/account/display_settings');
	await expect(page.getByLabel('Weeks start on')).toHaveValue('0');
	await page.getByLabel('Weeks start on').selectOption('1');
	await page.getByRole('button', { name: 'Save display settings' }).click();
	await expect(page.getByRole('status').filter({ hasText: /saved/i })).toBeVisible();
	await page.goto(`/profile/${user.id}/goals/`);
	await expect(page.getByTestId('goals-week-run')).toContainText('Weeks run Monday to Sunday');
	expect((await shownWeek(page)).first.getTime()).toBe(monday.first.getTime());

	// A value no form offers is refused with the reason, and nothing changes.
	const bad = await page.request.post(`/profile/${user.id}/goals/`, {
		form: { action: 'week_start', week_start_day: '9' },
		headers: origin,
	});
	expect(bad.status()).toBe(400);
	expect(await bad.text()).toContain('Choose the day your weeks start on.');
});
