import { readFileSync } from 'node:fs';
import { DEMO_LOGIN } from '../../src/lib/db/seed';
import { expect, type Page, test } from './fixtures';
import { expectNoSeriousA11yIssues, forbidExternalRequests, HYDRATING_ISLANDS, logIn } from './helpers';

/**
 * Adding workouts as the demo member: logging a run by hand (with clear messages for 75 minutes and
 * a date after today), then uploading a GPX, a TCX and a FIT file with progress, the same GPX again
 * (already imported) and a file without a workout in it.
 */

const FIXTURES = 'tests/fixtures/workouts';

async function logInThrough(page: Page, path: string) {
	await page.goto(path);
	await expect(page).toHaveURL(/\/auth\/login\?next=/);
	await page.getByRole('textbox', { name: 'Email' }).fill(DEMO_LOGIN.email);
	await page.locator('input[name="password"]').fill(DEMO_LOGIN.password);
	await page.getByRole('button', { name: 'Log in' }).click();
	await page.waitForURL(`**${path}`);
}

/**
 * A text fixture moved to another year, so this test's recordings are its own: the same file
 * uploaded by another test of the demo member would otherwise be "already imported".
 */
function movedRecording(path: string, from: string, year: number) {
	const text = readFileSync(`${FIXTURES}/${path}`, 'utf8').replaceAll(from, `${year}-`);
	return {
		name: path.split('/').at(-1) as string,
		mimeType: 'application/octet-stream',
		buffer: Buffer.from(text),
	};
}

const addDays = (date: string, days: number) =>
	new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

test('the demo member logs a run by hand and uploads workout files @desktop-layout', async ({
	page,
	baseURL,
}) => {
	test.setTimeout(120_000);
	await forbidExternalRequests(page, baseURL as string);
	await logInThrough(page, '/workout/create/');
	await expect(page.getByRole('link', { name: 'Log Manually' })).toHaveAttribute('aria-current', 'page');

	const form = page.getByTestId('workout-log');
	await form.getByLabel('Activity type').selectOption({ label: 'Run' });
	const today = await form.getByLabel('Date').inputValue();
	expect(today).toMatch(/^\d{4}-\d{2}-\d{2}$/);
	await expect(form.getByLabel('Date')).toHaveAttribute('max', today);

	// Minutes past 59 and a date after today are refused with clear messages, and nothing typed is lost.
	await form.getByLabel('Minutes').fill('75');
	await form.getByLabel('Date').fill(addDays(today, 2));
	await form.getByLabel('Name').fill('Riverside tempo run');
	await page.getByRole('button', { name: 'Save workout' }).click();
	const problems = page.getByRole('alert').filter({ hasText: 'Please fix these before saving' });
	await expect(problems).toContainText('Minutes must be a whole number from 0 to 59.');
	await expect(problems).toContainText('The date cannot be after today.');
	await expect(form.getByLabel('Name')).toHaveValue('Riverside tempo run');
	await expect(form.getByLabel('Minutes')).toHaveAttribute('aria-invalid', 'true');
	await expectNoSeriousA11yIssues(page);

	await form.getByLabel('Minutes').fill('45');
	await form.getByLabel('Seconds').fill('30');
	await form.getByLabel('Date').fill(addDays(today, -1));
	await form.getByLabel('Start time').fill('07:30');
	const distanceLabel = (await form.locator('label[for="workout-distance"]').textContent()) ?? '';
	const metresPerUnit = distanceLabel.includes('miles') ? 1609.344 : 1000;
	await form.getByLabel(/^Distance/).fill('8');
	// The calorie estimate follows the activity and the duration.
	await expect(page.getByTestId('calories-hint')).toHaveText(
		'Estimated from the activity, the duration and your weight.',
	);
	const calories = Number(await form.getByLabel('Calories (kcal)').inputValue());
	expect(calories).toBeGreaterThan(100);
	await form.getByLabel('Notes').fill('Negative splits along the river.');

	const saved = page.waitForResponse(
		(response) => response.url().endsWith('/api/v7.1/workout/') && response.request().method() === 'POST',
	);
	await page.getByRole('button', { name: 'Save workout' }).click();
	const answer = await saved;
	expect(answer.status()).toBe(201);
	// Saving opens the workout's page.
	await page.waitForURL(/\/workout\/\d+$/);
	const id = new URL(page.url()).pathname.split('/').at(-1);

	// What the API stored, read back as the member.
	const token = await logIn(page.request, baseURL as string, DEMO_LOGIN);
	const stored = await (
		await page.request.get(`/api/v7.1/workout/${id}/`, { headers: { authorization: `Bearer ${token}` } })
	).json();
	expect(stored).toMatchObject({
		name: 'Riverside tempo run',
		activity_type: 16,
		notes: 'Negative splits along the river.',
		aggregates: { elapsed_time_total: 2730, active_time_total: 2730 },
	});
	expect(stored.start_datetime.slice(0, 10)).toBe(addDays(today, -1));
	expect(stored.aggregates.distance_total).toBeCloseTo(8 * metresPerUnit, 0);
	expect(stored.aggregates.metabolic_energy_total).toBeCloseTo(calories * 4184, -3);

	// Uploading files: each shows its progress, then how it went.
	await page.goto('/workout/import/');
	await expect(page.getByRole('link', { name: 'Upload From File' })).toHaveAttribute('aria-current', 'page');
	// The answers wait a little, so the progress is there to see.
	await page.route('**/api/workout_uploads/**', async (route) => {
		await new Promise((resolve) => setTimeout(resolve, 800));
		await route.continue();
	});
	const year = 2000 + Math.floor(Math.random() * 9);
	const gpx = movedRecording('gpx/Mojstrovka.gpx', '2010-', year);
	const tcx = movedRecording('tcx/cross-country-skiing_activity_1.tcx', '2020-', year);
	const fitName = 'Edge810-Vector-2013-08-16-15-35-10.fit';
	const fit = {
		name: fitName,
		mimeType: 'application/octet-stream',
		buffer: readFileSync(`${FIXTURES}/fit/${fitName}`),
	};
	await page.locator('#workout-files').setInputFiles([gpx, tcx, fit]);
	const items = page.getByTestId('upload-item');
	await expect(items).toHaveCount(3);
	// Two at a time: the third waits its turn.
	await expect(items.nth(2)).toHaveAttribute('data-status', 'queued');
	await expect(items.nth(0).getByTestId('upload-progress')).toBeVisible();
	for (const index of [0, 1, 2]) {
		await expect(items.nth(index)).toHaveAttribute('data-status', 'imported', { timeout: 20_000 });
		await expect(items.nth(index).getByRole('link')).toHaveAttribute('href', /^\/workout\/\d+$/);
	}
	await expect(page.getByRole('status').filter({ hasText: 'files done' })).toHaveText('3 of 3 files done');
	const gpxWorkout = await items.nth(0).getByRole('link').getAttribute('href');

	await page.locator('#workout-files').setInputFiles([gpx]);
	await expect(items.nth(3)).toHaveAttribute('data-status', 'duplicate', { timeout: 20_000 });
	await expect(items.nth(3)).toContainText('Already imported');
	await expect(items.nth(3).getByRole('link')).toHaveAttribute('href', gpxWorkout as string);

	// On a slow connection the bar follows the bytes sent (the browser's upload progress events).
	await page.unroute('**/api/workout_uploads/**');
	const cdp = await page.context().newCDPSession(page);
	await cdp.send('Network.enable');
	await cdp.send('Network.emulateNetworkConditions', {
		offline: false,
		latency: 20,
		downloadThroughput: 5_000_000,
		uploadThroughput: 300_000,
	});
	await page
		.locator('#workout-files')
		.setInputFiles([`${FIXTURES}/fit/activity-large-fenxi2-multisport.fit`]);
	const bar = items.nth(4).getByTestId('upload-progress');
	await expect
		.poll(async () => Number((await bar.getAttribute('value')) ?? 0), { timeout: 10_000, intervals: [100] })
		.toBeGreaterThan(10);
	expect(Number(await bar.getAttribute('value'))).toBeLessThan(100);
	await expect(items.nth(4)).toHaveAttribute('data-status', 'imported', { timeout: 30_000 });
	await cdp.send('Network.emulateNetworkConditions', {
		offline: false,
		latency: 0,
		downloadThroughput: -1,
		uploadThroughput: -1,
	});

	// A planned route holds no recorded workout: the server's message says so.
	await page.locator('#workout-files').setInputFiles([`${FIXTURES}/gpx/route.gpx`]);
	await expect(items.nth(5)).toHaveAttribute('data-status', 'failed', { timeout: 20_000 });
	expect(
		((await items.nth(5).locator('.workout-import__failed').textContent()) ?? '').length,
	).toBeGreaterThan(15);
	await expectNoSeriousA11yIssues(page);
});

test('a file chosen before the page has woken up still uploads', async ({ page, baseURL }) => {
	const token = await logIn(page.request, baseURL as string, DEMO_LOGIN);
	// The page's script arrives only after the file is chosen, as on a slow phone.
	let release: () => void = () => {};
	const scriptHeld = new Promise<void>((resolve) => {
		release = resolve;
	});
	await page.route('**/_astro/*.js', async (route) => {
		await scriptHeld;
		await route.continue();
	});
	// Module scripts hold back DOMContentLoaded, so act as soon as the field is on screen.
	await page.goto('/workout/import/', { waitUntil: 'commit' });
	// Years of its own, so no other test's upload makes this one a duplicate (this file's samples say 1901).
	const year = 1990 + Math.floor(Math.random() * 9);
	await page.locator('#workout-files').setInputFiles([movedRecording('gpx/Mojstrovka.gpx', '1901-', year)]);
	release();
	const item = page.getByTestId('upload-item');
	await expect(item).toHaveCount(1);
	await expect(item).toHaveAttribute('data-status', 'imported', { timeout: 20_000 });
	const href = await item.getByRole('link').getAttribute('href');
	const removed = await page.request.delete(`/api/v7.1/workout/${href?.split('/').at(-1)}/`, {
		headers: { authorization: `Bearer ${token}` },
	});
	expect(removed.status()).toBe(204);
});

test('a visitor is sent to log in first', async ({ page }) => {
	for (const path of ['/workout/create/', '/workout/import/']) {
		await page.goto(path);
		await expect(page).toHaveURL(`/auth/login?next=${encodeURIComponent(path)}`);
	}
});

test('both pages fit a 375 px screen @small-screen-layout', async ({ page, baseURL }) => {
	await logIn(page.request, baseURL as string, DEMO_LOGIN);
	for (const path of ['/workout/create/', '/workout/import/']) {
		await page.goto(path);
		await expect(page.locator(HYDRATING_ISLANDS)).toHaveCount(0);
		if (path === '/workout/create/') await expect(page.getByLabel('Activity type')).toBeEnabled();
		const overflow = await page.evaluate(
			() => document.documentElement.scrollWidth - document.documentElement.clientWidth,
		);
		expect(overflow, path).toBeLessThanOrEqual(0);
		await expectNoSeriousA11yIssues(page);
	}
});

test('the Cookie Policy lists the activity type list kept in the browser', async ({ page }) => {
	await page.goto('/legal/cookies/');
	const row = page
		.getByRole('row')
		.filter({ has: page.getByRole('rowheader', { name: /mapstride:activity-types/ }) });
	await expect(row).toHaveCount(1);
	await expect(row).toContainText('30 days');
});
