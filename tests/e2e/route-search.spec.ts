import { expect, type Page, test } from '@playwright/test';
import { DEMO_LOGIN } from '../../src/lib/db/seed';
import { expectNoSeriousA11yIssues, forbidExternalRequests } from './helpers';

/**
 * The route search island on the seeded demo world: a place from the city widget, a sort that
 * reorders, a filter that empties the list, a URL that reloads to the same search, and Back.
 */
const HARRISBURG_ROUTES = [
	'Allison Hill and Reservoir Park loop',
	'Paxtang neighbourhood walk',
	'Penbrook to Colonial Park ride',
];

async function logInToSearch(page: Page) {
	await page.goto('/auth/login?next=%2Froutes%2Fsearch%2F');
	await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
	await page.getByRole('textbox', { name: 'Email' }).fill(DEMO_LOGIN.email);
	await page.locator('input[name="password"]').fill(DEMO_LOGIN.password);
	await page.getByRole('button', { name: 'Log in' }).click();
	await page.waitForURL('**/routes/search/');
	await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
}

const resultNames = (page: Page) =>
	page.getByTestId('route-search-list').getByRole('listitem').getByRole('link').allTextContents();

test('the demo member searches near Harrisburg, sorts, filters to nothing and shares the search', async ({
	page,
	baseURL,
}) => {
	// Each step waits on an on-demand page or an API call; a busy two-core machine needs the room.
	test.setTimeout(90_000);
	const external = await forbidExternalRequests(page, baseURL as string);
	await logInToSearch(page);

	const near = page.getByRole('combobox', { name: 'Near (city)' });
	await near.fill('Harrisburg');
	await page.getByRole('option', { name: 'Harrisburg, PA, US' }).click();

	const results = page.getByTestId('route-search-results');
	await expect(results.getByRole('heading', { level: 2 })).toContainText('near Harrisburg, PA, US');
	for (const name of HARRISBURG_ROUTES) await expect(results.getByRole('link', { name })).toBeVisible();
	await expect(page).toHaveURL(/[?&]near=40\.\d+%2C-76\.\d+/);
	// One page of results: no pagination at all.
	await expect(page.getByRole('navigation', { name: 'Result pages' })).toHaveCount(0);

	await page.getByLabel('Sort by').selectOption('distance');
	await expect(page).toHaveURL(/order=distance/);
	await expect(results).toHaveAttribute('aria-busy', 'false');
	const shortestFirst = await resultNames(page);
	expect(shortestFirst.length).toBeGreaterThanOrEqual(HARRISBURG_ROUTES.length);
	await page.getByLabel('Sort by').selectOption('-distance');
	await expect(page).toHaveURL(/order=-distance/);
	await expect.poll(() => resultNames(page)).toEqual([...shortestFirst].reverse());
	await expectNoSeriousA11yIssues(page);

	// The URL is the search: a reload renders the same results on the server.
	const shared = page.url();
	await page.reload();
	await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
	await expect(page.getByLabel('Sort by')).toHaveValue('-distance');
	expect(await resultNames(page)).toEqual([...shortestFirst].reverse());

	// Back returns to the previous sort.
	await page.goBack();
	await expect(page).toHaveURL(/order=distance(&|$)/);
	await expect(page.getByLabel('Sort by')).toHaveValue('distance');
	await expect.poll(() => resultNames(page)).toEqual(shortestFirst);

	await page.getByLabel(/Distance at least/).fill('1000');
	await page.getByRole('button', { name: 'Search', exact: true }).click();
	await expect(results.getByText('No results found')).toBeVisible();
	await expect(results.getByRole('heading', { level: 2 })).toHaveText('0 routes near Harrisburg, PA, US');
	await expect(page).toHaveURL(/min=1000/);
	await expect(page.getByRole('navigation', { name: 'Result pages' })).toHaveCount(0);

	// My routes renders the same list: the member's private route with its privacy.
	await page.goto('/routes/my_routes/');
	await expect(
		page.getByTestId('my-routes').getByRole('listitem').filter({ hasText: 'Private tempo run' }),
	).toContainText('Private');

	// A visitor with the shared link is asked to log in, and comes back to the same search.
	const visitor = await page.context().browser()?.newContext({ baseURL });
	const stranger = await visitor?.newPage();
	await stranger?.goto(shared);
	await expect(stranger as Page).toHaveURL(/\/auth\/login\?next=%2Froutes%2Fsearch%2F%3F/);
	await visitor?.close();
	expect(external).toEqual([]);
});

test('the keyboard walks the search form in reading order, to its one submit button', async ({ page }) => {
	test.setTimeout(60_000);
	await logInToSearch(page);
	await expect(page.getByRole('button', { name: 'Go' })).toHaveCount(0);
	await page.getByRole('combobox', { name: 'Near (city)' }).focus();
	const visited: string[] = [];
	for (let step = 0; step < 7; step++) {
		await page.keyboard.press('Tab');
		visited.push(
			await page.evaluate(() => {
				const focused = document.activeElement as HTMLElement;
				return focused.id || focused.textContent?.trim() || focused.tagName;
			}),
		);
	}
	expect(visited).toEqual(['radius', 'min', 'max', 'activity', 'name', 'order', 'Search']);
	await expect(page.getByLabel(/Distance at most/)).toHaveValue('');
	await expect(page.getByLabel(/Distance at most/).locator('option:checked')).toHaveText('Any length');
});

test('without script the search is a GET form the server answers', async ({ browser, baseURL }) => {
	test.setTimeout(60_000);
	const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
	const page = await context.newPage();
	// The login form needs script, so log in through the API the island would call.
	const login = await context.request.post('/api/auth/login', {
		data: { email: DEMO_LOGIN.email, password: DEMO_LOGIN.password },
		headers: { origin: new URL(baseURL as string).origin },
	});
	expect(login.ok()).toBe(true);
	await page.goto('/routes/search/');
	await page.getByLabel('Near (city)').fill('Harrisburg, PA, US');
	await page.getByLabel('Sort by').selectOption('distance');
	await page.getByRole('button', { name: 'Search' }).click();
	await expect(page).toHaveURL(/place=Harrisburg%2C\+PA%2C\+US/);
	const results = page.getByTestId('route-search-results');
	await expect(results.getByRole('heading', { level: 2 })).toContainText('near Harrisburg, PA, US');
	for (const name of HARRISBURG_ROUTES) await expect(results.getByRole('link', { name })).toBeVisible();
	await context.close();
});
