import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DEMO_LOGIN } from '../../src/lib/db/seed';
import { expect, type Page, test } from './fixtures';
import { forbidExternalRequests, HYDRATING_ISLANDS } from './helpers';

/**
 * An operator adds a city no demo covers — a few streets of central Rome — with `npm run regions -- add`
 * while the server runs; without a restart, members find its streets by name and plan routes that follow
 * them, and the base map draws them. `remove` takes it all away again.
 */

const ROME = join(import.meta.dirname, '../fixtures/regions/rome.osm.pbf');
const run = promisify(execFile);
const regions = (...args: string[]) =>
	run(join('node_modules', '.bin', 'tsx'), ['src/lib/regions/cli.ts', ...args], {
		env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR },
	});

async function findsPlace(page: Page, name: string): Promise<boolean> {
	const response = await page.request.get(
		`/api/geocode/search?${new URLSearchParams({ q: name, format: 'geojson', limit: '1' })}`,
	);
	const body = (await response.json()) as { features: { properties: { name: string } }[] };
	return body.features.some((feature) => feature.properties.name === name);
}

test('a region added while the server runs gives streets, place search and road-following routes', async ({
	page,
	baseURL,
}) => {
	test.setTimeout(120_000);
	expect(await findsPlace(page, 'Via del Corso')).toBe(false);
	const added = await regions('add', ROME);
	expect(added.stdout).toMatch(/Added rome: .* 185 road nodes/);
	try {
		await expect.poll(() => findsPlace(page, 'Via del Corso'), { timeout: 30_000 }).toBe(true);
		const listed = await (await page.request.get('/tiles/regions.json')).json();
		expect(listed.regions.map((region: { name: string }) => region.name)).toContain('rome');
		// The base map's vector tile over Piazza Venezia (zoom 16) carries the street names.
		const tile = await page.request.get('/tiles/16/35040/24353.pbf');
		expect(tile.ok()).toBe(true);
		expect((await tile.body()).toString('latin1')).toContain('Via del Corso');

		await forbidExternalRequests(page, baseURL as string);
		await page.goto('/auth/login?next=%2Froutes%2Fcreate%2F');
		await expect(page.locator(HYDRATING_ISLANDS)).toHaveCount(0);
		await page.getByRole('textbox', { name: 'Email' }).fill(DEMO_LOGIN.email);
		await page.locator('input[name="password"]').fill(DEMO_LOGIN.password);
		await page.getByRole('button', { name: 'Log in' }).click();
		await page.waitForURL('**/routes/create/');
		const addPoint = page.getByRole('textbox', { name: 'Add a point' });
		await addPoint.fill('Piazza Venezia');
		await page.getByRole('button', { name: 'Add', exact: true }).click();
		await expect(page.getByTestId('planner-summary')).toContainText('1 point');
		await addPoint.fill('Via del Corso');
		await page.getByRole('button', { name: 'Add', exact: true }).click();
		await expect(page.getByTestId('planner-summary')).toContainText('2 points');
		const gap = page.getByTestId('planner-gap');
		await expect(gap).toHaveAttribute('data-status', 'routed', { timeout: 15_000 });
		await expect(gap).toContainText('following roads');
	} finally {
		const removed = await regions('remove', 'rome');
		expect(removed.stdout).toMatch(/Removed rome/);
	}
	await expect.poll(() => findsPlace(page, 'Via del Corso'), { timeout: 30_000 }).toBe(false);
});
