import { readFileSync } from 'node:fs';
import { DEMO_FRIEND_LOGIN, DEMO_LOGIN } from '../../src/lib/db/seed';
import { type APIRequestContext, expect, type Page, test } from './fixtures';
import { expectNoSeriousA11yIssues, forbidExternalRequests, logIn } from './helpers';

/**
 * Editing and copying a saved route in the planner, and opening a GPX file into it: the saved shape comes back
 * as drawn, saving keeps the route's id and version (a save made in another tab meanwhile is offered back), a
 * copy is a new route of the copier's, and the route page shows the distance the planner showed.
 */

const BLANK_TILE = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
	'base64',
);
const GPX = 'tests/fixtures/workouts/gpx/Mojstrovka.gpx';

async function quietMap(page: Page, baseURL: string) {
	await forbidExternalRequests(page, baseURL);
	await page.route('**/tiles/**', (route) => route.fulfill({ contentType: 'image/png', body: BLANK_TILE }));
}

/**
 * A route of the demo member's as the planner saves one: a road-following piece of four points, then a straight
 * piece by bike, so reopening it shows whether the drawn shape was kept.
 */
async function saveOwnRoute(request: APIRequestContext, token: string, name: string): Promise<number> {
	const road = [
		{ lat: 40.2637, lng: -76.8839 },
		{ lat: 40.2645, lng: -76.8832 },
		{ lat: 40.2652, lng: -76.8841 },
		{ lat: 40.2661, lng: -76.8835 },
	];
	const end = { lat: 40.2672, lng: -76.8819 };
	const points = [
		...road.map((p, order) => ({ ...p, order, travel_mode: 'WALKING' })),
		{ ...end, order: road.length, travel_mode: 'BICYCLING' },
	];
	const response = await request.post('/api/v7.1/route/', {
		headers: { authorization: `Bearer ${token}` },
		data: {
			name,
			privacy: 0,
			activity_type: 16,
			points,
			segments: [
				{ segmentId: 0, points: road, distance: 0, notes: [], travelMode: 'WALKING' },
				{ segmentId: 1, points: [road[3], end], distance: 0, notes: [], travelMode: 'BICYCLING' },
			],
		},
	});
	expect(response.status()).toBe(201);
	return (await response.json()).id;
}

const summary = (page: Page) => page.getByTestId('planner-summary');
const shownDistance = async (page: Page) =>
	/Route (\d+\.\d{2} (?:mi|km))/.exec((await summary(page).textContent()) ?? '')?.[1] as string;

async function openEditor(page: Page, id: number) {
	await page.goto(`/routes/edit/${id}`);
	await expect(page.getByTestId('planner-map')).toBeVisible();
	await expect(summary(page)).toContainText('3 points');
}

async function rename(page: Page, name: string) {
	await page.getByLabel('Name', { exact: true }).fill(name);
}

test('the owner edits a route: the saved shape comes back as drawn, and the route page shows the planner distance', async ({
	page,
	baseURL,
}) => {
	test.setTimeout(90_000);
	await quietMap(page, baseURL as string);
	const token = await logIn(page.request, baseURL as string, DEMO_LOGIN);
	const id = await saveOwnRoute(page.request, token, 'Riverside edit');

	await openEditor(page, id);
	await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Riverside edit');
	const gaps = page.getByTestId('planner-gap');
	await expect(gaps.nth(0)).toHaveAttribute('data-status', 'routed');
	await expect(gaps.nth(1)).toHaveAttribute('data-status', 'straight');
	await expect(page.locator('path.planner-leg--routed')).toHaveCount(1);
	// Unchanged, the planner measures what the route page does.
	const opened = await shownDistance(page);
	const view = await page.request.get(`/routes/view/${id}`);
	expect(await view.text()).toContain(opened);

	// An edit of route 5 and a new route keep their unsaved work apart.
	await page.getByLabel('Follow roads').uncheck();
	await page.getByLabel('Add a point', { exact: true }).fill('40.2690, -76.8800');
	await page.getByRole('button', { name: 'Add', exact: true }).click();
	await expect(summary(page)).toContainText('4 points');
	// The draft is written once edits pause.
	await expect
		.poll(() => page.evaluate(() => Object.keys(localStorage).filter((key) => key.includes('planner-draft'))))
		.toEqual([`mapstride:planner-draft:edit:${id}`]);

	await rename(page, 'Riverside edited');
	const shown = await shownDistance(page);
	expect(shown).not.toBe(opened);
	await page.getByRole('button', { name: 'Save route' }).click();
	await page.waitForURL(new RegExp(`/routes/view/${id}$`));
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Riverside edited');
	await expect(page.getByTestId('route-distance')).toHaveText(shown);
	expect(
		await page.evaluate(() => Object.keys(localStorage).filter((key) => key.includes('planner-draft'))),
	).toEqual([]);
	const saved = await (
		await page.request.get(`/api/v7.1/route/${id}/`, { headers: { authorization: `Bearer ${token}` } })
	).json();
	expect(saved.version).toBe(2);
	expect(saved.point_count).toBe(6);
});

test('a save from a second tab makes the first tab choose: take theirs, then keep mine', async ({
	page,
	context,
	baseURL,
}) => {
	test.setTimeout(90_000);
	await quietMap(page, baseURL as string);
	const token = await logIn(page.request, baseURL as string, DEMO_LOGIN);
	const id = await saveOwnRoute(page.request, token, 'Two tabs');
	const other = await context.newPage();
	await quietMap(other, baseURL as string);

	await openEditor(page, id);
	await openEditor(other, id);
	await rename(other, 'Saved in tab two');
	await other.getByRole('button', { name: 'Save route' }).click();
	await other.waitForURL(new RegExp(`/routes/view/${id}$`));

	await rename(page, 'Saved in tab one');
	await page.getByRole('button', { name: 'Save route' }).click();
	const conflict = page.getByTestId('planner-conflict');
	await expect(conflict).toContainText('version 1');
	await expect(conflict).toContainText('version 2');
	await expectNoSeriousA11yIssues(page);
	await conflict.getByRole('button', { name: 'Take theirs' }).click();
	await expect(conflict).toHaveCount(0);
	await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Saved in tab two');
	await expect(summary(page)).toContainText('3 points');

	// Tab two saves again; tab one, now on version 2, keeps its own change over it.
	await openEditor(other, id);
	await rename(other, 'Tab two again');
	await other.getByRole('button', { name: 'Save route' }).click();
	await other.waitForURL(new RegExp(`/routes/view/${id}$`));
	await rename(page, 'Tab one wins');
	await page.getByRole('button', { name: 'Save route' }).click();
	await expect(conflict).toContainText('version 3');
	await conflict.getByRole('button', { name: 'Keep mine' }).click();
	await page.waitForURL(new RegExp(`/routes/view/${id}$`));
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Tab one wins');
	const saved = await (
		await page.request.get(`/api/v7.1/route/${id}/`, { headers: { authorization: `Bearer ${token}` } })
	).json();
	expect(saved.version).toBe(4);
});

test('someone else opening the editor of a route gets the not-found page; a visitor is asked to log in', async ({
	page,
	baseURL,
}) => {
	await quietMap(page, baseURL as string);
	const token = await logIn(page.request, baseURL as string, DEMO_LOGIN);
	const id = await saveOwnRoute(page.request, token, 'Not yours');
	await page.context().clearCookies();
	await page.goto(`/routes/edit/${id}`);
	await page.waitForURL(/\/auth\/login\?next=/);
	expect(new URL(page.url()).searchParams.get('next')).toBe(`/routes/edit/${id}`);
	// Leave the login page first: its own session check would otherwise race the friend's login below.
	await page.goto('about:blank');

	await logIn(page.request, baseURL as string, DEMO_FRIEND_LOGIN);
	const response = await page.goto(`/routes/edit/${id}`);
	expect(response?.status()).toBe(404);
	await expect(page.getByText('404', { exact: true })).toBeVisible();
	await expect(page.getByTestId('planner')).toHaveCount(0);
	// Nor can she copy a private route she may not see.
	expect((await page.goto(`/routes/copy/${id}`))?.status()).toBe(404);
});

test('a GPX file opens as the starting line; a file that is not one says so and loses nothing', async ({
	page,
	baseURL,
}) => {
	test.setTimeout(60_000);
	await quietMap(page, baseURL as string);
	await logIn(page.request, baseURL as string, DEMO_LOGIN);
	await page.goto('/routes/create/');
	await expect(page.getByTestId('planner-map')).toBeVisible();
	const file = page.getByLabel('Open a file');
	await file.setInputFiles({
		name: 'notes.gpx',
		mimeType: 'application/gpx+xml',
		buffer: Buffer.from('not a track'),
	});
	await expect(page.getByTestId('planner-file').getByRole('alert')).toContainText(
		'"notes.gpx" could not be read',
	);
	await expect(summary(page)).toContainText('0 points');
	await expectNoSeriousA11yIssues(page);

	await file.setInputFiles(GPX);
	// Not "0 points": the file is read after the input changes, and the empty route matches the shape too.
	await expect(summary(page)).toContainText(/Route \d+\.\d{2} (mi|km), [1-9]\d* points/);
	await expect(page.getByTestId('planner-file').getByRole('alert')).toHaveCount(0);
	const count = Number(/(\d+) points/.exec((await summary(page).textContent()) ?? '')?.[1]);
	const trackPoints = (readFileSync(GPX, 'utf8').match(/<trkpt/g) ?? []).length;
	expect(count).toBeGreaterThan(5);
	expect(count).toBeLessThan(trackPoints);
	await expect(page.getByTestId('planner-gap').first()).toHaveAttribute('data-status', 'straight');
	// Opening the file is one step to undo.
	await page.getByRole('button', { name: 'Undo' }).click();
	await expect(summary(page)).toContainText('0 points');
	await page.getByRole('button', { name: 'Redo' }).click();
	await expect(summary(page)).toContainText(`${count} points`);

	const shown = await shownDistance(page);
	await page.getByLabel('Name', { exact: true }).fill('Mojstrovka from a file');
	await page.getByRole('button', { name: 'Save route' }).click();
	await page.waitForURL(/\/routes\/view\/\d+$/, { timeout: 20_000 });
	await expect(page.getByTestId('route-distance')).toHaveText(shown);
});
