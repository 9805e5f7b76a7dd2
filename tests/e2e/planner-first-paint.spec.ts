import { DEMO_LOGIN } from '../../src/lib/db/seed';
import { MAP_VIEW_STORAGE_KEY } from '../../src/lib/site/cookie-choices';
import { expect, type Page, test } from './fixtures';
import { forbidExternalRequests, logIn } from './helpers';

/**
 * The planner's pages show the base map while the planner's script is on its way, where the planner will open (a
 * route it edits, framed), and the planner's map then shows those very tiles, taken from the browser's cache
 * rather than asked for again.
 */

type Tile = { src: string; left: number; top: number };

/** Opens the planner with its script held back, reads the first paint's tiles, then lets the planner start. */
async function firstPaintThenMap(
	page: Page,
	address = '/routes/create/',
): Promise<{ preview: Tile[]; map: Tile[]; asked: string[] }> {
	let release = () => {};
	const held = new Promise<void>((resolve) => {
		release = resolve;
	});
	await page.route(/\/_astro\/Planner\.[\w-]+\.js$/, async (route) => {
		await held;
		await route.continue();
	});
	const asked: string[] = [];
	const onRequest = (request: { url: () => string }) => {
		// Tile images only: the map also asks once where regions are loaded (/tiles/regions.json).
		if (/\/tiles\/\d+\/\d+\/\d+/.test(request.url())) asked.push(request.url());
	};
	page.on('request', onRequest);
	await page.goto(address);
	const images = page.getByTestId('planner-preview').locator('img');
	await expect(images).not.toHaveCount(0);
	// Every tile of the first paint has arrived and shows.
	await expect
		.poll(() =>
			images.evaluateAll((all) => all.every((image) => (image as HTMLImageElement).naturalWidth > 0)),
		)
		.toBe(true);
	const preview = await images.evaluateAll((all) =>
		all.map((image) => ({
			src: (image as HTMLImageElement).src,
			left: Number.parseFloat((image as HTMLImageElement).style.left),
			top: Number.parseFloat((image as HTMLImageElement).style.top),
		})),
	);
	release();
	const tiles = page.getByTestId('planner-map').locator('img.leaflet-tile');
	await expect(tiles).toHaveCount(preview.length);
	await expect(page.getByTestId('planner-map').locator('img.leaflet-tile-loaded')).toHaveCount(
		preview.length,
	);
	const map = await tiles.evaluateAll((all) =>
		all.map((image) => {
			const [left, top] = (image as HTMLImageElement).style.transform.match(/-?[\d.]+(?=px)/g) ?? [];
			return { src: (image as HTMLImageElement).src, left: Number(left), top: Number(top) };
		}),
	);
	page.off('request', onRequest);
	await page.unroute(/\/_astro\/Planner\.[\w-]+\.js$/);
	return { preview, map, asked };
}

const bySource = (tiles: Tile[]) => [...tiles].sort((a, b) => a.src.localeCompare(b.src));

test('the planner shows the map before its script arrives, and its map reuses those tiles', async ({
	page,
	baseURL,
}) => {
	test.setTimeout(60_000);
	await forbidExternalRequests(page, baseURL as string);
	await logIn(page.request, baseURL as string, DEMO_LOGIN);

	// A first visit opens on the default view, over Harrisburg.
	const first = await firstPaintThenMap(page);
	expect(first.preview.length).toBeGreaterThan(0);
	expect(first.preview.every((tile) => /\/tiles\/15\/\d+\/\d+(@2x)?\.png$/.test(tile.src))).toBe(true);
	// The same addresses at the same places: the map drawn before the script is the map the planner shows.
	expect(bySource(first.map)).toEqual(bySource(first.preview));
	// Each tile was asked of the server once: the planner's map took the first paint's from the cache.
	expect([...first.asked].sort()).toEqual(first.preview.map((tile) => tile.src).sort());

	// A member who left the planner over Andorra finds it there on the first paint too.
	await page.evaluate(([key, view]) => window.localStorage.setItem(key, view), [
		MAP_VIEW_STORAGE_KEY,
		JSON.stringify({ lat: 42.5078, lng: 1.5211, zoom: 14 }),
	] as const);
	const kept = await firstPaintThenMap(page);
	expect(kept.preview.every((tile) => /\/tiles\/14\/\d+\/\d+(@2x)?\.png$/.test(tile.src))).toBe(true);
	expect(bySource(kept.map)).toEqual(bySource(kept.preview));
});

test("the edit page shows the route's ground framed as the planner will frame it", async ({
	page,
	baseURL,
}) => {
	test.setTimeout(60_000);
	await forbidExternalRequests(page, baseURL as string);
	const token = await logIn(page.request, baseURL as string, DEMO_LOGIN);
	// A route across Harrisburg's riverside, longer one way than the other.
	const points = [
		{ lat: 40.2585, lng: -76.8861 },
		{ lat: 40.2655, lng: -76.8843 },
		{ lat: 40.2731, lng: -76.8902 },
	];
	const saved = await page.request.post('/api/v7.1/route/', {
		headers: { authorization: `Bearer ${token}` },
		data: {
			name: 'Riverside framed',
			privacy: 0,
			activity_type: 16,
			points: points.map((point, order) => ({ ...point, order, travel_mode: 'WALKING' })),
		},
	});
	expect(saved.status()).toBe(201);
	const { id } = await saved.json();

	const edit = await firstPaintThenMap(page, `/routes/edit/${id}`);
	expect(edit.preview.length).toBeGreaterThan(0);
	expect(bySource(edit.map)).toEqual(bySource(edit.preview));
	expect([...edit.asked].sort()).toEqual(edit.preview.map((tile) => tile.src).sort());
});
