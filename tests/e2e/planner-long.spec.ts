import { DEMO_LOGIN } from '../../src/lib/db/seed';
import { PLANNER_DRAFT_STORAGE_KEY } from '../../src/lib/routes/planner';
import { MAP_VIEW_STORAGE_KEY } from '../../src/lib/site/cookie-choices';
import { expect, type Page, test } from './fixtures';
import {
	expectNoSeriousA11yIssues,
	forbidExternalRequests,
	HYDRATING_ISLANDS,
	plannerPointOnPage,
} from './helpers';

/**
 * Long routes in the planner: a 200-point route's list draws only the rows near its view, yet the keyboard walks
 * it row after row, each row says its place in the whole list, and a point far down can be found and removed. And
 * a pin let go over another pin only moves: no point is added at the end of the route.
 */

const BLANK_TILE = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
	'base64',
);

async function openPlanner(page: Page, baseURL: string, draft?: unknown) {
	await forbidExternalRequests(page, baseURL);
	await page.route('**/tiles/**', (route) => route.fulfill({ contentType: 'image/png', body: BLANK_TILE }));
	if (draft)
		await page.addInitScript(
			([key, value]) => {
				if (!sessionStorage.getItem('draft-set')) {
					localStorage.setItem(key, value);
					sessionStorage.setItem('draft-set', '1');
				}
			},
			[PLANNER_DRAFT_STORAGE_KEY, JSON.stringify(draft)] as const,
		);
	await page.goto('/auth/login?next=%2Froutes%2Fcreate%2F');
	await expect(page.locator(HYDRATING_ISLANDS)).toHaveCount(0);
	await page.getByRole('textbox', { name: 'Email' }).fill(DEMO_LOGIN.email);
	await page.locator('input[name="password"]').fill(DEMO_LOGIN.password);
	await page.getByRole('button', { name: 'Log in' }).click();
	await page.waitForURL('**/routes/create/');
	await expect(page.getByTestId('planner-map')).toBeVisible();
}

const summary = (page: Page) => page.getByTestId('planner-summary');

/** Five columns of 40 points 55 m apart, each column joined to the next by a long diagonal. */
const waypoints = Array.from({ length: 200 }, (_, i) => ({
	lat: 40.262 + 0.02 * ((i % 40) / 40),
	lng: -76.87 + 0.04 * (Math.floor(i / 40) / 25) + (i % 2) * 0.0004,
}));
const twoHundredPoints = {
	state: {
		waypoints,
		legs: waypoints.slice(1).map(() => ({ mode: 'WALKING', followRoads: false, avoidHighways: true })),
	},
	details: { name: 'Two hundred points' },
};

test('a 200-point route lists its points a view at a time, and the keyboard reaches every one', async ({
	page,
	baseURL,
}) => {
	test.setTimeout(90_000);
	await openPlanner(page, baseURL as string, twoHundredPoints);
	await page.getByRole('button', { name: 'Restore' }).click();
	await expect(summary(page)).toContainText('200 points');

	const list = page.getByTestId('planner-points');
	const rows = list.getByRole('listitem');
	// Only the rows near the list's view are drawn, each telling its place among all 200.
	expect(await rows.count()).toBeLessThan(60);
	await expect(rows.first()).toHaveAttribute('aria-posinset', '1');
	await expect(rows.first()).toHaveAttribute('aria-setsize', '200');

	// Tab walks on past the rows drawn at first: the list follows the focus.
	await page.getByRole('button', { name: 'Move point 1 down' }).focus();
	for (let i = 0; i < 3 * 70; i++) await page.keyboard.press('Tab');
	await expect(page.getByRole('button', { name: 'Move point 71 down' })).toBeFocused();
	await expect(page.getByRole('button', { name: 'Move point 1 down' })).toHaveCount(0);
	// And back.
	for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+Tab');
	await expect(page.getByRole('button', { name: 'Move point 70 down' })).toBeFocused();

	// The last point, scrolled to, is removed from the keyboard.
	await list.evaluate((element) => {
		const box = element.parentElement as HTMLElement;
		box.scrollTop = box.scrollHeight;
	});
	const last = page.getByRole('button', { name: 'Remove point 200' });
	await expect(last).toBeVisible();
	await last.focus();
	await page.keyboard.press('Enter');
	await expect(summary(page)).toContainText('199 points');
	await expect(list.getByRole('listitem').last()).toHaveAttribute('aria-posinset', '199');
	await page.keyboard.press('Control+z');
	await expect(summary(page)).toContainText('200 points');

	await expectNoSeriousA11yIssues(page);
});

test('a pin let go over another pin moves it and adds no point @desktop-layout', async ({
	page,
	baseURL,
}) => {
	await openPlanner(page, baseURL as string);
	await page.getByRole('checkbox', { name: 'Follow roads' }).uncheck();
	const map = page.getByTestId('planner-map');
	const box = await map.boundingBox();
	if (!box) throw new Error('The map has no box.');
	const at = (dx: number, dy: number) => ({ x: box.width / 2 + dx, y: box.height / 2 + dy });
	await map.click({ position: at(-120, 0) });
	await map.click({ position: at(0, 60) });
	await map.click({ position: at(120, 0) });
	await expect(summary(page)).toContainText('3 points');
	const before = await summary(page).textContent();

	// Point 1 dragged onto point 2, whose pin is drawn over it, and let go there.
	const pin = page.locator('.planner-pin').first();
	const from = await pin.boundingBox();
	if (!from) throw new Error('The first pin has no box.');
	await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
	await page.mouse.down();
	await page.mouse.move(box.x + at(0, 60).x, box.y + at(0, 60).y, { steps: 8 });
	await page.mouse.up();

	await expect(summary(page)).not.toHaveText(before ?? '');
	await expect(summary(page)).toContainText('3 points');
	await page.getByRole('button', { name: 'Undo' }).click();
	await expect(summary(page)).toHaveText(before ?? '');
});

/** A press, a move in steps and a let-go: by mouse, or by finger where the test's device has a touch screen. */
async function drag(
	page: Page,
	from: { x: number; y: number },
	by: { x: number; y: number },
	finger: boolean,
) {
	const to = { x: from.x + by.x, y: from.y + by.y };
	if (!finger) {
		await page.mouse.move(from.x, from.y);
		await page.mouse.down();
		await page.mouse.move(to.x, to.y, { steps: 6 });
		await page.mouse.up();
		return;
	}
	const cdp = await page.context().newCDPSession(page);
	const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', at?: { x: number; y: number }) =>
		cdp.send('Input.dispatchTouchEvent', { type, touchPoints: at ? [{ x: at.x, y: at.y }] : [] });
	await touch('touchStart', from);
	for (let step = 1; step <= 6; step++)
		await touch('touchMove', { x: from.x + (by.x * step) / 6, y: from.y + (by.y * step) / 6 });
	await touch('touchEnd');
	await cdp.detach();
}

test('a long route is drawn on the map as dots: one is named, dragged and let go, and a line still takes a new point', async ({
	page,
	baseURL,
}, testInfo) => {
	test.setTimeout(90_000);
	const finger = testInfo.project.use.hasTouch === true;
	await openPlanner(page, baseURL as string, twoHundredPoints);
	await page.getByRole('button', { name: 'Restore' }).click();
	await expect(summary(page)).toContainText('200 points');
	const restored = await summary(page).textContent();
	// No element per point: two hundred pins would each be restyled and repainted on every edit.
	await expect(page.locator('.planner-pin')).toHaveCount(0);
	// The list of two hundred rows does not widen the page past the screen.
	const overflow = await page.evaluate(
		() => document.documentElement.scrollWidth - document.documentElement.clientWidth,
	);
	expect(overflow).toBeLessThanOrEqual(0);

	// Closer in, where the dots of a column stand apart; the map keeps its view once it settles.
	const zoomOf = () =>
		page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '{}').zoom, MAP_VIEW_STORAGE_KEY);
	// Kept once the restored route's framing has ended (the zoom animates).
	await expect.poll(zoomOf).toEqual(expect.any(Number));
	const fitted = await zoomOf();
	await page.getByRole('button', { name: 'Zoom in' }).click();
	await expect.poll(zoomOf).toBe(fitted + 1);
	await page.getByRole('button', { name: 'Zoom in' }).click();
	await expect.poll(zoomOf).toBe(fitted + 2);
	await page.getByTestId('planner-map').scrollIntoViewIfNeeded();

	// Point 101, in the middle column, says its name (on hover, or tapped) and is dragged aside.
	const point = await plannerPointOnPage(page, waypoints[100]);
	if (finger) await page.touchscreen.tap(point.x, point.y);
	else await page.mouse.move(point.x, point.y);
	await expect(page.locator('.leaflet-tooltip')).toHaveText('Point 101');
	await expect(summary(page)).toHaveText(restored ?? '');
	const storedView = () => page.evaluate((key) => localStorage.getItem(key), MAP_VIEW_STORAGE_KEY);
	const viewBeforeDrag = await storedView();
	await drag(page, point, { x: 30, y: 20 }, finger);
	await expect(summary(page)).not.toHaveText(restored ?? '');
	// The point moved, not the map: its view, kept whenever it moves, is the same.
	expect(await storedView()).toBe(viewBeforeDrag);
	await expect(summary(page)).toContainText('200 points');
	const moved = await summary(page).textContent();

	// A press let go where it began moves nothing and adds nothing.
	const still = await plannerPointOnPage(page, waypoints[104]);
	if (finger) await page.touchscreen.tap(still.x, still.y);
	else await page.mouse.click(still.x, still.y);
	await expect(page.locator('.leaflet-tooltip')).toHaveText('Point 105');
	await expect(summary(page)).toHaveText(moved ?? '');

	// The long line from point 80 to point 81, pressed halfway and dragged, takes a new point there.
	// (Lines take a mouse: a finger on a line moves the map.)
	if (!finger) {
		const from = waypoints[79];
		const to = waypoints[80];
		const middle = await plannerPointOnPage(page, {
			lat: (from.lat + to.lat) / 2,
			lng: (from.lng + to.lng) / 2,
		});
		await drag(page, middle, { x: 25, y: 15 }, false);
		await expect(summary(page)).toContainText('201 points');
		await page.keyboard.press('Control+z');
		await expect(summary(page)).toHaveText(moved ?? '');
	}
	await page.getByRole('button', { name: 'Undo' }).click();
	await expect(summary(page)).toHaveText(restored ?? '');
});
