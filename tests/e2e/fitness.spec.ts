import { DEMO_LOGIN } from '../../src/lib/db/seed';
import { expect, type Page, test } from './fixtures';
import { expectNoSeriousA11yIssues, forbidExternalRequests, logIn, registerMember } from './helpers';

/**
 * Fitness and form on the stats page: the demo member's twelve weeks of recorded heart rate drawn as
 * fitness, fatigue and form; and a member without a heart-rate strap who says how hard a workout felt,
 * on the log form and later on the edit form, and sees it counted.
 */

/** The figures the chart's sentence gives for today, to compare with the table under it. */
async function todayFigures(page: Page) {
	const text = (await page.getByTestId('fitness-summary').textContent()) ?? '';
	const match = /fitness (\d[\d,]*), fatigue (\d[\d,]*), form ([+-−]?\d[\d,]*)/.exec(text);
	expect(match, text).not.toBeNull();
	const number = (value: string) => Number(value.replace(/,/g, '').replace('−', '-'));
	return {
		fitness: number(match?.[1] ?? ''),
		fatigue: number(match?.[2] ?? ''),
		form: number(match?.[3] ?? ''),
	};
}

test('the demo member’s fitness, fatigue and form are drawn from their recorded heart rate', async ({
	page,
	baseURL,
}) => {
	await forbidExternalRequests(page, baseURL as string);
	const token = await logIn(page.request, baseURL as string, DEMO_LOGIN);
	expect(token).toBeTruthy();
	await page.goto('/workout/stats/', { waitUntil: 'commit' });
	const chart = page.getByTestId('fitness-chart');
	await chart.scrollIntoViewIfNeeded();
	await expect(chart).toHaveAttribute('data-ready', '');
	// Three lines drawn on a canvas of the chart's width.
	await expect(chart.locator('canvas')).toHaveCount(1);
	await expect(page.getByTestId('fitness-counted')).toContainText(/Counted [1-9]\d* from heart rate/);
	const today = await todayFigures(page);
	expect(today.fitness).toBeGreaterThan(0);
	// Form is fitness minus fatigue, each rounded for the sentence.
	expect(Math.abs(today.form - (today.fitness - today.fatigue))).toBeLessThanOrEqual(1);
	// The table says what the chart draws: its last row is today's figures.
	await chart.getByText('Show fitness and form as a table').click();
	const last = page.getByTestId('table-fitness').locator('tbody tr').last();
	await expect(last.locator('td').nth(1)).toHaveText(today.fitness.toLocaleString('en-US'));
	await expect(page.getByTestId('table-fitness').locator('tbody tr')).toHaveCount(12);
	await chart.getByText('What these lines mean').click();
	await expect(chart).toContainText('Form is fitness minus fatigue');
	await expectNoSeriousA11yIssues(page);
});

test('a member without heart rate says how hard a workout felt, and it counts', async ({
	page,
	baseURL,
}, testInfo) => {
	test.setTimeout(90_000);
	await forbidExternalRequests(page, baseURL as string);
	await registerMember(page.request, baseURL as string, {
		first_name: 'Fran',
		last_name: 'Felt',
		email: `felt-${testInfo.project.name}-${Date.now()}@mapstride.example`,
		password: 'Felt-Hard-Tempo-2026',
	});
	await page.goto('/workout/stats/', { waitUntil: 'commit' });
	await expect(page.getByTestId('fitness-summary')).toContainText(
		'No training load in the last twelve weeks yet',
	);

	// Logged by hand: a 40-minute run that felt very hard.
	await page.goto('/workout/create/', { waitUntil: 'commit' });
	const form = page.getByTestId('workout-log');
	await form.getByLabel('Activity type').selectOption({ label: 'Run' });
	await form.getByLabel('Minutes').fill('40');
	await form.getByLabel('How hard it felt').selectOption({ label: '7 · Very hard' });
	await page.getByRole('button', { name: 'Save workout' }).click();
	await page.waitForURL(/\/workout\/\d+$/);
	const id = new URL(page.url()).pathname.split('/').at(-1);
	await expect(page.getByTestId('workout-effort')).toHaveText(
		/How hard it felt: 7 of 10, very hard\s*\(only you see this\)/,
	);

	// Today's load is 40 minutes counted as zone 4: 160.
	await page.goto('/workout/stats/', { waitUntil: 'commit' });
	await expect(page.getByTestId('fitness-counted')).toContainText(
		'Counted 0 from heart rate and 1 from how hard they felt',
	);
	const chart = page.getByTestId('fitness-chart');
	await chart.scrollIntoViewIfNeeded();
	await chart.getByText('Show fitness and form as a table').click();
	await expect(page.getByTestId('table-fitness').locator('tbody tr').last().locator('td').first()).toHaveText(
		'160',
	);
	const before = await todayFigures(page);
	expect(before.fatigue).toBeGreaterThan(before.fitness);
	expect(before.form).toBeLessThan(0);

	// Changed on the edit form to an easy effort: the workout page and the load follow.
	await page.goto(`/workout/edit/${id}`, { waitUntil: 'commit' });
	const effort = page.getByLabel('How hard it felt');
	await expect(effort).toHaveValue('7');
	await effort.selectOption('2');
	await page.getByTestId('save-workout').click();
	await page.waitForURL(new RegExp(`/workout/${id}(\\?.*)?$`));
	await expect(page.getByTestId('workout-effort')).toContainText('2 of 10, easy');
	await page.goto('/workout/stats/', { waitUntil: 'commit' });
	await page.getByTestId('fitness-chart').getByText('Show fitness and form as a table').click();
	await expect(page.getByTestId('table-fitness').locator('tbody tr').last().locator('td').first()).toHaveText(
		'40',
	);
});

test('the fitness chart fits a 375 px screen @small-screen-layout', async ({ page, baseURL }) => {
	await page.setViewportSize({ width: 375, height: 800 });
	await logIn(page.request, baseURL as string, DEMO_LOGIN);
	await page.goto('/workout/stats/', { waitUntil: 'commit' });
	const chart = page.getByTestId('fitness-chart');
	await chart.scrollIntoViewIfNeeded();
	await expect(chart).toHaveAttribute('data-ready', '');
	const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
	expect(overflow).toBeLessThanOrEqual(0);
	// Reached and opened from the keyboard.
	const about = chart.getByText('What these lines mean');
	await about.focus();
	await page.keyboard.press('Enter');
	await expect(chart).toContainText('Fitness is your load averaged over about six weeks');
});
