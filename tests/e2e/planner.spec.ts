import { DEMO_LOGIN } from '../../src/lib/db/seed';
import { expect, type Page, test } from './fixtures';
import { expectNoSeriousA11yIssues, forbidExternalRequests, HYDRATING_ISLANDS } from './helpers';

/**
 * Drawing a route on the planner over Harrisburg's streets, as the demo member: points from map clicks follow
 * roads, undo and redo, a point removed from the list with the keyboard, and the saved route's page showing the
 * distance the planner showed. And when the routing service fails, the straight line stays with a notice.
 */

const BLANK_TILE = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
	'base64',
);

async function openPlanner(page: Page, baseURL: string) {
	await forbidExternalRequests(page, baseURL);
	await page.route('**/tiles/**', (route) => route.fulfill({ contentType: 'image/png', body: BLANK_TILE }));
	await page.goto('/auth/login?next=%2Froutes%2Fcreate%2F');
	await expect(page.locator(HYDRATING_ISLANDS)).toHaveCount(0);
	await page.getByRole('textbox', { name: 'Email' }).fill(DEMO_LOGIN.email);
	await page.locator('input[name="password"]').fill(DEMO_LOGIN.password);
	await page.getByRole('button', { name: 'Log in' }).click();
	await page.waitForURL('**/routes/create/');
	const map = page.getByTestId('planner-map');
	await expect(map).toBeVisible();
	return map;
}

/** Clicks the map at an offset in pixels from its centre. */
async function clickMap(page: Page, dx: number, dy: number) {
	const map = page.getByTestId('planner-map');
	const box = await map.boundingBox();
	if (!box) throw new Error('The map has no box.');
	await map.click({ position: { x: box.width / 2 + dx, y: box.height / 2 + dy } });
}

const summary = (page: Page) => page.getByTestId('planner-summary');

test('the demo member draws a route that follows roads, edits it and saves it', async ({ page, baseURL }) => {
	test.setTimeout(90_000);
	await openPlanner(page, baseURL as string);

	await clickMap(page, -90, -60);
	await expect(summary(page)).toContainText('1 point');
	await clickMap(page, 20, 50);
	await clickMap(page, 110, -40);
	await expect(summary(page)).toContainText('3 points');
	const gaps = page.getByTestId('planner-gap');
	await expect(gaps).toHaveCount(2);
	await expect(gaps.nth(0)).toHaveAttribute('data-status', 'routed', { timeout: 15_000 });
	await expect(gaps.nth(1)).toHaveAttribute('data-status', 'routed', { timeout: 15_000 });
	await expect(gaps.nth(0)).toContainText('following roads');
	// The routed line is drawn solid on the map.
	await expect(page.locator('path.planner-leg--routed')).toHaveCount(2);

	await page.getByRole('button', { name: 'Undo' }).click();
	await expect(summary(page)).toContainText('2 points');
	await expect(gaps).toHaveCount(1);
	await page.getByRole('button', { name: 'Redo' }).click();
	await expect(summary(page)).toContainText('3 points');
	// The answer for the redone gap was kept: it is routed at once, not asked for again.
	await expect(gaps.nth(1)).toHaveAttribute('data-status', 'routed');
	// The same from the keyboard.
	await page.keyboard.press('Control+z');
	await expect(summary(page)).toContainText('2 points');
	await page.keyboard.press('Control+Shift+z');
	await expect(summary(page)).toContainText('3 points');

	// Without the mouse: the middle point removed from the list.
	await page.getByRole('button', { name: 'Remove point 2' }).focus();
	await page.keyboard.press('Enter');
	await expect(summary(page)).toContainText('2 points');
	await expect(gaps).toHaveCount(1);
	await expect(gaps.nth(0)).toHaveAttribute('data-status', 'routed', { timeout: 15_000 });
	await expect(summary(page)).not.toContainText('finding roads');
	const shown = /Route (\d+\.\d{2} (?:mi|km))/.exec((await summary(page).textContent()) ?? '')?.[1];
	expect(shown).toBeTruthy();

	await page.getByLabel('Name', { exact: true }).fill('Planner test route');
	await page.getByRole('button', { name: 'Save route' }).click();
	await page.waitForURL(/\/routes\/view\/\d+$/);
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Planner test route');
	await expect(page.getByTestId('route-distance')).toHaveText(shown as string);
});

test('a routing failure keeps the straight line, says so, and the draft is offered back', async ({
	page,
	baseURL,
	pageProblems,
}) => {
	test.setTimeout(60_000);
	const warnings: string[] = [];
	page.on('console', (message) => {
		if (message.type() === 'warning') warnings.push(message.text());
	});
	await openPlanner(page, baseURL as string);
	pageProblems.expectFailedRequest(/^\/api\/routing\/route$/);
	await page.route('**/api/routing/route', (route) =>
		route.fulfill({
			status: 503,
			json: { error_code: 503, error: 'No routing engine', status_code: 503, status: 'Service Unavailable' },
		}),
	);

	await clickMap(page, -60, 0);
	await clickMap(page, 60, 30);
	await expect(summary(page)).toContainText('2 points');
	const gap = page.getByTestId('planner-gap');
	await expect(gap).toHaveAttribute('data-status', 'straight');
	await expect(page.getByTestId('planner-notice')).toContainText(
		'Roads could not be followed from point 1 to point 2',
	);
	await expect(page.locator('path.planner-leg--straight')).toHaveCount(1);
	expect(warnings.some((text) => text.includes('Roads could not be followed'))).toBe(true);
	await expectNoSeriousA11yIssues(page);

	// A point typed as coordinates is added at the end.
	await page.getByLabel('Add a point', { exact: true }).fill('40.2637, -76.8839');
	await page.getByRole('button', { name: 'Add', exact: true }).click();
	await expect(summary(page)).toContainText('3 points');
	await expect(page.getByTestId('planner-points')).toContainText('40.26370, -76.88390');
	await page.getByLabel('Name', { exact: true }).fill('Unfinished');

	await page.reload();
	await expect(page.getByRole('heading', { name: 'Continue your unsaved route?' })).toBeVisible();
	await page.getByRole('button', { name: 'Restore' }).click();
	await expect(summary(page)).toContainText('3 points');
	await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Unfinished');
	await page.getByRole('button', { name: 'Clear' }).click();
	await expect(summary(page)).toContainText('0 points');
});
