import { expect, test } from './fixtures';
import { expectNoSeriousA11yIssues } from './helpers';

/**
 * A hotel guest in the partner's app opens the routes near their hotel, reads one and downloads
 * it; an app that names no place, or one without routes, gets the location page.
 */
const hotel = '/mobile/marriott_routes?lat=40.2637&lng=-76.8839&name=Riverfront%20Hotel';

test('a hotel guest picks a route near the hotel, reads it and takes it along', async ({ page }) => {
	await page.goto(hotel);
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Routes near Riverfront Hotel');
	// The app draws its own chrome.
	await expect(page.locator('header, footer')).toHaveCount(0);
	const list = page.getByTestId('hotel-routes').getByRole('listitem');
	expect(await list.count()).toBeGreaterThan(0);
	const starts = await list.locator('span').allTextContents();
	const away = starts.map((text) => Number(/starts ([\d.]+) (?:km|mi) away/.exec(text)?.[1]));
	expect(away).toEqual([...away].sort((a, b) => a - b));
	await expectNoSeriousA11yIssues(page);

	const first = list.first().getByRole('link');
	const name = (await first.textContent()) ?? '';
	await first.click();
	const route = page.getByTestId('hotel-route');
	await expect(route.getByRole('heading', { level: 1 })).toHaveText(name);
	await expect(route.locator('svg polyline').first()).toBeVisible();
	await expect(route).toContainText(/starts [\d.]+ (km|mi) from the hotel/);
	await expectNoSeriousA11yIssues(page);
	const gpx = await page.request.get(
		(await route.getByRole('link', { name: /GPX/ }).getAttribute('href')) ?? '',
	);
	expect(gpx.status()).toBe(200);
	expect(await gpx.text()).toContain(`<name>${name}</name>`);

	await route.getByRole('link', { name: '← Routes near Riverfront Hotel' }).click();
	await expect(page).toHaveURL(/\/mobile\/marriott_routes\?/);
	await expect(page.getByTestId('hotel-routes')).toBeVisible();
});

test('no place, a place without routes and a route no longer shared each get their page', async ({
	page,
}) => {
	for (const address of [
		'/mobile/marriott_routes',
		'/mobile/marriott_routes?lat=0&lng=0',
		'/mobile/marriott_routes?lat=91&lng=x',
	]) {
		const answer = await page.goto(address);
		expect(answer?.status()).toBe(200);
		await expect(page).toHaveURL(/\/mobile\/marriott_routes\/location_error$/);
		await expect(page.getByTestId('hotel-location-error')).toBeVisible();
	}
	const answer = await page.goto('/mobile/marriott_routes/details?lat=40.2637&lng=-76.8839&route=999999');
	expect(answer?.status()).toBe(200);
	await expect(page.getByTestId('hotel-not-found')).toHaveText(/Route not found/);
	await expectNoSeriousA11yIssues(page);
});
