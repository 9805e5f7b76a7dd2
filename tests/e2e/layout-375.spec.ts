import { DEMO_ADMIN_LOGIN, DEMO_LOGIN } from '../../src/lib/db/seed';
import { expect, type Page, test } from './fixtures';
import { HYDRATING_ISLANDS, logIn, open, registerMember } from './helpers';

/**
 * Every page type at 375 px: nothing may be wider than the phone, so no page scrolls sideways and
 * nothing shown sticks out past its right edge.
 * Runs in the mobile-375 project only. A failure names the element that sticks out furthest.
 */
const BLANK_TILE = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
	'base64',
);
const WELL_FORMED_TOKEN = 'unknown-but-well-formed-token-0000000000000';

/** The page's overflow, described by the widest element that pushes it past the viewport; null if none. */
async function findOverflow(page: Page): Promise<string | null> {
	return page.evaluate(() => {
		// A phone zooms out to show content wider than the layout viewport, and innerWidth then grows
		// with it; the layout viewport (clientWidth) stays the phone's width.
		const width = Math.min(window.innerWidth, document.documentElement.clientWidth);
		const scrollWidth = document.documentElement.scrollWidth;
		// An element inside a box that clips or scrolls sideways cannot widen the page.
		const clipped = (element: Element) => {
			for (let node = element.parentElement; node && node !== document.body; node = node.parentElement) {
				if (getComputedStyle(node).overflowX !== 'visible') return true;
			}
			return false;
		};
		// A fixed box past the edge does not widen the page, yet the member cannot reach what it cuts off.
		let widest: { right: number; element: Element } | null = null;
		for (const element of document.body.querySelectorAll('*')) {
			const box = element.getBoundingClientRect();
			// Not what a closed menu or a hidden box holds: laid out, but not shown.
			const shown = box.width > 0 && box.height > 0 && element.checkVisibility({ visibilityProperty: true });
			if (shown && box.right > width + 0.5 && !clipped(element) && (!widest || box.right > widest.right))
				widest = { right: box.right, element };
		}
		if (scrollWidth <= width && !widest) return null;
		const name = (element: Element) =>
			`${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${[...element.classList]
				.map((c) => `.${c}`)
				.join(
					'',
				)}${element.getAttribute('data-testid') ? `[data-testid=${element.getAttribute('data-testid')}]` : ''}`;
		const path: string[] = [];
		for (
			let node = widest?.element ?? null;
			node && node !== document.body && path.length < 4;
			node = node.parentElement
		)
			path.unshift(name(node));
		return `scrollWidth ${scrollWidth}, viewport ${width}; widest: ${path.join(' > ')} (right edge ${Math.round(widest?.right ?? 0)} px)`;
	});
}

async function expectNoOverflow(page: Page, path: string) {
	await page.route('**/tiles/**', (route) => route.fulfill({ contentType: 'image/png', body: BLANK_TILE }));
	const response = await page.goto(path);
	expect(response?.status(), path).toBeLessThan(500);
	// Islands that hydrate when seen stay server-rendered until scrolled to; what is in view has run.
	await page.waitForLoadState('load');
	await expect(page.locator(HYDRATING_ISLANDS)).toHaveCount(0);
	// Islands fill in what they fetch (a member's profile, search results) before the check.
	await page.waitForLoadState('networkidle');
	await page.evaluate(() => document.fonts.ready);
	expect(await findOverflow(page), path).toBeNull();
}

async function firstRouteLink(page: Page, listPath: string): Promise<string> {
	await open(page, listPath);
	const href = await page.locator('main a[href^="/routes/view/"]').first().getAttribute('href');
	expect(href).toMatch(/^\/routes\/view\/\d+/);
	return (href as string).split('?')[0];
}

/** The demo member signed in in this page's context: their id, and a token for the API. */
async function signInDemo(page: Page): Promise<{ id: number; token: string }> {
	const login = await page.request.post('/api/auth/login', { data: DEMO_LOGIN });
	expect(login.ok()).toBe(true);
	const answer = await login.json();
	return { id: answer.user.id, token: answer.access_token };
}

/** One of the demo member's seeded workouts: a run with a track, splits and charts. */
async function demoWorkoutId(page: Page, demo: { id: number; token: string }): Promise<string> {
	const listed = await page.request.get(`/api/v7.1/workout/?user=${demo.id}&limit=100`, {
		headers: { authorization: `Bearer ${demo.token}` },
	});
	const workouts = (await listed.json())._embedded.workouts as {
		name: string;
		_links: { self: { id: string }[] };
	}[];
	const run = workouts.find((workout) => workout.name === 'Long run to Reservoir Park');
	expect(run).toBeDefined();
	return (run as (typeof workouts)[number])._links.self[0].id;
}

const routeId = async (page: Page) => (await firstRouteLink(page, '/routes/my_routes/')).split('/').at(-1);

test.describe('visitor pages at 375 px @small-screen-layout', () => {
	for (const path of [
		'/',
		'/mvp/',
		'/us/',
		'/us/pa/',
		'/us/pa/harrisburg/',
		'/routes/',
		'/auth/login/',
		'/auth/signup/',
		'/auth/forgot_password/',
		`/password_reset/${WELL_FORMED_TOKEN}`,
		`/verify_email/${WELL_FORMED_TOKEN}`,
		'/email_verified/',
		'/legal/terms/',
		'/legal/privacy/',
		'/legal/cookies/',
		'/legal/privacy-notice/',
		'/no/such/page',
		'/error/notfound',
		'/dev/mailbox',
		'/challenges/',
		'/challenges/yvty2025',
		'/challenges/yvty2025/leaderboard',
		'/mobile/challenges/yvty2025',
		'/support/',
		'/privacy_center/help',
		'/training-plans/',
		'/training-plans/first-10k/',
		'/train/landing/',
		'/partner/freeletics',
		'/mobile/marriott_routes?lat=40.2663&lng=-76.8861&name=Harrisburg%20Hotel',
		'/mobile/marriott_routes/location_error',
		'/mobile/privacy_center/help',
		'/privacy_center/ineligible',
		'/routes/climb_information/',
		'/premium/promo',
		'/email/unsubscribe',
		'/developers',
	]) {
		test(`${path} fits the screen`, async ({ page }) => {
			await expectNoOverflow(page, path);
		});
	}

	for (const prefix of [
		'/routes/view/',
		'/routes/print/',
		'/routes/view/embedded/',
		'/routes/view/add_to_website/',
	]) {
		test(`a public route under ${prefix} fits the screen`, async ({ page }) => {
			const id = (await firstRouteLink(page, '/routes/')).split('/').at(-1);
			await expectNoOverflow(page, `${prefix}${id}`);
		});
	}
});

test.describe('member pages at 375 px @small-screen-layout', () => {
	test.beforeEach(async ({ page, baseURL }) => {
		await logIn(page.request, baseURL as string, DEMO_LOGIN);
	});

	for (const path of [
		'/premium/checkout',
		'/premium/membership',
		'/premium/coupon',
		'/privacy_center/manage',
		'/privacy_center/consents/edit',
		'/account/gear',
		'/account/my_profile',
		'/account/settings',
		'/account/display_settings',
		'/account/privacy',
		'/account/contact',
		'/account/connected_apps',
		'/device-cloud/test/',
		'/developers',
		'/developers/apps',
		'/account/delete',
		'/mobile/account/delete',
		'/challenges/',
		'/challenges/yvty2025',
		'/account/personalization/',
		'/routes/search/',
		'/routes/my_routes/',
		'/routes/my_routes/bookmarks/',
		'/activity_feed/',
		'/people/friends/',
		'/people/friends/find/?q=ana',
		'/workouts/dashboard/',
		'/workouts/dashboard/lifetime/',
		'/workout/stats/',
		'/mobile/workout/stats',
		'/workout/create/',
		'/workout/import/',
		'/dashboard/',
		'/goals/',
		'/goals/create/',
		'/routes/create/',
		'/routes/climb_information/',
		'/account/',
		'/privacy_center/consents/',
		'/privacy_center/consents/decline',
		'/privacy_center/ineligible',
		'/mobile/privacy_center/manage',
		'/mobile/privacy_center/consents/edit',
		'/mobile/privacy_center/help',
		'/premium/promo',
		// The shell's signed-in header on pages a visitor sees too.
		'/',
		'/routes/',
		'/us/pa/harrisburg/',
		'/training-plans/',
		'/training-plans/first-10k/',
		'/support/',
		'/legal/terms/',
		'/mobile/challenges/yvty2025',
	]) {
		test(`${path} fits the screen`, async ({ page }) => {
			await expectNoOverflow(page, path);
		});
	}

	for (const [name, pathOf] of [
		['the workout page', async (page, demo) => `/workout/${await demoWorkoutId(page, demo)}`],
		['the workout edit page', async (page, demo) => `/workout/edit/${await demoWorkoutId(page, demo)}`],
		['the workout copy page', async (page, demo) => `/workout/copy/${await demoWorkoutId(page, demo)}`],
		['the workout cut page', async (page, demo) => `/workout/cut/${await demoWorkoutId(page, demo)}`],
		['the goals page', async (_, demo) => `/profile/${demo.id}/goals/`],
		['the goal create page', async (_, demo) => `/profile/${demo.id}/goals/create`],
		['the profile dashboard', async (_, demo) => `/profile/${demo.id}/dashboard/`],
		['the profile feed', async (_, demo) => `/profile/${demo.id}/activity_feed`],
		['the route planner editing a route', async (page) => `/routes/edit/${await routeId(page)}`],
		['the route planner copying a route', async (page) => `/routes/copy/${await routeId(page)}`],
		[
			'the hosted checkout',
			async (page, demo) => {
				const started = await page.request.post('/api/checkoutapi/paymentIntent', {
					headers: { authorization: `Bearer ${demo.token}`, 'idempotency-key': `app_${crypto.randomUUID()}` },
					data: { product_id: 'mvp-annual' },
				});
				expect(started.status()).toBe(201);
				return `/checkout/en-us/MMF/${(await started.json()).id}`;
			},
		],
	] as [string, (page: Page, demo: { id: number; token: string }) => Promise<string>][]) {
		test(`${name} fits the screen`, async ({ page }) => {
			const path = await pathOf(page, await signInDemo(page));
			await expectNoOverflow(page, path);
		});
	}

	test('their own route fits the screen and shows its map above the fold', async ({ page }) => {
		const path = await firstRouteLink(page, '/routes/my_routes/');
		await expectNoOverflow(page, path);
		const map = page.getByTestId('route-leaflet');
		await expect(map).toBeVisible();
		const box = await map.boundingBox();
		const fold = page.viewportSize()?.height ?? 0;
		// At least half the map shows before any scrolling.
		expect(box && box.y + box.height / 2, `map top at ${box?.y} px, fold at ${fold} px`).toBeLessThan(fold);
	});
});

test.describe('operator pages at 375 px @small-screen-layout', () => {
	test.beforeEach(async ({ page, baseURL }) => {
		await logIn(page.request, baseURL as string, DEMO_ADMIN_LOGIN);
	});

	for (const path of [
		'/admin/',
		'/admin/analytics',
		'/admin/payments',
		'/admin/support',
		'/admin/challenges/',
	]) {
		test(`${path} fits the screen`, async ({ page }) => {
			await expectNoOverflow(page, path);
		});
	}

	test('a challenge in the operator pages fits the screen', async ({ page }) => {
		await open(page, '/admin/challenges/');
		const href = await page.locator('main a[href^="/admin/challenges/"]').first().getAttribute('href');
		expect(href).toMatch(/^\/admin\/challenges\/\d+/);
		await expectNoOverflow(page, href as string);
	});
});

test.describe("a new member's pages at 375 px @small-screen-layout", () => {
	// A new member sees what the demo member does not: where to start, their goal, and the
	// reminder to confirm their address.
	test.beforeEach(async ({ page, baseURL }, testInfo) => {
		const { user, token } = await registerMember(page.request, baseURL as string, {
			first_name: 'Nia',
			last_name: 'Narrow',
			email: `narrow-${testInfo.project.name}-${Date.now()}@example.test`,
			password: 'Narrow-Phone-Lantern-64',
		});
		const goal = await page.request.put(`/api/v7.1/user/${user.id}/`, {
			headers: { authorization: `Bearer ${token}` },
			data: { goal_statement: 'Walk to work and back every single weekday, whatever the weather' },
		});
		expect(goal.status()).toBe(200);
	});

	for (const path of ['/dashboard', '/workout/stats/']) {
		test(`${path} fits the screen`, async ({ page }) => {
			await expectNoOverflow(page, path);
			await expect(page.getByRole('region', { name: 'Confirm your email address' })).toBeVisible();
		});
	}
});

test.describe('route actions', () => {
	test.beforeEach(async ({ page, baseURL }) => {
		await logIn(page.request, baseURL as string, DEMO_LOGIN);
	});

	test('on a phone the secondary actions fold into More, which works from the keyboard @small-screen-layout', async ({
		page,
	}) => {
		await page.goto(await firstRouteLink(page, '/routes/my_routes/'));
		await expect(page.getByRole('link', { name: 'Download GPX' })).toBeVisible();
		await expect(page.getByTestId('copy-button')).toBeVisible();
		const fit = page.getByRole('link', { name: 'Download FIT' });
		await expect(fit).toBeHidden();
		await page.getByTestId('more-actions').locator('summary').focus();
		await page.keyboard.press('Enter');
		for (const name of ['Download FIT', 'Print', 'Edit'])
			await expect(page.getByRole('link', { name })).toBeVisible();
		await expect(page.getByTestId('bookmark-button')).toBeVisible();
		expect(await findOverflow(page), 'with More open').toBeNull();
		await page.keyboard.press('Tab');
		await expect(fit).toBeFocused();
		await page.keyboard.press('Shift+Tab');
		await page.keyboard.press('Enter');
		await expect(fit).toBeHidden();
	});

	test('on a wide screen every action shows, with no More menu @desktop-layout', async ({ page }) => {
		await page.goto(await firstRouteLink(page, '/routes/my_routes/'));
		await expect(page.getByTestId('more-actions').locator('summary')).toBeHidden();
		for (const name of ['Download GPX', 'Download FIT', 'Print', 'Edit'])
			await expect(page.getByRole('link', { name })).toBeVisible();
		await expect(page.getByTestId('copy-button')).toBeVisible();
		await expect(page.getByTestId('bookmark-button')).toBeVisible();
	});
});
