import { expect, test } from './fixtures';
import { expectNoSeriousA11yIssues, signUp } from './helpers';

/**
 * A member connects the built-in test device cloud on the connected-apps page (allowing Mapstride on
 * the cloud's consent page), records a run on its test watch, finds it brought in as a workout, and
 * disconnects; a refusal at the cloud connects nothing.
 */
test('a member connects a device cloud, and what the watch records becomes a workout', async ({
	browser,
	baseURL,
}) => {
	const { page } = await signUp(browser, baseURL as string, 'Devi', `${Date.now()}`);
	await page.goto('/account/connected_apps');
	const devices = page.getByTestId('device-connections');
	await expect(devices).toContainText('Test connection');

	// Refused at the cloud: the member is told, and nothing is connected.
	await devices.getByRole('button', { name: 'Connect Test device cloud' }).click();
	await expect(page.getByTestId('test-cloud-consent')).toContainText('not a real device');
	await page.getByRole('button', { name: 'Deny' }).click();
	await expect(page.getByTestId('device-connect-problem')).toHaveText(
		'Test device cloud was not connected: access was not allowed.',
	);
	await page.getByRole('link', { name: 'Back to connected apps' }).click();

	await devices.getByRole('button', { name: 'Connect Test device cloud' }).click();
	await expectNoSeriousA11yIssues(page);
	await page.getByRole('button', { name: 'Allow' }).click();
	await expect(page).toHaveURL(/\/account\/connected_apps\?device_connected=test$/);
	await expect(page.getByTestId('connected-apps-notice')).toHaveText(
		'Test device cloud is connected. Its activities of the last day are on their way.',
	);
	const connection = page.getByTestId('device-connection-test');
	await expect(connection).toBeVisible();

	await connection.getByRole('link', { name: 'test watch' }).click();
	await page.getByRole('radio', { name: 'A run' }).check();
	await page.getByRole('button', { name: 'Record on the test watch' }).click();
	await expect(page.getByTestId('test-watch-notice')).toContainText('Mapstride was told');
	await expect(page.getByTestId('test-watch-activities')).toContainText(
		'Easy run through Paxtang (test watch)',
	);
	await expectNoSeriousA11yIssues(page);

	// The sync runs in the background: the page shows it once it is done.
	await expect(async () => {
		await page.goto('/account/connected_apps');
		await expect(
			page
				.getByTestId('device-connection-test')
				.getByRole('link', { name: 'Easy run through Paxtang (test watch)' }),
		).toBeVisible({ timeout: 1000 });
	}).toPass({ timeout: 20_000 });
	await expect(page.getByTestId('device-connection-test')).toContainText('imported');
	await expectNoSeriousA11yIssues(page);
	await page.getByRole('link', { name: 'Easy run through Paxtang (test watch)' }).click();
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Easy run through Paxtang (test watch)');

	// Sync now finds nothing new; Disconnect ends the connection and keeps the workout.
	await page.goto('/account/connected_apps');
	await page.getByRole('button', { name: 'Sync Test device cloud now' }).click();
	await expect(page.getByTestId('connected-apps-notice')).toContainText('Syncing');
	await page.getByRole('button', { name: 'Disconnect Test device cloud' }).click();
	await expect(page.getByTestId('connected-apps-notice')).toHaveText(
		'Test device cloud is disconnected. The workouts it brought in stay yours.',
	);
	await expect(page.getByTestId('device-connection-test')).toHaveCount(0);
	await expect(page.getByRole('button', { name: 'Connect Test device cloud' })).toBeVisible();
	await page.goto('/dashboard/?view=list');
	await expect(
		page.getByTestId('calendar-list').getByRole('link', { name: /Easy run through Paxtang \(test watch\)/ }),
	).toBeVisible();
	await page.context().close();
});
