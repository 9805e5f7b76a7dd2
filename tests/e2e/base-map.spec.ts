import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { readMapPalette } from '../../src/lib/tiles/palette';
import { expect, type Page, test } from './fixtures';
import { forbidExternalRequests, open } from './helpers';

/**
 * The built-in base map, for real: these tests do not stub /tiles/ (the other browser tests do,
 * to stay fast). The demo world seeds a public walk in Paxtang, Harrisburg.
 */

const MAP_PALETTE = readMapPalette(readFileSync('src/styles/_tokens.scss', 'utf8'));

async function findPaxtangWalk(page: Page): Promise<number> {
	const response = await page.request.get('/api/v7.1/route/?text_search=Paxtang&limit=5');
	expect(response.status()).toBe(200);
	const body = (await response.json()) as { _embedded: { routes: { _links: { self: { id: string }[] } }[] } };
	return Number(body._embedded.routes[0]._links.self[0].id);
}

/** The largest channel difference between two #rrggbb colours (palette PNGs shift a shade or so). */
function difference(a: string, b: string): number {
	const channels = (hex: string) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
	const [p, q] = [channels(a), channels(b)];
	return Math.max(...p.map((value, i) => Math.abs(value - q[i])));
}

async function decode(page: Page, src: string) {
	const response = await page.request.get(src);
	expect(response.status()).toBe(200);
	expect(response.headers()['content-type']).toBe('image/png');
	const { data } = await sharp(await response.body())
		.removeAlpha()
		.raw()
		.toBuffer({ resolveWithObject: true });
	const counts = new Map<string, number>();
	for (let i = 0; i < data.length; i += 3) {
		const colour = `#${[data[i], data[i + 1], data[i + 2]].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
		counts.set(colour, (counts.get(colour) ?? 0) + 1);
	}
	const [dominant] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0];
	return { distinct: counts.size, dominant };
}

test('the route map of a Harrisburg walk shows streets drawn by this server @desktop-layout', async ({
	page,
	baseURL,
}) => {
	const external = await forbidExternalRequests(page, baseURL as string);
	const tileStatuses: number[] = [];
	page.on('response', (response) => {
		if (new URL(response.url()).pathname.startsWith('/tiles/')) tileStatuses.push(response.status());
	});
	const id = await findPaxtangWalk(page);
	await open(page, `/routes/view/${id}`);
	const map = page.getByTestId('route-leaflet');
	const loaded = map.locator('img.leaflet-tile-loaded');
	await expect(loaded.first()).toBeVisible({ timeout: 15_000 });
	await expect.poll(() => loaded.count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(4);
	const sources = await loaded.evaluateAll((images) =>
		images
			.filter((image) => (image as HTMLImageElement).naturalWidth > 0)
			.map((image) => (image as HTMLImageElement).src),
	);
	expect(sources.length).toBeGreaterThanOrEqual(4);
	// Tiles under the route have streets, green and buildings: many colours, not one grey.
	const tiles = await Promise.all(sources.slice(0, 4).map((src) => decode(page, src)));
	for (const tile of tiles) {
		expect(tile.distinct).toBeGreaterThan(8);
		expect(difference(tile.dominant, MAP_PALETTE.no_data)).toBeGreaterThan(4);
	}
	expect(tileStatuses.length).toBeGreaterThan(0);
	expect(tileStatuses.every((status) => status === 200 || status === 304)).toBe(true);
	await expect(map.locator('.leaflet-control-attribution')).toContainText('OpenStreetMap contributors');
	expect(external).toEqual([]);
});

test('far from the bundled regions the map draws the world layer, not an empty grey @desktop-layout', async ({
	page,
	baseURL,
}) => {
	const external = await forbidExternalRequests(page, baseURL as string);
	const id = await findPaxtangWalk(page);
	await open(page, `/routes/view/${id}`);
	const map = page.getByTestId('route-leaflet');
	await expect(map.locator('img.leaflet-tile-loaded').first()).toBeVisible({ timeout: 15_000 });
	// Out to zoom 3, where every tile but the one holding Harrisburg lies outside the regions.
	const zoomOut = map.getByRole('button', { name: 'Zoom out' });
	const z3 = map.locator('img.leaflet-tile-loaded[src*="/tiles/3/"]');
	for (let i = 0; i < 14 && (await z3.count()) === 0; i++) {
		if (await zoomOut.isEnabled()) await zoomOut.click();
		await page.waitForTimeout(350);
	}
	await expect.poll(() => z3.count(), { timeout: 15_000 }).toBeGreaterThan(1);
	const outside = await z3.evaluateAll((images) =>
		images.map((image) => (image as HTMLImageElement).src).filter((src) => !/\/tiles\/3\/2\/3[.@]/.test(src)),
	);
	// Land or sea with borders and names on it: the map's own colours, never the grey of no data.
	for (const src of outside.slice(0, 3)) {
		const tile = await decode(page, src);
		expect(
			Math.min(difference(tile.dominant, MAP_PALETTE.land), difference(tile.dominant, MAP_PALETTE.water)),
		).toBeLessThanOrEqual(3);
		expect(tile.distinct).toBeGreaterThan(3);
	}
	// Zoomed out this far no street is expected, so the map makes no note of missing streets.
	await expect(map.getByTestId('street-detail-note')).toBeHidden();
	expect(external).toEqual([]);
});
