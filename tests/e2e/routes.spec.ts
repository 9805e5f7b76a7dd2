import { expect, test } from '@playwright/test';
import { DEMO_LOGIN } from '../../src/lib/db/seed';
import { expectNoSeriousA11yIssues, forbidExternalRequests, open } from './helpers';

/**
 * Viewing, printing and embedding a route, as a visitor, on the demo world the server seeds on
 * first start (seedDemoRoutes). No tile or other external request is ever made.
 */
const CLIMB = 'Sant Julià to Andorra la Vella climb';

/** A blank 1×1 PNG: map tiles are never fetched for real in tests. */
const BLANK_TILE = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
	'base64',
);

async function openClimb(page: import('@playwright/test').Page, baseURL: string) {
	const external = await forbidExternalRequests(page, baseURL);
	await page.route('**/tiles/**', (route) => route.fulfill({ contentType: 'image/png', body: BLANK_TILE }));
	await open(page, '/routes/');
	// The demo seed may give the same route to more than one member.
	await page.getByTestId('latest-routes').getByRole('link', { name: CLIMB }).first().click();
	await expect(page.getByRole('heading', { level: 1, name: CLIMB })).toBeVisible();
	const id = new URL(page.url()).pathname.split('/').filter(Boolean).at(-1);
	return { id, external };
}

test('a visitor views a public route: map with markers, stats, elevation and cue sheet', async ({
	page,
	baseURL,
}) => {
	const { external } = await openClimb(page, baseURL as string);
	await expect(page.getByTestId('privacy-badge')).toHaveText('Public');
	await expect(page.getByTestId('route-distance')).toHaveText(/^\d+\.\d{2} (km|mi)$/);
	const map = page.getByTestId('route-leaflet');
	await expect(map).toBeVisible();
	await expect(map.locator('path.leaflet-interactive').first()).toBeAttached();
	await expect(map.locator('.route-map__label').first()).toHaveText('1');
	await expect(map.locator('.leaflet-control-attribution')).toContainText('OpenStreetMap');
	await expect(page.getByTestId('elevation-profile').locator('svg')).toBeVisible();
	await expect(page.getByTestId('cue-sheet').locator('tbody tr').first()).toContainText(/Bike|Walk/);
	// Visitors get no bookmark button and no edit link.
	await expect(page.getByTestId('bookmark-button')).toHaveCount(0);
	await expect(page.getByRole('link', { name: 'Edit' })).toHaveCount(0);
	const download = page.waitForEvent('download');
	await page.getByRole('link', { name: 'Download GPX' }).click();
	expect((await download).suggestedFilename()).toMatch(/\.gpx$/);
	await expectNoSeriousA11yIssues(page);
	expect(external).toEqual([]);
});

test('the print page hides the chrome and keeps map, elevation table and cue sheet', async ({
	page,
	baseURL,
}) => {
	const { id } = await openClimb(page, baseURL as string);
	await page.getByRole('link', { name: 'Print' }).click();
	// The page renders on demand; on a busy machine that can take a while.
	await page.waitForURL(new RegExp(`/routes/print/${id}`), { timeout: 20_000 });
	await page.emulateMedia({ media: 'print' });
	await expect(page.locator('body > header')).toBeHidden();
	await expect(page.locator('body > footer')).toBeHidden();
	await expect(page.getByRole('link', { name: 'Back to the route' })).toBeHidden();
	await expect(page.getByTestId('route-map')).toBeVisible();
	await expect(page.getByTestId('distance-elevation-table').locator('tbody tr')).not.toHaveCount(0);
	await expect(page.getByTestId('cue-sheet')).toBeVisible();
	const pdf = await page.pdf({ format: 'A4' });
	expect(pdf.subarray(0, 4).toString()).toBe('%PDF');
});

test('the embed page frames anywhere, sets no cookie, and refuses private routes', async ({
	page,
	baseURL,
	request,
}) => {
	const { id } = await openClimb(page, baseURL as string);
	const response = await request.get(`/routes/view/embedded/${id}`);
	expect(response.status()).toBe(200);
	expect(response.headers()['content-security-policy']).toContain('frame-ancestors *');
	expect(response.headers()['set-cookie']).toBeUndefined();

	await open(page, `/routes/view/add_to_website/${id}`);
	const snippet = await page.getByTestId('embed-snippet').inputValue();
	expect(snippet).toMatch(new RegExp(`^<iframe src="[^"]+/routes/view/embedded/${id}" title="Route map: `));
	const frame = page.frameLocator('iframe');
	await expect(frame.getByTestId('route-embed')).toBeVisible();
	await expect(frame.getByRole('link', { name: CLIMB })).toBeVisible();

	// The demo's private route is never embeddable, nor viewable, by a visitor.
	const home = await request.get('/routes/');
	expect(await home.text()).not.toContain('Private tempo run');
	for (let candidate = 1; candidate <= 10; candidate++) {
		const view = await request.get(`/routes/view/${candidate}`);
		if (view.status() === 200) expect(await view.text()).not.toContain('Private tempo run');
	}
});

test('searching routes asks a visitor to log in first', async ({ page }) => {
	await page.goto('/routes/search?place=Andorra');
	await expect(page).toHaveURL(/\/auth\/login\?next=%2Froutes%2Fsearch%3Fplace%3DAndorra/);
});

test('the demo member searches, bookmarks and shares a route by link', async ({
	page,
	baseURL,
}, testInfo) => {
	// It changes the shared demo data, so one viewport runs it; it walks several on-demand pages.
	test.skip(testInfo.project.name !== 'desktop', 'changes shared demo data; run once');
	test.setTimeout(120_000);
	await forbidExternalRequests(page, baseURL as string);
	await page.route('**/tiles/**', (route) => route.fulfill({ contentType: 'image/png', body: BLANK_TILE }));
	await open(page, '/auth/login?next=%2Froutes%2Fsearch%2F');
	await page.getByRole('textbox', { name: 'Email' }).fill(DEMO_LOGIN.email);
	await page.locator('input[name="password"]').fill(DEMO_LOGIN.password);
	await page.getByRole('button', { name: 'Log in' }).click();
	await page.waitForURL('**/routes/search/');

	await page.getByLabel('Near (city)').fill('Andorra la Vella');
	await page.getByLabel('Sort by').selectOption('-total_ascent');
	await page.getByLabel('Route name').fill('Sant Julià');
	await page.getByRole('button', { name: 'Search' }).click();
	const results = page.getByTestId('route-search-results');
	await expect(results.getByRole('heading')).toContainText('near Andorra la Vella');
	// The first word only: "Sant" finds the climb.
	await expect(results.getByRole('link', { name: CLIMB }).first()).toBeVisible();
	await expect(page.locator('nav[aria-label="Result pages"]')).toHaveCount(0);
	await expectNoSeriousA11yIssues(page);

	await page.getByLabel('Route name').fill('nothing-like-this');
	await page.getByRole('button', { name: 'Search' }).click();
	await expect(results).toContainText('No results found');

	// Bookmark one of the demo member's own routes, then find it among the bookmarks.
	await open(page, '/routes/my_routes/');
	await page.getByTestId('my-routes').getByRole('link', { name: 'Private tempo run' }).click();
	await expect(page.getByTestId('privacy-badge')).toHaveText('Private');
	const bookmark = page.getByTestId('bookmark-button');
	if ((await bookmark.textContent())?.includes('Remove')) {
		await bookmark.click();
		await expect(bookmark).toHaveText('Bookmark');
	}
	await bookmark.click();
	await expect(bookmark).toHaveText('Remove bookmark');
	await open(page, '/routes/my_routes/bookmarks/');
	await expect(page.getByTestId('bookmarks').getByRole('link', { name: 'Private tempo run' })).toBeVisible();

	// Share it by link: a visitor with the link sees it, without the token they do not.
	await page.getByTestId('bookmarks').getByRole('link', { name: 'Private tempo run' }).click();
	await page.getByLabel('Who can see this route').selectOption('6');
	await page.getByRole('button', { name: 'Save' }).click();
	const link = await page.getByLabel('Anyone with this link can see the route:').inputValue();
	expect(link).toMatch(/\/routes\/view\/\d+\?token=[A-Za-z0-9_-]{43}$/);
	const visitor = await page.context().browser()?.newContext();
	const stranger = await visitor?.newPage();
	const path = new URL(link).pathname;
	expect((await stranger?.goto(`${baseURL}${path}${new URL(link).search}`))?.status()).toBe(200);
	expect((await stranger?.goto(`${baseURL}${path}`))?.status()).toBe(404);
	await visitor?.close();
	await page.getByLabel('Who can see this route').selectOption('0');
	await page.getByRole('button', { name: 'Save' }).click();
	await expect(page.getByTestId('privacy-badge')).toHaveText('Private');
});
