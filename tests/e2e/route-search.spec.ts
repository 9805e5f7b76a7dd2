import { DEMO_LOGIN } from '../../src/lib/db/seed';
import { expect, type Page, test } from './fixtures';
import { expectNoSeriousA11yIssues, forbidExternalRequests, HYDRATING_ISLANDS } from './helpers';

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
	await expect(page.locator(HYDRATING_ISLANDS)).toHaveCount(0);
	await page.getByRole('textbox', { name: 'Email' }).fill(DEMO_LOGIN.email);
	await page.locator('input[name="password"]').fill(DEMO_LOGIN.password);
	await page.getByRole('button', { name: 'Log in' }).click();
	await page.waitForURL('**/routes/search/');
	await expect(page.locator(HYDRATING_ISLANDS)).toHaveCount(0);
}

const BLANK_TILE = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
	'base64',
);

/** Logged in, searching near Harrisburg from the city widget: the results list and map are up. */
async function searchNearHarrisburg(page: Page) {
	await page.route('**/tiles/**', (route) => route.fulfill({ contentType: 'image/png', body: BLANK_TILE }));
	await logInToSearch(page);
	await page.getByRole('combobox', { name: 'Near (city)' }).fill('Harrisburg');
	await page.getByRole('option', { name: 'Harrisburg, PA, US' }).click();
	const results = page.getByTestId('route-search-results');
	await expect(results.getByRole('heading', { level: 2 })).toContainText('near Harrisburg, PA, US');
	return results;
}

/** A result card by its route's name, and the route's id. */
async function resultCard(page: Page, name: string) {
	const card = page.getByTestId('route-search-list').getByRole('listitem').filter({ hasText: name });
	const id = await card.getAttribute('data-route-id');
	expect(id).toMatch(/^\d+$/);
	return { card, id: id as string };
}

const mapLine = (page: Page, id: string) =>
	page.getByTestId('route-results-map').locator(`path.route-results-map__line[data-route-id="${id}"]`);

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
	await expect(page.locator(HYDRATING_ISLANDS)).toHaveCount(0);
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

	// My routes renders the same list: the member's private route with its privacy. Found by its name,
	// as a member with many routes would: other tests' new routes push it off the first page.
	await page.goto('/routes/my_routes/?q=Private+tempo');
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

test("result cards show each route's shape, activity, distance and climb, and mark it on the map both ways @desktop-layout", async ({
	page,
	baseURL,
}) => {
	test.setTimeout(90_000);
	const external = await forbidExternalRequests(page, baseURL as string);
	const results = await searchNearHarrisburg(page);
	const cards = page.getByTestId('route-search-list').getByRole('listitem');
	await expect(cards.first()).toBeVisible();
	expect(await cards.count()).toBeGreaterThanOrEqual(HARRISBURG_ROUTES.length);
	for (const name of HARRISBURG_ROUTES) {
		const { card } = await resultCard(page, name);
		await expect(card.getByTestId('route-thumbnail').locator('polyline')).toHaveAttribute(
			'points',
			/^[\d.]+,[\d.]+( [\d.]+,[\d.]+)+$/,
		);
		await expect(card.locator('.activity__label')).toHaveText(/^(Run|Walk|Bike Ride|Hike|Other activity)$/);
		await expect(card.getByTestId('route-distance')).toHaveText(/^\d+\.\d\d (mi|km)$/);
		await expect(card.getByTestId('route-climb')).toHaveText(/^climb (\d+ (ft|m)|—)$/);
	}
	const walk = await resultCard(page, 'Paxtang neighbourhood walk');
	await expect(walk.card.locator('.activity__label')).toHaveText('Walk');

	// Every result is drawn on the map, beside the list.
	const map = page.getByTestId('route-results-map');
	await expect(map).toBeVisible();
	await expect(map.locator('path.route-results-map__line')).toHaveCount(await cards.count());
	const mapBox = await map.boundingBox();
	const listBox = await page.getByTestId('route-search-list').boundingBox();
	expect((mapBox?.x ?? 0) >= (listBox?.x ?? 0) + (listBox?.width ?? 0) - 1).toBe(true);

	// Pointing at a card marks its route on the map.
	await walk.card.hover();
	await expect(mapLine(page, walk.id)).toHaveClass(/is-highlighted/);
	await expect(mapLine(page, walk.id)).toHaveAttribute('stroke', '#c2410c');
	await expect(walk.card).toHaveClass(/is-highlighted/);

	// With the pointer gone, the card focused from the keyboard is marked.
	await page.mouse.move(0, 0);
	await expect(mapLine(page, walk.id)).not.toHaveClass(/is-highlighted/);
	const ride = await resultCard(page, 'Penbrook to Colonial Park ride');
	await ride.card.getByRole('link').focus();
	await expect(mapLine(page, ride.id)).toHaveClass(/is-highlighted/);
	await expect(mapLine(page, walk.id)).not.toHaveClass(/is-highlighted/);

	// Activating a route's start marker on the map brings its card into focus.
	const loop = await resultCard(page, 'Allison Hill and Reservoir Park loop');
	const marker = map.locator(`.route-results-map__marker[data-route-id="${loop.id}"]`);
	await expect(marker).toHaveAttribute('role', 'button');
	await expect(marker).toHaveAttribute('title', 'Allison Hill and Reservoir Park loop');
	await marker.focus();
	await page.keyboard.press('Enter');
	await expect(loop.card.getByRole('link')).toBeFocused();
	await expect(loop.card).toHaveClass(/is-highlighted/);
	await expect(mapLine(page, loop.id)).toHaveClass(/is-highlighted/);
	await expect(results).toHaveAttribute('aria-busy', 'false');
	expect(external).toEqual([]);
});

test('at 375 px the results map sits above the cards and nothing overflows @small-screen-layout', async ({
	page,
}) => {
	test.setTimeout(90_000);
	await page.setViewportSize({ width: 375, height: 812 });
	await searchNearHarrisburg(page);
	const map = page.getByTestId('route-results-map');
	await expect(map).toBeVisible();
	await expect(map.locator('path.route-results-map__line').first()).toBeAttached();
	const mapBox = await map.boundingBox();
	const listBox = await page.getByTestId('route-search-list').boundingBox();
	expect((mapBox?.y ?? 0) + (mapBox?.height ?? 0)).toBeLessThanOrEqual((listBox?.y ?? 0) + 1);
	expect(mapBox?.width ?? 0).toBeLessThanOrEqual(375);
	// A card marks its route when its link has the focus as well (the pointer kept off the cards).
	await page.mouse.move(0, 0);
	const walk = await resultCard(page, 'Paxtang neighbourhood walk');
	await walk.card.getByRole('link').focus();
	await expect(mapLine(page, walk.id)).toHaveClass(/is-highlighted/);
	const overflow = await page.evaluate(() => ({
		scrollWidth: document.documentElement.scrollWidth,
		width: document.documentElement.clientWidth,
	}));
	expect(overflow.scrollWidth).toBeLessThanOrEqual(overflow.width);
});

test('a place typed into "Near" while the page is still loading keeps every key, and typing goes on', async ({
	page,
}) => {
	await logInToSearch(page);
	// The search island's script is held back, as on a slow connection, while the member types.
	let release: () => void = () => {};
	const held = new Promise<void>((resolve) => {
		release = resolve;
	});
	await page.route(/\/_astro\/RouteSearch\.[\w-]+\.js$/, async (route) => {
		await held;
		await route.continue();
	});
	await page.goto('/routes/search/', { waitUntil: 'commit' });
	const plain = page.getByRole('textbox', { name: 'Near (city)' });
	await plain.click();
	await page.keyboard.type('Harr', { delay: 30 });
	release();
	// The widget takes over with what was typed and the caret; the next keys go on from there.
	const near = page.getByRole('combobox', { name: 'Near (city)' });
	await expect(near).toHaveValue('Harr');
	await expect(near).toBeFocused();
	await page.keyboard.type('isburg', { delay: 30 });
	await expect(near).toHaveValue('Harrisburg');
	await expect(page.getByRole('option', { name: 'Harrisburg, PA, US' })).toBeVisible({ timeout: 15_000 });
	// Enter takes the best match, as a search box does.
	await page.keyboard.press('Enter');
	await expect(near).toHaveValue(/^Harrisburg, /);
});
