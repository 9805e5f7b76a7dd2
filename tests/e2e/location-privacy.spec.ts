import { expect, test } from './fixtures';
import { expectNoSeriousA11yIssues, forbidExternalRequests } from './helpers';

/**
 * A new member hides their home: a privacy zone found by address, another clicked on the map, one
 * deleted, and more of every workout's ends hidden; all of it still there after a reload.
 */
test('a member adds privacy zones by address and on the map, deletes one and hides more of the ends', async ({
	page,
	baseURL,
}, testInfo) => {
	test.setTimeout(60_000);
	await forbidExternalRequests(page, baseURL as string);
	const email = `zones-${testInfo.project.name}-${Date.now()}@example.test`;
	const password = 'Quiet-Harbour-Lantern-27';
	const signup = await page.request.post('/api/auth/signup', {
		data: {
			first_name: 'Zoe',
			last_name: 'Zone',
			email,
			password,
			birthdate: '1987-02-02',
			gender: 'F',
			location: { country: 'US' },
		},
	});
	expect(signup.status()).toBe(201);
	expect((await page.request.post('/api/auth/login', { data: { email, password } })).status()).toBe(200);

	await page.goto('/account/location_privacy');
	await expect(page.getByRole('link', { name: 'Location privacy' })).toHaveAttribute('aria-current', 'page');
	const settings = page.getByTestId('location-privacy');
	await expect(settings.getByText('You have no privacy zones yet.')).toBeVisible();
	// Location privacy is on from the start: the first and last 200 m are hidden.
	await expect(settings.getByLabel('Hide from others')).toHaveValue('200');

	// Adding with no point chosen says what is missing.
	await settings.getByRole('button', { name: 'Add zone' }).click();
	await expect(settings.getByRole('alert')).toHaveText(/Choose the point to hide first/);

	// By address: the place search finds it, the radius goes from 400 m to 800 m by keyboard.
	await settings.getByLabel('Address or place').fill('Harrisburg');
	await settings.getByRole('button', { name: 'Find' }).click();
	await expect(settings.getByTestId('zone-point')).toContainText('Harrisburg');
	const radius = settings.getByRole('slider');
	await radius.focus();
	for (let i = 0; i < 4; i++) await radius.press('ArrowRight');
	await expect(radius).toHaveAttribute('aria-valuetext', /^800 m/);
	await settings.getByLabel('Name (optional)').fill('Home');
	await settings.getByRole('button', { name: 'Add zone' }).click();
	const zones = settings.getByRole('list', { name: 'Your privacy zones' });
	await expect(zones.getByRole('listitem')).toHaveCount(1);
	await expect(zones.getByRole('listitem').first()).toContainText('Home · radius 800 m');

	// On the map: a click chooses the point; the smallest radius is 200 m.
	const map = settings.getByRole('application', { name: 'Map: click to choose the point to hide' });
	await map.click({ position: { x: 60, y: 60 } });
	await expect(settings.getByTestId('zone-point')).toContainText('the point you clicked on the map');
	await radius.focus();
	await radius.press('Home');
	await expect(radius).toHaveAttribute('aria-valuetext', /^200 m/);
	await settings.getByLabel('Name (optional)').fill('Office');
	await settings.getByRole('button', { name: 'Add zone' }).click();
	await expect(zones.getByRole('listitem')).toHaveCount(2);
	await expect(zones.getByRole('listitem').nth(1)).toContainText('Office · radius 200 m');

	await zones.getByRole('button', { name: 'Delete Office' }).click();
	await expect(zones.getByRole('listitem')).toHaveCount(1);
	await expect(settings.getByRole('status').filter({ hasText: 'Zone "Office" deleted.' })).toBeVisible();

	await settings.getByLabel('Hide from others').selectOption('600');
	await settings.getByRole('button', { name: 'Save', exact: true }).click();
	await expect(
		settings.getByText('Others no longer see the first and last 600 m of your workouts.'),
	).toBeVisible();

	await page.reload();
	await expect(zones.getByRole('listitem')).toHaveCount(1);
	await expect(zones).toContainText('Home · radius 800 m');
	await expect(settings.getByLabel('Hide from others')).toHaveValue('600');
	await expectNoSeriousA11yIssues(page);
});
