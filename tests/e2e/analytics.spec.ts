import { CLIENT_EVENTS_PATH } from '../../src/lib/analytics/events';
import { DEMO_ADMIN_LOGIN, DEMO_LOGIN } from '../../src/lib/db/seed';
import { expect, type Page, type Request, test } from './fixtures';
import { HYDRATING_ISLANDS, logIn, open, setGeo } from './helpers';

/** Every batch the page sends to our events endpoint, by fetch or by beacon. */
function recordBatches(page: Page): { names: () => string[]; requests: Request[] } {
	const requests: Request[] = [];
	page.on('request', (request) => {
		if (new URL(request.url()).pathname === CLIENT_EVENTS_PATH) requests.push(request);
	});
	return {
		requests,
		names: () =>
			requests.flatMap((request) =>
				(JSON.parse(request.postData() ?? '{"events":[]}').events as { name: string }[]).map(
					(event) => event.name,
				),
			),
	};
}

test('an EU1 visitor who allows analytics is counted, and the team reads it on /admin/analytics', async ({
	page,
	context,
	baseURL,
}) => {
	await setGeo(context, baseURL as string, 'DE');
	const batches = recordBatches(page);
	await open(page, '/');
	await page.getByRole('button', { name: 'Manage Cookie Preferences' }).click();
	const dialog = page.getByRole('dialog', { name: 'Cookie preferences' });
	const analytics = dialog.getByRole('checkbox', { name: /product analytics/ });
	// Not asked yet in the EU: the box starts unticked.
	await expect(analytics).not.toBeChecked();
	await analytics.check();
	await dialog.getByRole('button', { name: 'Save choices' }).click();
	await expect(dialog).toBeHidden();
	const device = (await context.cookies()).find((cookie) => cookie.name === 'ms_device_id');
	expect(device?.value).toMatch(/^[0-9a-f-]{36}$/);
	expect((device?.expires ?? 0) - Date.now() / 1000).toBeGreaterThan(364 * 86_400);

	// A click on a marked button is an event; the visitor said yes after the page opened, so from now on
	// (once the counting script, loaded on that yes, is running: a click in the first moment may pass).
	await expect(async () => {
		await page.getByRole('button', { name: 'Manage Cookie Preferences' }).click();
		await dialog.getByRole('button', { name: 'Cancel' }).click();
		await expect.poll(batches.names, { timeout: 3_000 }).toContain('button_clicked');
	}).toPass({ timeout: 15_000 });
	const [first] = batches.requests;
	expect(JSON.parse(first.postData() ?? '{}')['uacf-id']).toBe(device?.value);

	// The page view comes 1.5 s after the page opened.
	await open(page, '/mvp');
	await expect.poll(batches.names, { timeout: 10_000 }).toContain('page_view');
	// Leaving sends the page's Web Vitals by beacon as it is hidden (read back on the team's page below).
	await open(page, '/us/');
	const sent = batches.requests.map((request) => request.postData() ?? '').join('\n');
	expect(sent).not.toMatch(/@|ana\.runner|"lat"|"lng"/);

	await logIn(page.request, baseURL as string, DEMO_ADMIN_LOGIN);
	await open(page, '/admin/analytics');
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Analytics');
	const today = new Date().toISOString().slice(0, 10);
	const row = page.getByTestId('analytics-daily').getByRole('row', { name: new RegExp(today) });
	const pageViews = Number(await row.getByRole('cell').nth(0).textContent());
	expect(pageViews).toBeGreaterThanOrEqual(1);
	await expect(
		page.getByTestId('analytics-events').getByRole('row', { name: /button_clicked/ }),
	).toBeVisible();
	// The beacon of the page left last may land a moment after the page that follows opened.
	await expect(async () => {
		await page.reload();
		await expect(
			page
				.getByTestId('analytics-vitals')
				.getByRole('row', { name: /MVP Landing LCP/ })
				.first(),
		).toBeVisible({ timeout: 1000 });
	}).toPass({ timeout: 10_000 });
	await expect(page.getByTestId('analytics-funnel-signup').getByRole('row', { name: /Visit/ })).toBeVisible();
	await expect(page.getByTestId('chart-daily')).toHaveAttribute('data-ready', '');
});

test('an EU1 visitor who has not chosen sends nothing and keeps no device id', async ({
	page,
	context,
	baseURL,
}) => {
	await setGeo(context, baseURL as string, 'FR');
	const batches = recordBatches(page);
	const vitals: string[] = [];
	page.on('request', (request) => {
		if (/web-vitals/.test(request.url())) vitals.push(request.url());
	});
	await open(page, '/');
	await page.getByRole('button', { name: 'Manage Cookie Preferences' }).click();
	await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
	await page.waitForTimeout(1600);
	await open(page, '/mvp');
	await page.waitForTimeout(3000);
	await open(page, '/us/');
	await page.waitForTimeout(500);
	expect(batches.requests).toEqual([]);
	expect(vitals).toEqual([]);
	expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain('ms_device_id');
});

test('only operators open /admin/analytics', async ({ page, baseURL }) => {
	const visitor = await page.goto('/admin/analytics');
	expect(new URL(visitor?.url() ?? '').pathname).toMatch(/^\/auth\/login\/?$/);
	// The login form, once awake, sends a visitor who has a session on to `next` by itself: signing in
	// before it woke would race that move against the next visit (under load, the visit was cut off).
	await expect(page.locator(HYDRATING_ISLANDS)).toHaveCount(0);
	await logIn(page.request, baseURL as string, DEMO_LOGIN);
	const member = await page.goto('/admin/analytics');
	expect(member?.status()).toBe(404);
	await expect(page.getByTestId('admin-analytics')).toHaveCount(0);
});
