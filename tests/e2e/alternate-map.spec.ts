import { readFileSync } from 'node:fs';
import type { Map as MaplibreMap } from 'maplibre-gl';
import sharp from 'sharp';
import { DEMO_LOGIN } from '../../src/lib/db/seed';
import { MAP_VIEW_STORAGE_KEY } from '../../src/lib/site/cookie-choices';
import { readMapPalette } from '../../src/lib/tiles/palette';
import { expect, type Page, test } from './fixtures';
import { forbidExternalRequests, VECTOR_MAP_MEMBER as ROLLOUT_MEMBER } from './helpers';

/**
 * The alternate map engine: a member in the "alternate maps type" rollout (playwright.config.ts lists this one
 * in ROLLOUTS) gets the base map drawn by MapLibre from the server's vector tiles, with the names of streets,
 * waterways and places, and the planner works on it as on raster tiles; a member outside the rollout never
 * loads MapLibre at all.
 */

/** Signs the rollout member up; a test run beside this one may have done it already. */
async function signUpRolloutMember(page: Page, baseURL: string) {
	const signup = await page.request.post('/api/auth/signup', {
		data: ROLLOUT_MEMBER,
		headers: { origin: new URL(baseURL).origin },
	});
	expect([201, 400, 409]).toContain(signup.status());
	await page.context().clearCookies();
}

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
	await signUpRolloutMember(page, baseURL as string);
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

/**
 * Keeps the MapLibre layers the page adds, so the test can ask MapLibre which names it placed: the page hands
 * no map object out. @maplibre/maplibre-gl-leaflet keeps a layer's MapLibre map in its `_glMap` when Leaflet
 * adds it; a setter of that name on Object.prototype sees that first assignment and keeps the layer.
 */
async function keepVectorLayers(page: Page) {
	await page.addInitScript(() => {
		const kept: object[] = [];
		Object.defineProperty(window, 'vectorLayersForTest', { value: kept });
		Object.defineProperty(Object.prototype, '_glMap', {
			configurable: true,
			set(this: object, map: unknown) {
				Object.defineProperty(this, '_glMap', { value: map, writable: true, configurable: true });
				kept.push(this);
			},
		});
	});
}

/** The names MapLibre has placed on the map now, with the layer that placed each. */
function placedNames(page: Page): Promise<{ layer: string; name: string }[]> {
	return page.evaluate(() => {
		type VectorLayer = { getMaplibreMap(): MaplibreMap | null };
		const kept = (window as unknown as { vectorLayersForTest: VectorLayer[] }).vectorLayersForTest;
		const map = kept.at(-1)?.getMaplibreMap();
		if (!map) return [];
		return map
			.queryRenderedFeatures()
			.filter((feature) => feature.layer.type === 'symbol')
			.map((feature) => ({ layer: feature.layer.id, name: String(feature.properties.name) }));
	});
}

/**
 * Pixels of the map's middle in or near the names' ink (a dark blue): nothing else the base map draws is that
 * dark, so with the names hidden there are none. The margins hold Leaflet's controls.
 */
async function inkPixels(shot: Buffer): Promise<number> {
	const { width, height } = await sharp(shot).metadata();
	const { data } = await sharp(shot)
		.extract({ left: 60, top: 20, width: width - 120, height: height - 60 })
		.removeAlpha()
		.raw()
		.toBuffer({ resolveWithObject: true });
	let count = 0;
	for (let i = 0; i < data.length; i += 3) {
		const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
		if (r < 110 && g < 120 && b < 150 && b >= r) count++;
	}
	return count;
}

test('the vector map names streets, waterways and places', async ({ page, baseURL }, testInfo) => {
	test.setTimeout(90_000);
	await signUpRolloutMember(page, baseURL as string);
	const external = await forbidExternalRequests(page, baseURL as string);
	const requested = recordRequests(page);
	const errors: string[] = [];
	page.on('pageerror', (error) => errors.push(error.message));
	await keepVectorLayers(page);
	// Paxtang at zoom 16: Derry Street runs through the village, Spring Creek below it.
	await page.addInitScript(([key, view]) => localStorage.setItem(key, view), [
		MAP_VIEW_STORAGE_KEY,
		JSON.stringify({ lat: 40.257, lng: -76.8345, zoom: 16 }),
	] as const);
	await openPlanner(page, ROLLOUT_MEMBER);
	await expect(page.locator('[data-testid="planner-map"] canvas.maplibregl-canvas')).toBeVisible({
		timeout: 15_000,
	});

	const hasName = (names: { layer: string; name: string }[], layer: string, name?: string) =>
		names.some((placed) => placed.layer === layer && (name === undefined || placed.name === name));
	await expect
		.poll(
			async () => {
				const names = await placedNames(page);
				return [
					hasName(names, 'road-tertiary-label', 'Derry Street'),
					hasName(names, 'road-minor-label'),
					hasName(names, 'waterway-label', 'Spring Creek'),
					hasName(names, 'place-village', 'Paxtang'),
				];
			},
			{ timeout: 20_000 },
		)
		.toEqual([true, true, true, true]);
	// The names are drawn, not only placed: their ink is on the map.
	const shot = await page.getByTestId('planner-map').screenshot();
	await testInfo.attach('names at zoom 16', { body: shot, contentType: 'image/png' });
	expect(await inkPixels(shot)).toBeGreaterThan(1000);
	// No glyph ranges (`…/0-255.pbf`) are asked for: the letters come from the fonts the page already has.
	expect(requested.filter((path) => /\/\d+-\d+\.pbf$/.test(path))).toEqual([]);
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
