import { DEMO_LOGIN } from '../../src/lib/db/seed';
import { GROUP_COLOURS } from '../../src/lib/stats/groups';
import { expect, type Page, test } from './fixtures';
import { drawnFill, expectNoSeriousA11yIssues, forbidExternalRequests, logIn } from './helpers';

/**
 * The demo member comes back to see what they did: the dashboard calendar and its list, stats
 * filtered to runs by ISO week and by rolling week, lifetime totals and the heatmap, then a weekly
 * goal that a logged workout completes, and another goal stopped.
 */

async function logInThrough(page: Page, path: string) {
	await page.goto(path);
	await expect(page).toHaveURL(/\/auth\/login\?next=/);
	await page.getByRole('textbox', { name: 'Email' }).fill(DEMO_LOGIN.email);
	await page.locator('input[name="password"]').fill(DEMO_LOGIN.password);
	await page.getByRole('button', { name: 'Log in' }).click();
	await page.waitForURL(`**${path}`);
}

async function expectNoSidewaysScroll(page: Page) {
	const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
	expect(overflow).toBeLessThanOrEqual(0);
}

/** `#d9480f` as the browser reports a computed colour. */
const hexToRgb = (hex: string) =>
	`rgb(${[1, 3, 5].map((start) => Number.parseInt(hex.slice(start, start + 2), 16)).join(', ')})`;

test('the demo member reads the calendar, filters stats, sees lifetime totals and keeps weekly goals', async ({
	page,
	baseURL,
	request,
}, testInfo) => {
	test.setTimeout(120_000);
	await forbidExternalRequests(page, baseURL as string);
	const token = await logIn(request, baseURL as string, DEMO_LOGIN);
	const self = await (
		await request.get('/api/v7.1/user/self/', { headers: { authorization: `Bearer ${token}` } })
	).json();
	// Each layout keeps to its own activity, so the two projects running side by side do not meet.
	const small = testInfo.project.name === 'mobile-375';
	const goalGroup = small ? { value: 'golf', label: 'Golf' } : { value: 'swim', label: 'Swim' };
	const goalActivity = small ? 145 : 15;
	const runName = `Calendar run ${testInfo.project.name} ${Date.now()}`;
	const logWorkout = async (name: string, activity: number) => {
		const answer = await request.post('/api/v7.1/workout/', {
			headers: { authorization: `Bearer ${token}`, origin: new URL(baseURL as string).origin },
			data: {
				name,
				start_datetime: new Date(Date.now() - 60_000).toISOString(),
				start_locale_timezone: 'UTC',
				activity_type: activity,
				aggregates: { distance_total: 5000, active_time_total: 1500, elapsed_time_total: 1500 },
			},
		});
		expect(answer.status()).toBe(201);
	};
	await logWorkout(runName, 16);

	// The calendar, rendered by the server, with today's run on it; then the same month as a list.
	const policyRefusals: string[] = [];
	page.on('console', (message) => {
		if (message.type() === 'error' && message.text().includes('Content Security Policy'))
			policyRefusals.push(message.text().slice(0, 120));
	});
	await logInThrough(page, '/dashboard/');
	await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
	const grid = page.getByTestId('calendar-grid');
	await expect(grid).toBeVisible();
	await expect(grid.locator('td[aria-current="date"]')).toHaveCount(1);
	await expect(grid.getByRole('link', { name: new RegExp(runName) })).toBeVisible();
	// The run is marked in the run's colour, which the page's style policy lets through.
	await expect(grid.getByRole('link', { name: new RegExp(runName) })).toHaveCSS(
		'border-left-color',
		hexToRgb(GROUP_COLOURS.run),
	);
	expect(policyRefusals).toEqual([]);
	await expect(
		page
			.getByTestId('calendar-week-total')
			.filter({ hasText: /workout/ })
			.first(),
	).toBeVisible();
	await expectNoSidewaysScroll(page);
	await page.getByTestId('view-list').click();
	await expect(page.getByTestId('calendar-list')).toBeVisible();
	await expect(page).toHaveURL(/view=list/);
	await expect(
		page.getByTestId('calendar-list').getByRole('link', { name: new RegExp(runName) }),
	).toBeVisible();
	const month = await page.getByTestId('calendar-month').textContent();
	await page.getByTestId('calendar-previous').click();
	await expect(page.getByTestId('calendar-month')).not.toHaveText(month ?? '');
	await expect(page.getByTestId('calendar-list')).toBeVisible();
	await expectNoSeriousA11yIssues(page);

	// Stats: runs only, by ISO week and by rolling week, with charts that come with tables.
	await page.goto('/workout/stats/');
	await expect(page.getByRole('link', { name: 'Stats', exact: true })).toHaveAttribute(
		'aria-current',
		'page',
	);
	await page.getByRole('checkbox', { name: 'Run' }).check();
	await expect(page.getByTestId('stats-showing')).toContainText('Showing Run,');
	await expect(page.getByRole('checkbox', { name: 'All' })).not.toBeChecked();
	await page.getByRole('radio', { name: 'ISO week' }).check();
	await expect(page.getByTestId('stats-showing')).toContainText('iso weeks');
	await expect(page).toHaveURL(/week_type=isoWeek/);
	await expect(page).toHaveURL(/activity_groups=run/);
	await page.getByRole('radio', { name: 'Last 7 days' }).check();
	await expect(page.getByTestId('stats-showing')).toContainText('last 7 days');
	await expect(page.getByTestId('stats-week-count')).not.toHaveText('0');
	// Charts draw as they come into view, as a member scrolls to them.
	await page.getByTestId('chart-weeks').scrollIntoViewIfNeeded();
	await expect(page.getByTestId('chart-weeks')).toHaveAttribute('data-ready', '');
	await page.getByText(/Show per month in \d{4} as a table/).click();
	await expect(page.getByTestId('table-months')).toBeVisible();
	await expect(page.getByTestId('chart-months-summary')).toContainText('the most was');
	// One bar per month for all chosen activities, and only the months with workouts on the axis.
	await page.getByRole('radio', { name: 'All together' }).check();
	await page.getByRole('radio', { name: 'Active periods only' }).check();
	await expect(page).toHaveURL(/split_type=1/);
	await expect(page).toHaveURL(/time_series_x_axis_type=active/);
	const monthRows = page.getByTestId('table-months').locator('tbody tr');
	await expect(page.getByTestId('table-months').locator('thead th')).toHaveCount(5);
	await expect(monthRows.first()).toBeVisible();
	for (const count of await monthRows.locator('td:first-of-type').allTextContents())
		expect(Number(count)).toBeGreaterThan(0);
	await page.getByRole('radio', { name: 'Every period' }).check();
	await expect(monthRows).toHaveCount(12);
	// Choosing All again clears the single activity.
	await page.getByRole('checkbox', { name: 'All' }).check();
	await expect(page.getByRole('checkbox', { name: 'Run' })).not.toBeChecked();
	await expectNoSidewaysScroll(page);
	await expectNoSeriousA11yIssues(page);

	// Lifetime totals, the longest workouts and this year's heatmap.
	await page.getByRole('link', { name: 'Lifetime', exact: true }).click();
	await expect(page).toHaveURL(/\/workouts\/dashboard\/lifetime\//);
	await expect(page.getByTestId('lifetime-summary')).toContainText('Since');
	await expect(page.getByTestId('lifetime-groups')).toContainText('Run');
	await expect(page.getByTestId('heatmap')).toBeVisible();
	await expect(page.getByTestId('heatmap-summary')).toContainText('active day');
	await expectNoSidewaysScroll(page);
	await expectNoSeriousA11yIssues(page);

	// A weekly goal, completed by a workout logged afterwards.
	await page.getByRole('link', { name: 'Goals', exact: true }).first().click();
	await expect(page).toHaveURL(new RegExp(`/profile/${self.id}/goals/`));
	await page.getByTestId('goal-create-link').click();
	await page.getByLabel('Activity').selectOption(goalGroup.value);
	await page.getByLabel('Goal for').selectOption('count');
	await page.getByLabel('Target each week').fill('1');
	await page.getByRole('button', { name: 'Save goal' }).click();
	await expect(page).toHaveURL(new RegExp(`/profile/${self.id}/goals/$`));
	const goal = page
		.getByTestId('goal')
		.filter({ hasText: `${goalGroup.label}: 1 workout a week` })
		.first();
	await expect(goal.getByTestId('goal-progress')).toContainText('0 workouts of 1 workout this week');
	// Drawn as said: an empty bar before the week's workout, a full one after.
	await expect(goal.getByRole('progressbar')).toHaveJSProperty('value', 0);
	expect(await drawnFill(goal.getByRole('progressbar'))).toBeLessThan(0.05);
	await logWorkout(`${goalGroup.label} for the goal`, goalActivity);
	await page.reload();
	await expect(goal.getByTestId('goal-progress')).toContainText('done');
	await expect(goal.getByRole('progressbar')).toHaveJSProperty('value', 100);
	expect(await drawnFill(goal.getByRole('progressbar'))).toBeGreaterThan(0.95);

	// Another goal, stopped: it moves to the stopped goals.
	await page.getByTestId('goal-create-link').click();
	await page.getByLabel('Activity').selectOption(goalGroup.value);
	await page.getByLabel('Goal for').selectOption('duration');
	await page.getByLabel('Target each week').fill('0');
	await page.getByRole('button', { name: 'Save goal' }).click();
	await expect(page.getByTestId('goal-errors')).toContainText('Enter a target above 0');
	await page.getByLabel('Target each week').fill('2.5');
	await page.getByRole('button', { name: 'Save goal' }).click();
	const second = page
		.getByTestId('goal')
		.filter({ hasText: `${goalGroup.label}: 2 h 30 min a week` })
		.first();
	await expect(second).toBeVisible();
	await second.getByTestId('goal-stop').click();
	await expect(
		page
			.getByTestId('goal-stopped')
			.filter({ hasText: `${goalGroup.label}: 2 h 30 min a week` })
			.first(),
	).toBeVisible();
	await expectNoSidewaysScroll(page);
	await expectNoSeriousA11yIssues(page);
});

test('the app web view shows the same stats without the site chrome', async ({ page, baseURL }) => {
	await forbidExternalRequests(page, baseURL as string);
	await logInThrough(page, '/mobile/workout/stats/');
	await expect(page.getByRole('heading', { name: 'Workout Stats', level: 1 })).toBeVisible();
	await expect(page.locator('header nav')).toHaveCount(0);
	await page.getByRole('radio', { name: 'ISO week' }).check();
	await expect(page).toHaveURL(/\/mobile\/workout\/stats\/\?.*week_type=isoWeek/);
	await expectNoSidewaysScroll(page);
});
