import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Locator, type Page, test } from './fixtures';
import { forbidExternalRequests, logIn, VECTOR_MAP_MEMBER } from './helpers';

/**
 * Workouts far from every loaded region draw on the world layer: coast, borders and place names
 * around the line, on both map engines, compared with a stored look. The files are real device files
 * (tests/fixtures/workouts/README.md): a run on the Croatian coast and a walk in California.
 */

const WORKOUTS = {
	croatia: { file: 'tcx/running_activity_2.tcx.gz', mimeType: 'application/gzip' },
	california: { file: 'fit/garmin-fenix-5-walk.fit', mimeType: 'application/octet-stream' },
} as const;

function stamp(): string {
	return `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

/** Signs a member up (one run beside this one may have done it already) and signs them in. */
async function signIn(page: Page, baseURL: string, member: typeof VECTOR_MAP_MEMBER): Promise<string> {
	const origin = new URL(baseURL).origin;
	const signup = await page.request.post('/api/auth/signup', { data: member, headers: { origin } });
	expect([201, 400, 409]).toContain(signup.status());
	return logIn(page.request, baseURL, member);
}

/** Imports one of the files and opens its workout page; a file the member imported before opens that workout. */
async function openImported(page: Page, token: string, which: keyof typeof WORKOUTS) {
	const { file, mimeType } = WORKOUTS[which];
	const buffer = readFileSync(path.resolve('tests/fixtures/workouts', file));
	const imported = await page.request.post(`/api/v7.1/device/file_import/?privacy=0&name=${which}`, {
		headers: { authorization: `Bearer ${token}` },
		multipart: { file: { name: path.basename(file), mimeType, buffer } },
	});
	// 409 names the copy the member already has (the vector member imports it in each project).
	expect([201, 409]).toContain(imported.status());
	const body = (await imported.json()) as { id?: number; _links?: { existing: { id: string }[] } };
	const id = body.id ?? Number(body._links?.existing[0].id);
	await page.goto(`/workout/${id}`);
	return page.getByTestId('workout-map');
}

/**
 * From the line's own street zoom out to the region around it, one press at a time as a member
 * would, to zoom 8: names of cities and countries, coasts and borders show there.
 */
async function zoomOutForContext(map: Locator) {
	const zoomOut = map.getByRole('button', { name: 'Zoom out' });
	const zoom = async () => Number(await map.getAttribute('data-zoom'));
	for (let now = await zoom(); now > 8; now = await zoom()) {
		await zoomOut.click();
		// Leaflet drops a press made while it still animates the last one; press again then.
		await expect
			.poll(zoom, { timeout: 2_000 })
			.toBeLessThan(now)
			.catch(() => {});
	}
	expect(await zoom()).toBe(8);
}

for (const which of ['croatia', 'california'] as const) {
	test(`a workout in ${which} draws on the world layer, with a note about street detail`, async ({
		page,
		baseURL,
	}) => {
		const external = await forbidExternalRequests(page, baseURL as string);
		const token = await signIn(page, baseURL as string, {
			...VECTOR_MAP_MEMBER,
			first_name: 'World',
			last_name: 'Walker',
			email: `world.${stamp()}@mapstride.example`,
		});
		const map = await openImported(page, token, which);
		const tiles = map.locator('img.leaflet-tile');
		await expect.poll(() => tiles.count(), { timeout: 15_000 }).toBeGreaterThan(3);
		await expect(map.locator('img.leaflet-tile:not(.leaflet-tile-loaded)')).toHaveCount(0, {
			timeout: 20_000,
		});
		await expect(map.getByTestId('street-detail-note')).toHaveText(
			/^Street detail is not loaded for this area/,
		);
		await zoomOutForContext(map);
		await expect(map.locator('img.leaflet-tile:not(.leaflet-tile-loaded)')).toHaveCount(0, {
			timeout: 20_000,
		});
		// Coast, borders and names around the line, as stored; no note about streets at this scale.
		await expect(map.getByTestId('street-detail-note')).toBeHidden();
		await expect(map).toHaveScreenshot(`${which}-raster.png`, { maxDiffPixelRatio: 0.01, timeout: 20_000 });
		expect(external).toEqual([]);
	});
}

test('a workout in Croatia draws on the world layer on the vector map too', async ({ page, baseURL }) => {
	// Signing in through the page's own request context gives the page the member's session cookie,
	// from which it learns the member's rollouts.
	const token = await signIn(page, baseURL as string, VECTOR_MAP_MEMBER);
	const map = await openImported(page, token, 'croatia');
	await expect(map.locator('canvas.maplibregl-canvas')).toBeVisible({ timeout: 15_000 });
	await expect(map.locator('img.leaflet-tile')).toHaveCount(0);
	await expect(map.getByTestId('street-detail-note')).toHaveText(
		/^Street detail is not loaded for this area/,
	);
	await zoomOutForContext(map);
	await expect(map.getByTestId('street-detail-note')).toBeHidden();
	await expect(map).toHaveScreenshot('croatia-vector.png', { maxDiffPixelRatio: 0.02, timeout: 30_000 });
});
