import { readFileSync } from 'node:fs';
import { makeZip } from '../helpers/zips';
import { expect, test } from './fixtures';
import { expectNoSeriousA11yIssues, forbidExternalRequests, signUp } from './helpers';

/**
 * A new member moves over from another service: uploads the export zip and sees its workouts come
 * in file by file, then adds a pair of shoes, picks them on a workout and sees the distance worn.
 */

const FIXTURES = 'tests/fixtures/workouts';

test('a member imports an export zip, then tracks the distance on a pair of shoes @desktop-layout', async ({
	browser,
	baseURL,
}) => {
	test.setTimeout(120_000);
	const stamp = `${Date.now()}`;
	const { member, page } = await signUp(browser, baseURL as string, 'Gear', stamp);
	await forbidExternalRequests(page, baseURL as string);

	const hike = readFileSync(`${FIXTURES}/gpx/Mojstrovka.gpx`);
	const ski = readFileSync(`${FIXTURES}/tcx/cross-country-skiing_activity_1.tcx`);
	const zip = await makeZip([
		{ name: 'activities.csv', data: 'Activity ID,Activity Name\n1,Mojstrovka\n' },
		{ name: 'activities/1.gpx', data: hike },
		{ name: 'activities/2.tcx', data: ski },
		{ name: 'activities/3.gpx', data: hike },
		{ name: 'activities/4.gpx', data: '<gpx><trk>' },
	]);

	await page.goto('/workout/import/');
	await page
		.locator('#bulk-zip')
		.setInputFiles({ name: 'export.zip', mimeType: 'application/zip', buffer: zip });
	const progress = page.getByTestId('bulk-progress');
	await expect(progress).toContainText('Done: 4 of 4 files read.', { timeout: 30_000 });
	await expect(progress).toContainText('2 imported, 1 skipped as duplicates, 1 not imported.');
	const files = page.getByTestId('bulk-file');
	await expect(files).toHaveCount(4);
	await expect(files.nth(0)).toHaveAttribute('data-status', 'imported');
	await expect(files.nth(2)).toHaveAttribute('data-status', 'duplicate');
	await expect(files.nth(3)).toHaveAttribute('data-status', 'failed');
	await expectNoSeriousA11yIssues(page);

	// Back on the page later, the import is listed and opens with each file's outcome.
	await page.goto('/workout/import/');
	const past = page.getByTestId('past-imports').getByRole('listitem');
	await expect(past).toHaveCount(1);
	await expect(past).toContainText(
		'Done, 4 of 4 files read, 2 imported, 1 skipped as duplicates, 1 not imported.',
	);
	await past.getByRole('link').click();
	await expect(progress).toContainText('Done: 4 of 4 files read.');
	await expect(files).toHaveCount(4);
	const hikeHref = (await files.nth(0).getByRole('link').getAttribute('href')) as string;
	expect(hikeHref).toMatch(/^\/workout\/\d+$/);
	const hikeId = hikeHref.split('/').at(-1);
	await files.nth(0).getByRole('link').click();
	await page.waitForURL(`**${hikeHref}`);
	// The workout page's islands renew the session cookie; leaving mid-renewal would lose the new one.
	await page.waitForLoadState('networkidle');

	// Gear lives beside the connected apps.
	await page.goto('/account/connected_apps');
	await page.getByTestId('gear-link').getByRole('link', { name: 'Gear' }).click();
	await page.waitForURL('**/account/gear');
	const add = page.getByTestId('add-gear');
	const unitLabel = (await add.locator('label[for="gear-start"]').textContent()) ?? '';
	const unit = unitLabel.includes('(mi)') ? 'mi' : 'km';
	const metresPerUnit = unit === 'mi' ? 1609.344 : 1000;
	await add.getByLabel('Kind').selectOption({ label: 'Shoes' });
	await add.getByLabel('Nickname').fill('Trail pair');
	await add.getByLabel('Brand').fill('Salomon');
	await add.getByLabel(/^Distance before adding it/).fill('100');
	await add.getByRole('button', { name: 'Add gear' }).click();
	await expect(page.getByTestId('gear-notice')).toHaveText('Gear added.');
	const shoes = page.getByTestId('gear-list').locator('li', { hasText: 'Trail pair' });
	await expect(shoes.getByTestId('distance-worn')).toContainText(`100.00 ${unit} over 0 workouts`);

	// Picked on the imported hike, its distance counts.
	await page.goto(`/workout/edit/${hikeId}`);
	await page.getByLabel('Gear').selectOption({ label: 'Trail pair' });
	await page.getByTestId('save-workout').click();
	await page.waitForURL(`**/workout/${hikeId}`);
	await page.waitForLoadState('networkidle');
	const stored = await (
		await page.request.get(`/api/v7.1/workout/${hikeId}/`, {
			headers: { authorization: `Bearer ${member.token}` },
		})
	).json();
	expect(stored.gear).toBeGreaterThan(0);
	const worn = (100 * metresPerUnit + stored.aggregates.distance_total) / metresPerUnit;
	await page.goto('/account/gear');
	await expect(shoes.getByTestId('distance-worn')).toContainText(`${worn.toFixed(2)} ${unit} over 1 workout`);
	await expectNoSeriousA11yIssues(page);
	// The connected-apps page lists it too.
	await page.goto('/account/connected_apps');
	await expect(page.getByTestId('gear-link')).toContainText(`Trail pair: ${worn.toFixed(2)} ${unit} worn`);

	// Retired, it stays with its distance.
	await page.goto('/account/gear');
	await shoes.getByRole('button', { name: 'Retire Trail pair' }).click();
	await expect(page.getByTestId('gear-notice')).toHaveText('Gear retired.');
	await expect(shoes).toContainText('Retired');
	await expect(shoes.getByTestId('distance-worn')).toContainText(`${worn.toFixed(2)} ${unit}`);
	await page.context().close();
});
