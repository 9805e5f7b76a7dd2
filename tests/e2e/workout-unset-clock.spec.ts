import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { registerMember } from './helpers';

/**
 * A GPX from a device whose clock was never set (Mojstrovka.gpx, tkrajina/gpxpy, Apache-2.0; see
 * tests/fixtures/workouts/README.md): every point says 13 Dec 1901. The member who uploads it is told on the
 * import result and on the workout page that its times are unknown; the workout keeps its track and distance
 * and is dated by the file (14 Dec 2010), not 1901.
 */
test('a file with a 1901 clock is imported with a clear word about its dates', async ({ page, baseURL }) => {
	test.setTimeout(120_000);
	const stamp = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
	await registerMember(page.request, baseURL as string, {
		first_name: 'Clara',
		last_name: 'Clock',
		email: `clock-${stamp}@example.test`,
		password: 'Gravel-Loop-Lantern-58',
	});
	await page.goto('/workout/import/');
	await page.locator('#workout-files').setInputFiles([
		{
			name: 'Mojstrovka.gpx',
			mimeType: 'application/octet-stream',
			buffer: readFileSync('tests/fixtures/workouts/gpx/Mojstrovka.gpx'),
		},
	]);
	const item = page.getByTestId('upload-item');
	await expect(item).toHaveAttribute('data-status', 'imported', { timeout: 60_000 });
	await expect(item.getByTestId('upload-notice')).toContainText('no real times');
	await item.getByRole('link').click();
	await page.waitForURL(/\/workout\/\d+$/);

	await expect(page.getByTestId('workout-times-unknown')).toContainText(
		'duration, pace and splits are unknown; its track and distance are kept',
	);
	const start = page.locator('.workout-view__meta time');
	await expect(start).toHaveAttribute('datetime', /^2010-12-14T/);
	await expect(start).not.toContainText('1901');
	await expect(page.locator('main')).not.toContainText('1901');
	// No splits of 0:00: without times there are none to show.
	await expect(page.getByRole('heading', { name: /^Splits per/ })).toHaveCount(0);
});

/**
 * A FIT the Strava Android app left unfinished when it crashed (strava-android-app-201.10-b1218918.fit,
 * dtcooper/python-fitparse, MIT): the first five minutes can be read. The member keeps them and is told, on
 * the import result and on the workout page, what was kept and what the file's own summary claims; another
 * member who may see the workout is not shown the owner's file notes.
 */
test('a recording cut off when its app crashed is kept as far as it goes, and the owner is told', async ({
	page,
	browser,
	baseURL,
}) => {
	test.setTimeout(120_000);
	const stamp = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
	const { token } = await registerMember(page.request, baseURL as string, {
		first_name: 'Cora',
		last_name: 'Cutoff',
		email: `cutoff-${stamp}@example.test`,
		password: 'Gravel-Loop-Lantern-58',
	});
	await page.goto('/workout/import/');
	await page.locator('#workout-files').setInputFiles([
		{
			name: 'strava.fit',
			mimeType: 'application/octet-stream',
			buffer: readFileSync('tests/fixtures/workouts/fit/strava-android-app-201.10-b1218918.fit'),
		},
	]);
	const item = page.getByTestId('upload-item');
	await expect(item).toHaveAttribute('data-status', 'imported', { timeout: 60_000 });
	await expect(item.getByTestId('upload-notice')).toContainText('This FIT file is incomplete');
	await item.getByRole('link').click();
	await page.waitForURL(/\/workout\/\d+$/);
	const notes = page.getByTestId('workout-file-notes');
	await expect(notes).toContainText('The 472 points that could be read up to 14:18:24 UTC were kept.');
	await expect(notes).toContainText('Its own summary speaks of 59 min and 11.27 km.');

	// Shared with everyone, the workout opens for a visitor without the owner's notes.
	const id = page.url().split('/').at(-1) as string;
	const shared = await page.request.put(`/api/v7.1/workout/${id}/`, {
		data: { privacy: 3 },
		headers: { authorization: `Bearer ${token}`, origin: new URL(baseURL as string).origin },
	});
	expect(shared.status()).toBe(200);
	const visitor = await browser.newPage();
	await visitor.goto(`${baseURL}/workout/${id}`);
	await expect(visitor.getByRole('heading', { level: 1 })).toBeVisible();
	await expect(visitor.getByTestId('workout-file-notes')).toHaveCount(0);
	await visitor.close();
});
