import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { expect, test } from './fixtures';
import { registerMember } from './helpers';

/**
 * A TCX from a real watch (running_activity_2.tcx, dblock/tcx, MIT; see tests/fixtures/workouts/README.md)
 * uploaded by a new member: its laps show the time each lap took, as the watch counted it (TotalTimeSeconds),
 * where every row used to read "—". The file has no heart rate, so that column rightly says so.
 */
test('a TCX upload shows every lap with its time', async ({ page, baseURL }) => {
	test.setTimeout(120_000);
	const stamp = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
	await registerMember(page.request, baseURL as string, {
		first_name: 'Lara',
		last_name: 'Laps',
		email: `laps-${stamp}@example.test`,
		password: 'Gravel-Loop-Lantern-58',
	});
	const text = gunzipSync(readFileSync('tests/fixtures/workouts/tcx/running_activity_2.tcx.gz'));
	await page.goto('/workout/import/');
	await page
		.locator('#workout-files')
		.setInputFiles([{ name: 'running_activity_2.tcx', mimeType: 'application/octet-stream', buffer: text }]);
	const item = page.getByTestId('upload-item');
	await expect(item).toHaveAttribute('data-status', 'imported', { timeout: 60_000 });
	await item.getByRole('link').click();
	await page.waitForURL(/\/workout\/\d+$/);

	const rows = page.getByTestId('laps').locator('tbody tr');
	await expect(rows).toHaveCount(11);
	const times = await rows.locator('td:nth-child(3)').allTextContents();
	// TotalTimeSeconds of the eleven laps: 276, 299, 258, 273, 362, 250, 298, 373, 1204, 1476 and 190 s.
	expect(times).toEqual([
		'4:36',
		'4:59',
		'4:18',
		'4:33',
		'6:02',
		'4:10',
		'4:58',
		'6:13',
		'20:04',
		'24:36',
		'3:10',
	]);
	await expect(rows.first().locator('td').nth(0)).toHaveText(/^0\.62 mi$|^1\.00 km$/);
	// No heart rate was recorded at all.
	expect(new Set(await rows.locator('td:nth-child(4)').allTextContents())).toEqual(new Set(['—']));
});
