import { readFileSync } from 'node:fs';
import { CLIENT_EVENTS_PATH } from '../../src/lib/analytics/events';
import { DEMO_FRIEND_LOGIN, DEMO_LOGIN } from '../../src/lib/db/seed';
import { readWorkoutFileSync } from '../../src/lib/workout-files';
import { expect, test } from './fixtures';
import {
	centreOf,
	distanceFromLine,
	expectNoSeriousA11yIssues,
	forbidExternalRequests,
	HYDRATING_ISLANDS,
	open,
	pointAlongLine,
	setGeo,
} from './helpers';

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

/** On a phone the view page folds its secondary actions into "More"; wide screens show them all. */
async function showMoreActions(page: import('@playwright/test').Page) {
	// Decided by the screen, not by a visibility check that can run before the page's styles apply.
	if ((page.viewportSize()?.width ?? 0) > 600) return;
	const more = page.getByTestId('more-actions');
	if (!(await more.evaluate((details) => (details as HTMLDetailsElement).open)))
		await more.locator('summary').click();
}

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
	// The SVG profile is in the page for readers without script; the uPlot chart draws over it once seen.
	await expect(page.getByTestId('elevation-profile').locator('svg')).toBeAttached();
	await expect(page.getByTestId('cue-sheet').locator('tbody tr').first()).toContainText(/Bike|Walk/);
	// Visitors get no bookmark or copy button and no edit link; they are asked to log in to copy.
	await expect(page.getByTestId('bookmark-button')).toHaveCount(0);
	await expect(page.getByTestId('copy-button')).toHaveCount(0);
	await expect(page.getByRole('link', { name: 'Edit' })).toHaveCount(0);
	const path = new URL(page.url()).pathname;
	await expect(page.getByRole('link', { name: 'Log in to copy' })).toHaveAttribute(
		'href',
		`/auth/login?next=${encodeURIComponent(path)}`,
	);
	const download = page.waitForEvent('download');
	await page.getByRole('link', { name: 'Download GPX' }).click();
	expect((await download).suggestedFilename()).toMatch(/\.gpx$/);
	await expectNoSeriousA11yIssues(page);
	expect(external).toEqual([]);
});

test('a visitor opens the route map full screen and back; the page counts it', async ({
	page,
	context,
	baseURL,
}) => {
	// A visitor in Pennsylvania is counted unless they say no.
	await setGeo(context, baseURL as string, 'US-PA');
	const events: string[] = [];
	page.on('request', (request) => {
		if (new URL(request.url()).pathname !== CLIENT_EVENTS_PATH) return;
		const batch = JSON.parse(request.postData() ?? '{"events":[]}') as { events: { name: string }[] };
		events.push(...batch.events.map((event) => event.name));
	});
	const { external } = await openClimb(page, baseURL as string);
	const map = page.getByTestId('route-leaflet');
	const inline = await map.boundingBox();
	await page.getByRole('button', { name: 'Full screen' }).click();
	await expect(page.getByRole('button', { name: 'Exit full screen' })).toBeVisible();
	const viewport = page.viewportSize() ?? { width: 0, height: 0 };
	// The map takes the screen below its toolbar, and Leaflet fills the new size with tiles.
	await expect
		.poll(async () => (await map.boundingBox())?.height ?? 0)
		.toBeGreaterThan(Math.max(inline?.height ?? 0, viewport.height * 0.7));
	await expect(map.locator('.leaflet-control-zoom-in')).toBeInViewport();
	await expect.poll(() => events, { timeout: 10_000 }).toContain('route_fullscreen_clicked');

	await page.getByRole('button', { name: 'Exit full screen' }).click();
	await expect(page.getByRole('button', { name: 'Full screen' })).toBeVisible();
	await expect
		.poll(async () => Math.round((await map.boundingBox())?.height ?? 0))
		.toBe(Math.round(inline?.height ?? 0));
	expect(await page.evaluate(() => document.fullscreenElement)).toBeNull();
	expect(external).toEqual([]);
});

test('the print page hides the chrome and keeps map, elevation table and cue sheet', async ({
	page,
	baseURL,
}) => {
	const { id } = await openClimb(page, baseURL as string);
	await showMoreActions(page);
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
	// It walks several on-demand pages.
	test.setTimeout(120_000);
	await forbidExternalRequests(page, baseURL as string);
	await page.route('**/tiles/**', (route) => route.fulfill({ contentType: 'image/png', body: BLANK_TILE }));
	await open(page, '/auth/login?next=%2Froutes%2Fsearch%2F');
	await page.getByRole('textbox', { name: 'Email' }).fill(DEMO_LOGIN.email);
	await page.locator('input[name="password"]').fill(DEMO_LOGIN.password);
	await page.getByRole('button', { name: 'Log in' }).click();
	await page.waitForURL('**/routes/search/');
	await expect(page.locator(HYDRATING_ISLANDS)).toHaveCount(0);

	// A place typed and not picked from the list is looked up when the search is sent.
	await page.getByRole('combobox', { name: 'Near (city)' }).fill('Andorra la Vella');
	await page.getByLabel('Sort by').selectOption('-total_ascent');
	await page.getByLabel('Route name').fill('Sant Julià');
	await page.getByRole('button', { name: 'Search', exact: true }).click();
	const results = page.getByTestId('route-search-results');
	await expect(results.getByRole('heading')).toContainText('near Andorra la Vella');
	// The first word only: "Sant" finds the climb.
	await expect(results.getByRole('link', { name: CLIMB }).first()).toBeVisible();
	await expect(page.locator('nav[aria-label="Result pages"]')).toHaveCount(0);
	await expectNoSeriousA11yIssues(page);

	await page.getByLabel('Route name').fill('nothing-like-this');
	await page.getByRole('button', { name: 'Search', exact: true }).click();
	await expect(results).toContainText('No results found');

	// Bookmark a private route of the member's own (one per browser project, so parallel runs never
	// share it; in Monaco, where no other test searches), then find it among the bookmarks.
	const name = `Tempo run (${testInfo.project.name})`;
	const origin = new URL(baseURL as string).origin;
	const login = await page.request.post('/api/auth/login', {
		data: { email: DEMO_LOGIN.email, password: DEMO_LOGIN.password },
		headers: { origin },
	});
	const created = await page.request.post('/api/v7.1/route/', {
		headers: { authorization: `Bearer ${(await login.json()).access_token}`, origin },
		data: {
			name,
			privacy: 0,
			activity_type: 16,
			points: [
				{ lat: 43.7384, lng: 7.4246, order: 0, travel_mode: 'WALKING' },
				{ lat: 43.7402, lng: 7.4268, order: 1, travel_mode: 'WALKING' },
			],
		},
	});
	expect(created.status()).toBe(201);
	await open(page, '/routes/my_routes/');
	await page.getByTestId('my-routes').getByRole('link', { name }).click();
	await expect(page.getByTestId('privacy-badge')).toHaveText('Private');
	const bookmark = page.getByTestId('bookmark-button');
	await expect(bookmark).toHaveText('Bookmark');
	await showMoreActions(page);
	await bookmark.click();
	await expect(bookmark).toHaveText('Remove bookmark');
	await open(page, '/routes/my_routes/bookmarks/');
	await expect(page.getByTestId('bookmarks').getByRole('link', { name })).toBeVisible();

	// Share it by link: a visitor with the link sees it, without the token they do not.
	await page.getByTestId('bookmarks').getByRole('link', { name }).click();
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

test('the elevation chart draws with uPlot, marks the map under the cursor and prints as SVG', async ({
	page,
	baseURL,
}) => {
	const { external } = await openClimb(page, baseURL as string);
	const chart = page.getByTestId('elevation-chart');
	await chart.scrollIntoViewIfNeeded();
	// Hydrated only once visible: a canvas inside the chart, named for screen readers, with the summary.
	await expect(chart.locator('canvas')).toBeVisible();
	await expect(chart.getByRole('slider', { name: `Elevation chart of ${CLIMB}` })).toBeVisible();
	await expect(chart.locator('figcaption').last()).toHaveText(
		/^Climb \d+ (ft|m), descent \d+ (ft|m); lowest point \d+ (ft|m), highest \d+ (ft|m), over \d+\.\d{2} (km|mi)\.$/,
	);
	await expect(page.getByTestId('elevation-profile')).toBeHidden();

	// The point under the cursor shows on the map.
	const cursorRing = page.getByTestId('route-leaflet').locator('path[fill="#f2c94c"]');
	await expect(cursorRing).toHaveCount(0);
	const plotArea = chart.locator('.u-over');
	const box = await plotArea.boundingBox();
	if (!box) throw new Error('the chart has no plot area');
	await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
	await expect(cursorRing).toHaveCount(1);
	await page.mouse.move(box.x + box.width / 2, box.y + box.height + 80);
	await expect(cursorRing).toHaveCount(0);

	// A canvas does not print reliably: paper gets the SVG profile instead.
	await page.emulateMedia({ media: 'print' });
	await expect(page.getByTestId('elevation-profile').locator('svg')).toBeVisible();
	await expect(chart.locator('canvas')).toBeHidden();
	await page.emulateMedia({ media: 'screen' });
	await expectNoSeriousA11yIssues(page);
	expect(external).toEqual([]);
});

test('the elevation chart and the map point at each other, by mouse and by keyboard', async ({
	page,
	baseURL,
}, testInfo) => {
	await openClimb(page, baseURL as string);
	const map = page.getByTestId('route-leaflet');
	const line = map.locator('path.route-view-map__line');
	const ring = map.locator('path.route-view-map__cursor');
	const label = map.locator('.route-view-map__reading');
	const start = map.locator('path[fill="#1a7f37"]');
	const finish = map.locator('path[fill="#b42318"]');
	const chart = page.getByTestId('elevation-chart');
	await chart.scrollIntoViewIfNeeded();
	const slider = chart.getByRole('slider', {
		name: /arrow keys move along it and mark the place on the map/,
	});
	await expect(slider).toBeVisible();
	// A person points at the chart once the map beside it shows the route, as the test does.
	await expect(line).toBeAttached();
	await expect(start).toBeAttached();
	const near = async (a: { x: number; y: number }, b: { x: number; y: number }, px: number) =>
		expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeLessThanOrEqual(px);

	// Pointing at either end of the chart marks that end of the route, labelled with what the chart reads there.
	const plot = await chart.locator('.u-over').boundingBox();
	if (!plot) throw new Error('the chart has no plot area');
	await page.mouse.move(plot.x + 1, plot.y + plot.height / 2);
	await expect(ring).toHaveCount(1);
	await expect(slider).toHaveAttribute('aria-valuetext', /^0\.00 (km|mi) · \d+ (m|ft)$/);
	await expect(label).toHaveText((await slider.getAttribute('aria-valuetext')) as string);
	await near(await centreOf(ring), await centreOf(start), 3);
	await page.mouse.move(plot.x + plot.width - 1, plot.y + plot.height / 2);
	await expect(label).not.toHaveText(/^0\.00 /);
	await expect(label).toHaveText((await slider.getAttribute('aria-valuetext')) as string);
	await near(await centreOf(ring), await centreOf(finish), 3);
	await page.mouse.move(plot.x + plot.width / 2, plot.y + plot.height + 80);
	await expect(ring).toHaveCount(0);

	// From the keyboard: Home and End go to the ends, the arrows step along the route, the label following.
	await slider.focus();
	await slider.press('Home');
	await expect(slider).toHaveAttribute('aria-valuenow', '0');
	await near(await centreOf(ring), await centreOf(start), 3);
	for (let i = 0; i < 30; i++) await slider.press('ArrowRight');
	const stepped = Number(await slider.getAttribute('aria-valuenow'));
	expect(stepped).toBeGreaterThan(0);
	await expect(label).toHaveText((await slider.getAttribute('aria-valuetext')) as string);
	const steppedAt = await centreOf(ring);
	expect(await distanceFromLine(line, steppedAt)).toBeLessThanOrEqual(3);
	expect(
		Math.hypot(steppedAt.x - (await centreOf(start)).x, steppedAt.y - (await centreOf(start)).y),
	).toBeGreaterThan(10);
	await slider.press('ArrowLeft');
	await expect.poll(async () => Number(await slider.getAttribute('aria-valuenow'))).toBeLessThan(stepped);
	await slider.press('End');
	await near(await centreOf(ring), await centreOf(finish), 3);
	await slider.blur();
	await expect(ring).toHaveCount(0);

	// Pointing at the line on the map moves the chart's cursor to that place, further along for a place further on.
	await map.scrollIntoViewIfNeeded();
	const cursorLeft = () =>
		chart.locator('.u-cursor-x').evaluate((element) => new DOMMatrix(getComputedStyle(element).transform).e);
	const readings: number[] = [];
	for (const share of [0.25, 0.75]) {
		const at = await pointAlongLine(line, share);
		await page.mouse.move(at.x, at.y);
		await expect(slider).not.toHaveAttribute('aria-valuetext', 'No point marked');
		await expect(label).toHaveText((await slider.getAttribute('aria-valuetext')) as string);
		await near(await centreOf(ring), at, 8);
		readings.push(await cursorLeft());
	}
	expect(readings[0]).toBeGreaterThan(0);
	expect(readings[1]).toBeGreaterThan(readings[0]);
	// Away from the line, the chart's cursor and the mark go.
	const box = await map.boundingBox();
	if (!box) throw new Error('the map has no size');
	await page.mouse.move(box.x + 4, box.y + box.height - 4);
	await expect(slider).toHaveAttribute('aria-valuetext', 'No point marked');
	await expect(ring).toHaveCount(0);
	// On a phone, where nothing hovers, a tap on the line does the same.
	if (testInfo.project.use.hasTouch) {
		const at = await pointAlongLine(line, 0.5);
		await page.touchscreen.tap(at.x, at.y);
		await expect(slider).not.toHaveAttribute('aria-valuetext', 'No point marked');
		await near(await centreOf(ring), at, 8);
	}
	await expectNoSeriousA11yIssues(page);
});

test('the map type picker lists the configured types, switches tiles and remembers the choice', async ({
	page,
	baseURL,
}) => {
	const { external } = await openClimb(page, baseURL as string);
	const map = page.getByTestId('route-leaflet');
	const mapType = page.getByLabel('Map type');
	await expect(mapType).toHaveValue('OSM');
	await expect(mapType.locator('option')).toHaveText(['OpenStreetMap', 'Terrain']);
	await expect(map.locator('img.leaflet-tile[src*="/tiles/"]').first()).toBeAttached();

	const terrainTile = page.waitForRequest(/\/tiles\/terrain\/\d+\/\d+\/\d+\.png$/);
	await mapType.selectOption('terrain');
	await terrainTile;
	await expect(map).toHaveAttribute('data-map-type', 'terrain');
	await expect(map.locator('img.leaflet-tile[src*="/tiles/terrain/"]').first()).toBeAttached();
	await expect(map.locator('img.leaflet-tile:not([src*="/tiles/terrain/"])')).toHaveCount(0);
	// OpenStreetMap is credited whatever the tiles, next to the layer's own credit.
	const attribution = map.locator('.leaflet-control-attribution');
	await expect(attribution).toContainText('© OpenStreetMap contributors');
	await expect(attribution).toContainText('Terrain test tiles');

	await page.reload();
	await expect(page.getByLabel('Map type')).toHaveValue('terrain');
	await expect(
		page.getByTestId('route-leaflet').locator('img.leaflet-tile[src*="/tiles/terrain/"]').first(),
	).toBeAttached();
	expect(external).toEqual([]);
});

test('a member logs in to copy a public route, lands on the private copy and downloads it as FIT', async ({
	page,
	baseURL,
}) => {
	// Each run adds its own private copy to the demo friend's account; no other test lists them.
	test.setTimeout(90_000);
	const { id, external } = await openClimb(page, baseURL as string);
	await page.getByRole('link', { name: 'Log in to copy' }).click();
	await page.waitForURL(/\/auth\/login\?next=/);
	await page.getByRole('textbox', { name: 'Email' }).fill(DEMO_FRIEND_LOGIN.email);
	await page.locator('input[name="password"]').fill(DEMO_FRIEND_LOGIN.password);
	await page.getByRole('button', { name: 'Log in' }).click();
	await page.waitForURL(new RegExp(`/routes/view/${id}$`), { timeout: 20_000 });

	// The copy opens in the planner, already the member's: named "Copy of …" with her default privacy.
	await page.getByTestId('copy-button').click();
	await page.waitForURL(new RegExp(`/routes/copy/${id}$`));
	await expect(page.getByLabel('Name', { exact: true })).toHaveValue(`Copy of ${CLIMB}`);
	await expect(page.getByLabel('Privacy')).toHaveValue('0');
	await expect(page.getByTestId('planner-gap').first()).not.toHaveAttribute('data-status', 'pending');
	const planned = /Route (\d+\.\d{2} (?:mi|km))/.exec(
		(await page.getByTestId('planner-summary').textContent()) ?? '',
	)?.[1];
	await page.getByRole('button', { name: 'Save route' }).click();
	await page.waitForURL(
		(url) => /^\/routes\/view\/\d+$/.test(url.pathname) && !url.pathname.endsWith(`/${id}`),
		{
			timeout: 20_000,
		},
	);
	await expect(page.getByTestId('route-distance')).toHaveText(planned as string);
	await expect(page.getByRole('heading', { level: 1, name: `Copy of ${CLIMB}` })).toBeVisible();
	await expect(page.getByTestId('privacy-badge')).toHaveText('Private');
	// The original is untouched: its name, owner and version are as they were.
	const original = await (await page.request.get(`/api/v7.1/route/${id}/`)).json();
	expect(original.name).toBe(CLIMB);
	expect(original.version).toBe(1);
	await showMoreActions(page);
	await expect(page.getByRole('link', { name: 'Edit' })).toBeVisible();
	const copyId = new URL(page.url()).pathname.split('/').at(-1);

	const download = page.waitForEvent('download');
	await page.getByRole('link', { name: 'Download FIT' }).click();
	const file = await download;
	// The browser names it in the route's own words (filename*), with its id.
	expect(file.suggestedFilename()).toBe(`Copy of ${CLIMB} ${copyId}.fit`);
	const course = readWorkoutFileSync(new Uint8Array(readFileSync(await file.path())));
	expect(course.name).toBe(`Copy of ${CLIMB}`);
	expect(course.points.length).toBeGreaterThan(10);
	expect(course.points.some((point) => point.elevation !== undefined)).toBe(true);

	// The copy is private: a visitor gets 404 for it.
	const visitor = await page.context().browser()?.newContext();
	const stranger = await visitor?.newPage();
	expect((await stranger?.goto(`${baseURL}/routes/view/${copyId}`))?.status()).toBe(404);
	expect((await stranger?.goto(`${baseURL}/routes/view/fit/${copyId}`))?.status()).toBe(404);
	await visitor?.close();
	expect(external).toEqual([]);
});

test('a route named with markup shows it as text on its view, embed and print pages', async ({
	browser,
	baseURL,
}) => {
	const context = await browser.newContext({ baseURL });
	const page = await context.newPage();
	const origin = new URL(baseURL as string).origin;
	const login = await context.request.post('/api/auth/login', {
		data: { email: DEMO_FRIEND_LOGIN.email, password: DEMO_FRIEND_LOGIN.password },
		headers: { origin },
	});
	expect(login.ok()).toBe(true);
	const { access_token: accessToken } = await login.json();
	const name = '<img src=x onerror="window.__pwned=1">Harbour "loop"';
	// Link-only, so it never shows up in the other tests' lists and searches; in Harrisburg, where no
	// elevation tile lies, so the server gives it no heights and its pages no chart to wait for.
	const created = await context.request.post('/api/v7.1/route/', {
		headers: { authorization: `Bearer ${accessToken}`, origin },
		data: {
			name,
			privacy: 6,
			activity_type: 16,
			points: [
				{ lat: 40.2637, lng: -76.8839, order: 0, travel_mode: 'WALKING' },
				{ lat: 40.2655, lng: -76.8817, order: 1, travel_mode: 'WALKING' },
			],
		},
	});
	expect(created.status()).toBe(201);
	const { id, share_token: token } = await created.json();
	const dialogs: string[] = [];
	page.on('dialog', (dialog) => dialogs.push(dialog.message()));
	await page.route('**/tiles/**', (route) => route.fulfill({ contentType: 'image/png', body: BLANK_TILE }));
	for (const path of [`/routes/view/${id}`, `/routes/view/embedded/${id}`, `/routes/print/${id}`]) {
		await open(page, `${path}?token=${encodeURIComponent(token)}`);
		await expect(page.getByText(name).first()).toBeVisible();
		expect(await page.locator('img[onerror]').count()).toBe(0);
		expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
	}
	expect(dialogs).toEqual([]);
	await context.close();
});
