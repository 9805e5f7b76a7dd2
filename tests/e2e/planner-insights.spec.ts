import { expect, type Page, test } from './fixtures';
import {
	expectNoSeriousA11yIssues,
	forbidExternalRequests,
	HYDRATING_ISLANDS,
	registerMember,
} from './helpers';

/**
 * What the planner tells about a route as it is drawn, as an MVP member sees it: the surfaces and kinds of way
 * over Harrisburg's streets, a suggested loop picked and drawn with its mile or km markers, a note added and found
 * on the saved route; and over Andorra (whose height tile is bundled) the elevation profile and climb. A member
 * without MVP is told, in place of the loops and the surfaces, that they are MVP's and where to get it.
 */

type Login = { email: string; password: string };

/** A new member of Harrisburg, MVP through the MVP90 coupon when asked; signed out again for the login page. */
async function newMember(page: Page, baseURL: string, mvp: boolean): Promise<Login> {
	const stamp = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
	const { person, token } = await registerMember(page.request, baseURL, {
		first_name: mvp ? 'Mona' : 'Fred',
		last_name: 'Planner',
		email: `planner-${mvp ? 'mvp' : 'free'}-${stamp}@example.test`,
		password: 'Gravel-Loop-Lantern-58',
		birthdate: '1990-02-02',
	});
	const origin = { origin: new URL(baseURL).origin };
	if (mvp) {
		const headers = { ...origin, authorization: `Bearer ${token}` };
		const claimed = await page.request.post('/api/billing/user-coupons', {
			data: { coupon_id: 'MVP90', country_code: 'US' },
			headers,
		});
		expect(claimed.status()).toBe(201);
		const redeemed = await page.request.patch(`/api/billing/user-coupons/${(await claimed.json()).id}`, {
			data: { redeemed: true },
			headers,
		});
		expect(redeemed.status()).toBe(200);
	}
	await page.context().clearCookies();
	return { email: person.email, password: person.password };
}

const BLANK_TILE = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
	'base64',
);

async function openPlanner(page: Page, baseURL: string, login: Login) {
	await forbidExternalRequests(page, baseURL);
	await page.route('**/tiles/**', (route) => route.fulfill({ contentType: 'image/png', body: BLANK_TILE }));
	await page.goto('/auth/login?next=%2Froutes%2Fcreate%2F');
	await expect(page.locator(HYDRATING_ISLANDS)).toHaveCount(0);
	await page.getByRole('textbox', { name: 'Email' }).fill(login.email);
	await page.locator('input[name="password"]').fill(login.password);
	await page.getByRole('button', { name: 'Log in' }).click();
	await page.waitForURL('**/routes/create/');
	await expect(page.getByTestId('planner-map')).toBeVisible();
}

async function clickMap(page: Page, dx: number, dy: number) {
	const map = page.getByTestId('planner-map');
	const box = await map.boundingBox();
	if (!box) throw new Error('The map has no box.');
	await map.click({ position: { x: box.width / 2 + dx, y: box.height / 2 + dy } });
}

async function percentTotal(page: Page, table: string): Promise<number> {
	const cells = page
		.getByTestId('planner-breakdown')
		.getByRole('table', { name: table })
		.getByTestId('breakdown-percent');
	const texts = await cells.allTextContents();
	expect(texts.length).toBeGreaterThan(0);
	return Math.round(texts.reduce((sum, text) => sum + Number.parseFloat(text), 0) * 10) / 10;
}

test('an MVP member sees the ways a route follows, picks a suggested loop with its markers and saves a note on it', async ({
	page,
	baseURL,
}) => {
	test.setTimeout(120_000);
	await openPlanner(page, baseURL as string, await newMember(page, baseURL as string, true));
	// The chart's code is not part of the planner's first load.
	const chartScripts: string[] = [];
	page.on('request', (request) => {
		if (/uPlot|ElevationChart/i.test(request.url())) chartScripts.push(request.url());
	});

	await clickMap(page, -90, -60);
	await clickMap(page, 20, 50);
	await clickMap(page, 110, -40);
	const gaps = page.getByTestId('planner-gap');
	await expect(gaps).toHaveCount(2);
	await expect(gaps.nth(0)).toHaveAttribute('data-status', 'routed', { timeout: 15_000 });
	await expect(gaps.nth(1)).toHaveAttribute('data-status', 'routed', { timeout: 15_000 });

	// Harrisburg has no height tile installed: the planner says so rather than drawing a made-up profile.
	await expect(page.getByTestId('planner-climb')).toHaveText('No heights are known along this route.', {
		timeout: 10_000,
	});
	await expect(page.getByRole('link', { name: 'How is climb measured?' })).toHaveAttribute(
		'href',
		'/routes/climb_information/',
	);

	const breakdown = page.getByTestId('planner-breakdown');
	await expect(breakdown.getByRole('table', { name: 'Surface' })).toContainText(/Paved/);
	await expect(breakdown.getByRole('table', { name: 'Kind of way' })).toContainText(/Road|Path/);
	expect(await percentTotal(page, 'Surface')).toBe(100);
	expect(await percentTotal(page, 'Kind of way')).toBe(100);
	await expect(breakdown.getByRole('img', { name: /^Surface: / })).toBeVisible();

	// A loop from point 1.
	const loops = page.getByTestId('planner-loops');
	await loops.getByLabel(/Distance/).fill('3');
	await loops.getByRole('button', { name: 'Suggest a loop' }).click();
	const suggestions = page.getByTestId('loop-suggestions').getByRole('listitem');
	await expect(suggestions.first()).toBeVisible({ timeout: 30_000 });
	expect(await suggestions.count()).toBeLessThanOrEqual(3);
	await expect(suggestions.first()).toContainText(/\d+\.\d{2} (mi|km) heading/);
	await page.getByRole('button', { name: 'Use loop 1' }).click();
	await expect(page.getByTestId('planner-summary')).toContainText('4 points');
	await expect(gaps).toHaveCount(3);
	for (let index = 0; index < 3; index++) {
		await expect(gaps.nth(index)).toHaveAttribute('data-status', 'routed', { timeout: 15_000 });
	}
	// A loop of about 3 units has markers at 1 and 2 (thinned only if they would overlap).
	await expect(page.locator('.planner__map .route-map__label').first()).toBeVisible();
	await expect(page.locator('.planner__map .route-map__label')).toContainText(['1']);
	// Picking a loop is an edit like any other.
	await page.getByRole('button', { name: 'Undo' }).click();
	await expect(page.getByTestId('planner-summary')).toContainText('3 points');
	await page.getByRole('button', { name: 'Redo' }).click();
	await expect(page.getByTestId('planner-summary')).toContainText('4 points');

	// A note at point 2; a control character is refused before anything is sent.
	const notes = page.getByTestId('planner-notes');
	await notes.getByLabel('Add a note').fill('   ');
	await notes.getByRole('button', { name: 'Add note' }).click();
	await expect(notes.getByRole('alert')).toHaveText('Type the note.');
	await notes.getByLabel('Add a note').fill('Water fountain by the gate');
	await notes.getByLabel('At', { exact: true }).selectOption({ label: 'Point 2' });
	await notes.getByRole('button', { name: 'Add note' }).click();
	await expect(notes.getByRole('listitem')).toHaveText(['Water fountain by the gate ✕']);
	await expect(page.locator('.planner-note-pin')).toHaveCount(1);
	// A note placed by a click on the map: that click adds no point; Esc gives up placing one.
	await notes.getByLabel('Add a note').fill('Steep steps, walk them');
	await notes.getByLabel('At', { exact: true }).selectOption({ label: 'Where I click on the map' });
	await notes.getByRole('button', { name: 'Add note' }).click();
	await expect(notes.getByTestId('planner-note-placing')).toHaveText(
		'Click the map where this note goes. Cancel',
	);
	await page.keyboard.press('Escape');
	await expect(notes.getByTestId('planner-note-placing')).toHaveCount(0);
	await notes.getByRole('button', { name: 'Add note' }).click();
	// Zoomed out, the loop is a dot in the middle: the left of the map is open ground.
	for (let step = 0; step < 4; step++) await page.getByRole('button', { name: 'Zoom out' }).click();
	const box = await page.getByTestId('planner-map').boundingBox();
	if (!box) throw new Error('The planner map has no size');
	await page.mouse.click(box.x + box.width * 0.15, box.y + box.height * 0.5);
	await expect(notes.getByRole('listitem')).toHaveText([
		'Water fountain by the gate ✕',
		'Steep steps, walk them ✕',
	]);
	await expect(page.locator('.planner-note-pin')).toHaveCount(2);
	await expect(page.getByTestId('planner-summary')).toContainText('4 points');
	await expect(notes.getByTestId('planner-note-placing')).toHaveCount(0);
	await notes.getByRole('button', { name: 'Remove note 2' }).click();
	await expect(page.locator('.planner-note-pin')).toHaveCount(1);
	await expectNoSeriousA11yIssues(page);
	expect(chartScripts).toEqual([]);

	await page.getByLabel('Name', { exact: true }).fill('Loop with a note');
	await page.getByRole('button', { name: 'Save route' }).click();
	await page.waitForURL(/\/routes\/view\/\d+$/);
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Loop with a note');
	await expect(page.locator('.cues__note')).toContainText('Water fountain by the gate');
});

/** The climb once every gap's heights are in (while some are missing it ends "so far."). */
const FULL_CLIMB = /^Climb \d+ (ft|m), descent \d+ (ft|m); lowest point \d+ (ft|m), highest \d+ (ft|m)\.$/;

test('the profile draws and the climb shows as a route over Andorra grows', async ({ page, baseURL }) => {
	test.setTimeout(90_000);
	await openPlanner(page, baseURL as string, await newMember(page, baseURL as string, true));
	// The chart and its stylesheet load on demand; a part missing from the build shows up here.
	const pageErrors: string[] = [];
	page.on('pageerror', (error) => pageErrors.push(error.message));
	const heightRequests: { lat: number; lon: number }[][] = [];
	page.on('request', (request) => {
		if (request.url().endsWith('/api/routing/height')) {
			heightRequests.push(
				(JSON.parse(request.postData() ?? '{}') as { shape: { lat: number; lon: number }[] }).shape,
			);
		}
	});
	const add = async (text: string) => {
		await page.getByLabel('Add a point', { exact: true }).fill(text);
		await page.getByRole('button', { name: 'Add', exact: true }).click();
	};
	await add('42.5078, 1.5211');
	await add('42.5103, 1.5369');
	await expect(page.getByTestId('planner-gap').first()).toHaveAttribute('data-status', /routed|straight/, {
		timeout: 15_000,
	});
	const climb = page.getByTestId('planner-climb');
	await expect(climb).toHaveText(FULL_CLIMB, { timeout: 15_000 });
	const chart = page.getByTestId('elevation-chart');
	await expect(chart).toHaveAttribute('data-ready', '');
	await expect(
		chart.getByRole('slider', { name: 'Elevation chart of the route being planned' }),
	).toBeVisible();
	await expect(chart.locator('figcaption')).toContainText('Climb');
	const first = await climb.textContent();

	// A third point: only the new gap's heights are asked for, starting where the first gap ends.
	const asked = heightRequests.length;
	await add('42.5150, 1.5400');
	await expect(page.getByTestId('planner-gap')).toHaveCount(2);
	await expect.poll(() => heightRequests.length, { timeout: 15_000 }).toBe(asked + 1);
	await expect(climb).toHaveText(FULL_CLIMB, { timeout: 15_000 });
	await expect(climb).not.toHaveText(first as string);
	expect(heightRequests).toHaveLength(asked + 1);
	expect(heightRequests[asked][0]).toEqual(heightRequests[asked - 1].at(-1));
	// A loop suggested here shows its climb, heights being known.
	const loops = page.getByTestId('planner-loops');
	await loops.getByLabel(/Distance/).fill('2');
	await loops.getByRole('button', { name: 'Suggest a loop' }).click();
	await expect(page.getByTestId('loop-suggestions').getByRole('listitem').first()).toContainText(
		/heading [a-z-]+, climb \d+ (ft|m)/,
		{ timeout: 30_000 },
	);
	expect(pageErrors).toEqual([]);
	// The profile, tables and forms fit the screen, a phone's included.
	expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

	await page.getByRole('link', { name: 'How is climb measured?' }).click();
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('How climb is measured');
	await expect(page.getByTestId('climb-information')).toContainText('SRTM');
});

test('a member without MVP is offered MVP in place of the loops and the surfaces, and follows it to the checkout', async ({
	page,
	baseURL,
}) => {
	test.setTimeout(60_000);
	await openPlanner(page, baseURL as string, await newMember(page, baseURL as string, false));
	const roundTrips: string[] = [];
	page.on('request', (request) => {
		if (request.url().includes('/api/routing/round_trip')) roundTrips.push(request.url());
	});

	const loops = page.getByTestId('planner-loops-locked');
	await expect(loops).toContainText('Round-trip suggestions are part of MVP.');
	await expect(page.getByRole('button', { name: 'Suggest a loop' })).toHaveCount(0);

	await clickMap(page, -90, -60);
	await clickMap(page, 20, 50);
	await expect(page.getByTestId('planner-gap').first()).toHaveAttribute('data-status', 'routed', {
		timeout: 15_000,
	});
	const surfaces = page.getByTestId('planner-breakdown-locked');
	await expect(surfaces).toContainText('The surface breakdown is part of MVP.');
	await expect(surfaces.getByRole('link', { name: 'Get MVP' })).toHaveAttribute('href', '/premium/checkout');
	await expect(page.getByRole('table', { name: 'Surface' })).toHaveCount(0);
	// The rest of what the planner tells stays everyone's.
	await expect(page.getByTestId('planner-climb')).toHaveText('No heights are known along this route.', {
		timeout: 10_000,
	});
	await expectNoSeriousA11yIssues(page);
	expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

	await loops.getByRole('link', { name: 'Get MVP' }).click();
	await page.waitForURL('**/premium/checkout');
	await expect(page.getByRole('radio', { name: /MVP Annual/ })).toBeVisible();
	expect(roundTrips).toEqual([]);
});
