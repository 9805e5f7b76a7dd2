import { runGpx } from '../helpers/run-gpx';
import { expect, test } from './fixtures';
import { registerMember } from './helpers';

/**
 * A member in Slovenia, where tracks and heart rate are used only with consent, signs up agreeing to
 * the terms alone and uploads a run. They are told at upload and on the workout page that its track
 * and heart rate wait for their consent, and see distance and time meanwhile; once they give both
 * consents in the privacy centre, the map and the heart-rate chart appear.
 */
test('a run waits for consent to precise location and health data, and appears once it is given', async ({
	page,
	baseURL,
}) => {
	test.setTimeout(120_000);
	const stamp = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
	await registerMember(page.request, baseURL as string, {
		first_name: 'Sara',
		last_name: 'Soglasje',
		email: `consent-${stamp}@example.test`,
		password: 'Ljubljana-Castle-Steps-7',
		location: { country: 'SI', region: '', locality: 'Ljubljana' },
	});
	await page.goto('/workout/import/');
	await page.locator('#workout-files').setInputFiles([
		{
			name: 'run.gpx',
			mimeType: 'application/gpx+xml',
			buffer: Buffer.from(runGpx({ minutes: 20, mps: 3 })),
		},
	]);
	const item = page.getByTestId('upload-item');
	await expect(item).toHaveAttribute('data-status', 'imported', { timeout: 60_000 });
	await expect(item.getByTestId('upload-held-back')).toContainText(
		"This workout's GPS track and heart rate are stored but kept out of use: you have not consented to precise location and health data.",
	);
	await item.getByRole('link', { name: /Morning run|open the workout/ }).click();
	await page.waitForURL(/\/workout\/\d+$/);
	const workoutUrl = page.url();

	await expect(page.getByTestId('workout-held-back')).toContainText('Its distance and time are shown.');
	await expect(page.getByTestId('workout-distance')).toContainText(/3\.6\d? km|2\.2\d? mi/);
	await expect(page.getByTestId('workout-hr')).toHaveCount(0);
	await expect(page.getByTestId('workout-map')).toHaveCount(0);
	await expect(page.getByTestId('cut-workout')).toHaveCount(0);

	await page.getByTestId('workout-held-back').getByRole('link', { name: 'Review your consents' }).click();
	await page.waitForURL(/\/privacy_center\/consents\/edit/);
	await page.getByLabel('Precise location').check();
	await page.getByLabel('Health data').check();
	await page.getByTestId('edit-save').click();
	await page.waitForURL((url) => !url.pathname.endsWith('/edit'));

	// The member's recordings are brought back in the background, in moments.
	await expect
		.poll(
			async () => {
				await page.goto(workoutUrl);
				return page.getByTestId('workout-held-back').count();
			},
			{ timeout: 30_000 },
		)
		.toBe(0);
	await expect(page.getByTestId('workout-hr')).toContainText('bpm');
	// The run goes due north: its line on the map is one straight stroke.
	await expect(page.getByTestId('workout-map').locator('path.workout-map__line')).toHaveAttribute(
		'd',
		/^M\d+ \d+L\d+ \d+/,
	);
	await expect(page.getByTestId('chart-heartRate')).toBeVisible();
	await expect(page.getByTestId('cut-workout')).toBeVisible();
});
