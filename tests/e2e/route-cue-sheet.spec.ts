import { DEMO_LOGIN } from '../../src/lib/db/seed';
import { expect, test } from './fixtures';
import { forbidExternalRequests, HYDRATING_ISLANDS } from './helpers';

/**
 * A route of five points over Andorra's streets, each gap routed on its own, saved: its cue sheet arrives once,
 * at the end, and says at each point between how the route goes on from there.
 */

const BLANK_TILE = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
	'base64',
);

test('a saved route of five points arrives only at its last point', async ({ page, baseURL }) => {
	test.setTimeout(90_000);
	await forbidExternalRequests(page, baseURL as string);
	await page.route('**/tiles/**', (route) => route.fulfill({ contentType: 'image/png', body: BLANK_TILE }));
	await page.goto('/auth/login?next=%2Froutes%2Fcreate%2F');
	await expect(page.locator(HYDRATING_ISLANDS)).toHaveCount(0);
	await page.getByRole('textbox', { name: 'Email' }).fill(DEMO_LOGIN.email);
	await page.locator('input[name="password"]').fill(DEMO_LOGIN.password);
	await page.getByRole('button', { name: 'Log in' }).click();
	await page.waitForURL('**/routes/create/');

	const points = [
		'42.5078, 1.5211',
		'42.5103, 1.5369',
		'42.5150, 1.5400',
		'42.5190, 1.5430',
		'42.5230, 1.5480',
	];
	for (const point of points) {
		await page.getByLabel('Add a point', { exact: true }).fill(point);
		await page.getByRole('button', { name: 'Add', exact: true }).click();
	}
	await expect(page.getByTestId('planner-summary')).toContainText('5 points');
	const gaps = page.getByTestId('planner-gap');
	await expect(gaps).toHaveCount(4);
	for (let index = 0; index < 4; index++)
		await expect(gaps.nth(index)).toHaveAttribute('data-status', 'routed', { timeout: 20_000 });

	await page.getByLabel('Name', { exact: true }).fill('Five points through Andorra');
	await page.getByRole('button', { name: 'Save route' }).click();
	await page.waitForURL(/\/routes\/view\/\d+$/);
	const instructions = (
		await page.getByTestId('cue-sheet').locator('tbody tr td:nth-child(3)').allTextContents()
	).map((text) => text.trim());
	expect(instructions.filter((text) => text.startsWith('You have arrived'))).toEqual([
		'You have arrived at your destination.',
	]);
	expect(instructions.at(-1)).toBe('You have arrived at your destination.');
	// Only the first cue starts the trip ("Walk …"); the points between go on with a turn or "Continue".
	expect(instructions.filter((text) => /^(Walk|Bike|Drive) /.test(text))).toEqual([instructions[0]]);
	// Each of the three points between has its cue: the cue sheet is longer than the start, turns and end alone.
	expect(instructions.length).toBeGreaterThanOrEqual(5);
});
