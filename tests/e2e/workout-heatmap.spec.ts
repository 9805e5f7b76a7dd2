import { DEMO_LOGIN } from '../../src/lib/db/seed';
import type { TrackHeatmap } from '../../src/lib/stats/contract';
import { expect, type Page, test } from './fixtures';
import { expectNoSeriousA11yIssues, forbidExternalRequests, logIn, open } from './helpers';

/** A blank 1×1 PNG: map tiles are never fetched for real in tests. */
const BLANK_TILE = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
	'base64',
);

/** Pixels of the heat layer's canvas that something was drawn on. */
async function drawnPixels(page: Page): Promise<number> {
	return page.getByTestId('track-heatmap-canvas').evaluate((canvas) => {
		const element = canvas as HTMLCanvasElement;
		const context = element.getContext('2d') as CanvasRenderingContext2D;
		const data = context.getImageData(0, 0, element.width, element.height).data;
		let drawn = 0;
		for (let at = 3; at < data.length; at += 4) if (data[at] > 0) drawn++;
		return drawn;
	});
}

/** What the heatmap page says it shows, as a number. */
async function shownCount(page: Page): Promise<number> {
	const count = page.getByTestId('track-heatmap-count');
	await expect(count).toHaveText(/^\d[\d,]* workouts? shown$/);
	return Number(((await count.textContent()) ?? '').replace(/[^\d]/g, ''));
}

/**
 * The heatmap answer the page itself receives while `act` runs. Other tests add workouts to the
 * demo member meanwhile, so what the page says is compared with what the page was sent.
 */
async function pageAnswer(page: Page, query: RegExp, act: () => Promise<unknown>): Promise<TrackHeatmap> {
	const [response] = await Promise.all([
		page.waitForResponse(
			(answer) => answer.url().includes('/api/v7.1/workout_heatmap/') && query.test(answer.url()),
		),
		act(),
	]);
	expect(response.status()).toBe(200);
	return (await response.json()) as TrackHeatmap;
}

/**
 * The demo member opens the heatmap of her own workouts: the page says how many it draws (as many
 * as the API gives her), the canvas over the map holds them, and the filters change with the keyboard.
 */
test('the demo member sees her workouts drawn as a heatmap and filters it by keyboard', async ({
	page,
	baseURL,
	request,
}) => {
	test.setTimeout(90_000);
	await forbidExternalRequests(page, baseURL as string);
	await page.route('**/tiles/**', (route) => route.fulfill({ contentType: 'image/png', body: BLANK_TILE }));

	// Signed out: sent to log in, and back here after.
	await page.goto('/workouts/heatmap/');
	await expect(page).toHaveURL(/\/auth\/login\?next=%2Fworkouts%2Fheatmap%2F/);

	const token = await logIn(request, baseURL as string, DEMO_LOGIN);
	const heatmapFor = async (query: string) => {
		const answer = await request.get(`/api/v7.1/workout_heatmap/${query}`, {
			headers: { authorization: `Bearer ${token}` },
		});
		expect(answer.status()).toBe(200);
		return (await answer.json()) as TrackHeatmap;
	};
	const everything = await heatmapFor('');
	expect(everything.workout_count).toBeGreaterThan(0);

	await logIn(page.request, baseURL as string, DEMO_LOGIN);
	// Found from the stats page's tabs.
	await open(page, '/workout/stats/');
	const shown = await pageAnswer(page, /workout_heatmap\//, () =>
		page.getByRole('link', { name: 'Heatmap' }).click(),
	);
	await expect(page).toHaveURL(/\/workouts\/heatmap\/$/);
	await expect(page.getByRole('heading', { name: 'Workout Heatmap' })).toBeVisible();
	expect(shown.workout_count).toBeGreaterThan(0);
	expect(await shownCount(page)).toBe(shown.workout_count);
	const map = page.getByTestId('track-heatmap-map');
	await expect(map).toHaveAttribute('data-drawn', String(shown.lines.length));
	await expect(map).toBeVisible();
	await expect.poll(() => drawnPixels(page)).toBeGreaterThan(500);
	await expectNoSeriousA11yIssues(page);

	// The first activity group, picked with the arrow key.
	const groups = page.getByTestId('track-heatmap-group');
	await groups.focus();
	const group = everything.groups[0];
	const ofGroup = await pageAnswer(page, new RegExp(`activity_groups=${group}(&|$)`), () =>
		page.keyboard.press('ArrowDown'),
	);
	await expect(groups).toHaveValue(group);
	await expect(page).toHaveURL(new RegExp(`activity_groups=${group}`));
	expect(ofGroup.workout_count).toBeLessThanOrEqual(shown.workout_count);
	await expect(page.getByTestId('track-heatmap-count')).toHaveText(
		`${ofGroup.workout_count} ${ofGroup.workout_count === 1 ? 'workout' : 'workouts'} shown`,
	);
	await expect(map).toHaveAttribute('data-drawn', String(ofGroup.lines.length));
	await expect.poll(() => drawnPixels(page)).toBeGreaterThan(0);

	// Then the newest year, from the keyboard too.
	await page.keyboard.press('Tab');
	const years = page.getByTestId('track-heatmap-year');
	await expect(years).toBeFocused();
	const year = everything.years[0];
	const ofYear = await pageAnswer(page, new RegExp(`year=${year}`), () => page.keyboard.press('ArrowDown'));
	await expect(years).toHaveValue(String(year));
	await expect(page.getByTestId('track-heatmap-count')).toHaveText(
		`${ofYear.workout_count} ${ofYear.workout_count === 1 ? 'workout' : 'workouts'} shown`,
	);

	// A year without workouts: nothing drawn, and the way to add one.
	await open(page, '/workouts/heatmap/?year=1990');
	await expect(page.getByTestId('track-heatmap-count')).toHaveText('0 workouts shown');
	await expect(page.getByTestId('track-heatmap-map')).toBeHidden();
	const upload = page.getByTestId('track-heatmap-empty').getByRole('link', { name: 'Upload a workout' });
	await expect(upload).toHaveAttribute('href', '/workout/import/');
	await upload.click();
	await expect(page).toHaveURL(/\/workout\/import\/$/);
	await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});
