import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { DEMO_LOGIN } from '../../src/lib/db/seed';
import { readMapPalette } from '../../src/lib/tiles/palette';
import { forbidExternalRequests } from './helpers';

/**
 * The alternate map engine: a member in the "alternate maps type" rollout (playwright.config.ts lists this one
 * in ROLLOUTS) gets the base map drawn by MapLibre from the server's vector tiles, and the planner works on it as
 * on raster tiles; a member outside the rollout never loads MapLibre at all.
 */

const ROLLOUT_MEMBER = {
	first_name: 'Vera',
	last_name: 'Vector',
	// Its username, `alternatemaps`, is the one the test server's ROLLOUTS setting names.
	email: 'alternate.maps@mapstride.example',
	password: 'Maple-Vector-Trail-2026',
	birthdate: '1990-02-02',
	gender: 'F',
	location: { country: 'US', region: 'PA', locality: 'Harrisburg' },
	// Agreed at signup, as the signup form does, so logging in goes straight to the planner.
	consents: { terms_of_use: true, privacy_policy: true },
};

/** Signs in through the login page, as a person would, and opens the planner. */
async function openPlanner(page: Page, login: { email: string; password: string }) {
	await page.goto('/auth/login?next=%2Froutes%2Fcreate%2F');
	await page.getByRole('textbox', { name: 'Email' }).fill(login.email);
	await page.locator('input[name="password"]').fill(login.password);
	await page.getByRole('button', { name: 'Log in' }).click();
	await page.waitForURL('**/routes/create/');
	await expect(page.getByTestId('planner-map')).toBeVisible();
}

/** Clicks the map at an offset in pixels from its centre. */
async function clickMap(page: Page, dx: number, dy: number) {
	const map = page.getByTestId('planner-map');
	const box = await map.boundingBox();
	if (!box) throw new Error('The map has no box.');
	await map.click({ position: { x: box.width / 2 + dx, y: box.height / 2 + dy } });
}

function recordRequests(page: Page): string[] {
	const urls: string[] = [];
	page.on('request', (request) => urls.push(new URL(request.url()).pathname));
	return urls;
}

const palette = readMapPalette(
	readFileSync(new URL('../../src/styles/_tokens.scss', import.meta.url), 'utf8'),
);

/** How many pixels of the map's screenshot have each of these colours. */
async function pixelsOfColours(page: Page, colours: string[]): Promise<number[]> {
	const shot = await page.getByTestId('planner-map').screenshot();
	const { data } = await sharp(shot).removeAlpha().raw().toBuffer({ resolveWithObject: true });
	const wanted = colours.map((hex) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)));
	const counts = colours.map(() => 0);
	for (let i = 0; i < data.length; i += 3) {
		wanted.forEach(([r, g, b], k) => {
			if (Math.abs(data[i] - r) + Math.abs(data[i + 1] - g) + Math.abs(data[i + 2] - b) <= 6) counts[k]++;
		});
	}
	return counts;
}

const isVectorTile = (path: string) => /^\/tiles\/\d+\/\d+\/\d+\.pbf$/.test(path);
const isRasterTile = (path: string) => /^\/tiles\/\d+\/\d+\/\d+(@2x)?\.png$/.test(path);
const isMapLibre = (path: string) => /maplibre|vector-base-layer/i.test(path);

test('a member in the alternate maps rollout plans a route on the vector map', async ({ page, baseURL }) => {
	test.setTimeout(90_000);
	const signup = await page.request.post('/api/auth/signup', {
		data: ROLLOUT_MEMBER,
		headers: { origin: new URL(baseURL as string).origin },
	});
	// The other viewport's run may have signed her up already.
	expect([201, 400, 409]).toContain(signup.status());
	await page.context().clearCookies();
	const external = await forbidExternalRequests(page, baseURL as string);
	const requested = recordRequests(page);
	const errors: string[] = [];
	page.on('pageerror', (error) => errors.push(error.message));

	await openPlanner(page, ROLLOUT_MEMBER);
	const canvas = page.locator('[data-testid="planner-map"] canvas.maplibregl-canvas');
	await expect(canvas).toBeVisible({ timeout: 15_000 });
	await expect.poll(() => requested.filter(isVectorTile).length, { timeout: 15_000 }).toBeGreaterThan(0);
	// MapLibre has drawn the base map in the palette's colours: land, and streets in the road colour.
	await expect
		.poll(async () => Math.min(...(await pixelsOfColours(page, [palette.land, palette.road]))), {
			timeout: 15_000,
		})
		.toBeGreaterThan(500);
	// The vector map replaces the raster tiles; it does not come on top of them.
	expect(requested.filter(isRasterTile)).toEqual([]);
	await expect(page.locator('[data-testid="planner-map"] img.leaflet-tile')).toHaveCount(0);

	// Leaflet still takes the clicks: points are added and the routed line is drawn over the vector map.
	await clickMap(page, -90, -60);
	await expect(page.getByTestId('planner-summary')).toContainText('1 point');
	await clickMap(page, 80, 50);
	await expect(page.getByTestId('planner-summary')).toContainText('2 points');
	await expect(page.getByTestId('planner-gap').first()).toHaveAttribute('data-status', 'routed', {
		timeout: 15_000,
	});
	await expect(page.locator('path.planner-leg--routed')).toHaveCount(1);
	await expect(page.locator('.planner-pin')).toHaveCount(2);

	expect(external).toEqual([]);
	expect(errors).toEqual([]);
});

test('a member outside the rollout gets raster tiles and never loads MapLibre', async ({ page, baseURL }) => {
	const external = await forbidExternalRequests(page, baseURL as string);
	const requested = recordRequests(page);
	await openPlanner(page, DEMO_LOGIN);
	await expect(page.locator('[data-testid="planner-map"] img.leaflet-tile').first()).toBeVisible({
		timeout: 15_000,
	});
	await expect.poll(() => requested.filter(isRasterTile).length).toBeGreaterThan(0);
	await clickMap(page, -60, -40);
	await expect(page.getByTestId('planner-summary')).toContainText('1 point');
	expect(requested.filter(isMapLibre)).toEqual([]);
	expect(requested.filter(isVectorTile)).toEqual([]);
	await expect(page.locator('canvas.maplibregl-canvas')).toHaveCount(0);
	expect(external).toEqual([]);
});
