import { readFileSync } from 'node:fs';
import { DEMO_FRIEND_LOGIN, DEMO_LOGIN } from '../../src/lib/db/seed';
import { readWorkoutFileSync } from '../../src/lib/workout-files';
import { runGpx } from '../helpers/run-gpx';
import { expect, type Page, test } from './fixtures';
import { expectNoSeriousA11yIssues, forbidExternalRequests, logIn } from './helpers';

/**
 * A member's recorded workout from import to deletion: its page with figures, map, linked charts
 * and splits; editing, cutting, downloading and deleting it; and a stranger who may not see it.
 */

/** A blank 1×1 PNG: map tiles are never fetched for real in tests. */
const BLANK_TILE = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
	'base64',
);

const distanceValue = async (page: Page) =>
	Number.parseFloat((await page.getByTestId('workout-distance').textContent()) ?? 'NaN');

test('a member views, edits, cuts, downloads and deletes a recorded workout', async ({
	page,
	baseURL,
	browser,
}) => {
	// One member's whole journey across six pages and two browser contexts.
	test.setTimeout(90_000);
	const external = await forbidExternalRequests(page, baseURL as string);
	await page.route('**/tiles/**', (route) => route.fulfill({ contentType: 'image/png', body: BLANK_TILE }));
	const token = await logIn(page.request, baseURL as string, DEMO_LOGIN);
	// A 20-minute run at 3 m/s (3.6 km), on a start of its own so a retried test is not a duplicate.
	const start = new Date(
		Date.UTC(2026, 3, 1, 6) + Math.floor(Math.random() * 100_000) * 60_000,
	).toISOString();
	const uploadedGpx = runGpx({ minutes: 20, mps: 3, start });
	const imported = await page.request.post('/api/v7.1/device/file_import/?privacy=0&name=Riverside%20run', {
		headers: { authorization: `Bearer ${token}` },
		multipart: {
			file: {
				name: 'run.gpx',
				mimeType: 'application/gpx+xml',
				buffer: Buffer.from(uploadedGpx),
			},
		},
	});
	expect(imported.status()).toBe(201);
	const { id } = (await imported.json()) as { id: number };

	await page.goto(`/workout/${id}`);
	await expect(page.getByRole('heading', { level: 1, name: 'Riverside run' })).toBeVisible();
	const distance = page.getByTestId('workout-distance');
	await expect(distance).toHaveText(/^(3\.60 km|2\.24 mi)$/);
	const unit = (await distance.textContent())?.endsWith('mi') ? 'mi' : 'km';
	await expect(page.getByTestId('workout-elapsed')).toHaveText('20:00');
	await expect(page.getByTestId('workout-rate')).toHaveText(unit === 'km' ? '5:33 /km' : '8:56 /mi');
	await expect(page.getByTestId('workout-hr')).toContainText('bpm');
	// Splits per km (or mile): three whole km and a remainder, or two whole miles and a remainder.
	await expect(page.getByTestId('splits').locator('tbody tr')).toHaveCount(unit === 'km' ? 4 : 3);
	await expect(page.getByTestId('best-efforts')).toContainText('1 km');
	// Where its efforts stand among the member's own ("2nd best 1 km"), the top three, as the records API says.
	const records = await page.request.get(`/api/v7.1/personal_records/?workout=${id}`, {
		headers: { authorization: `Bearer ${token}` },
	});
	const ranks = ((await records.json()) as { workout_ranks: { rank: number; text: string }[] }).workout_ranks;
	const podium = ranks.filter((entry) => entry.rank <= 3).map((entry) => entry.text);
	if (podium.length > 0) await expect(page.getByTestId('record-ranks').locator('li')).toHaveText(podium);
	else await expect(page.getByTestId('record-ranks')).toHaveCount(0);
	// Heart-rate zone analysis is an MVP feature: the demo member is offered the checkout instead
	// (tests/e2e/premium.spec.ts reads the zones as a member).
	const lockedZones = page.getByTestId('heart-rate-zones-locked');
	await expect(lockedZones.getByRole('link', { name: 'Get MVP' })).toHaveAttribute(
		'href',
		'/premium/checkout',
	);
	await expect(page.getByTestId('heart-rate-zones')).toHaveCount(0);

	// The server draws each chart's line, so the page shows it before any script has run.
	const served = (await (await page.request.get(`/workout/${id}`)).text()).split('data-testid="chart-');
	for (const channel of ['pace', 'elevation', 'heartRate', 'cadence'])
		expect(served.find((chart) => chart.startsWith(`${channel}"`))).toMatch(
			/class="workout-chart__first"[\s\S]*<path d="M\d+ \d+ \d+ \d+/,
		);
	// The charts draw the channels the recording has, and none it lacks.
	const charts = page.getByTestId('workout-charts');
	await charts.scrollIntoViewIfNeeded();
	for (const channel of ['pace', 'elevation', 'heartRate', 'cadence'])
		await expect(page.getByTestId(`chart-${channel}`).locator('canvas')).toBeAttached();
	await expect(page.getByTestId('chart-power')).toHaveCount(0);
	await expect(page.getByTestId('chart-speed')).toHaveCount(0);

	// Hovering a chart marks the same moment on the map.
	const map = page.getByTestId('workout-map');
	await expect(map.locator('path.leaflet-interactive').first()).toBeAttached();
	await expect(map).toHaveAttribute('data-cursor', 'hidden');
	const over = page.getByTestId('chart-heartRate').locator('.u-over');
	await over.scrollIntoViewIfNeeded();
	const box = await over.boundingBox();
	if (!box) throw new Error('The heart rate chart has no size');
	await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
	await expect(map).toHaveAttribute('data-cursor', 'shown');
	await expect(map.locator('.workout-map__cursor')).toBeAttached();

	// The page fits a phone and has no serious accessibility problem.
	await page.setViewportSize({ width: 375, height: 800 });
	await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
	await expectNoSeriousA11yIssues(page);
	await page.setViewportSize({ width: 1280, height: 800 });

	// Editing the name, while the member's phone saves a note in between: the first save is refused.
	const auth = { authorization: `Bearer ${token}` };
	await page.getByTestId('edit-workout').click();
	await page.getByLabel('Name', { exact: true }).fill('Riverside tempo');
	const loaded = (await (await page.request.get(`/api/v7.1/workout/${id}/`, { headers: auth })).json()) as {
		version: number;
	};
	const elsewhere = await page.request.put(`/api/v7.1/workout/${id}/`, {
		headers: auth,
		data: { notes: 'Saved from the phone', version: loaded.version },
	});
	expect(elsewhere.status()).toBe(200);
	await page.getByTestId('save-workout').click();
	await expect(page.getByTestId('stale-workout')).toContainText('This workout was changed elsewhere');
	await page.getByRole('link', { name: 'Reload' }).click();
	await expect(page.getByLabel('Notes')).toHaveValue('Saved from the phone');
	await page.getByLabel('Name', { exact: true }).fill('Riverside tempo');
	await page.getByTestId('save-workout').click();
	await expect(page).toHaveURL(new RegExp(`/workout/${id}$`));
	await expect(page.getByRole('heading', { level: 1, name: 'Riverside tempo' })).toBeVisible();
	const before = await distanceValue(page);

	// Cutting the first five minutes: the distance drops by about a quarter.
	await page.getByTestId('cut-workout').click();
	const startField = page.getByLabel('New start (h:mm:ss from the start)');
	await startField.fill('5:00');
	// The sliders over the chart pick up what was typed, and move the fields in turn.
	const startSlider = page.getByTestId('cut-start-slider');
	await expect(startSlider).toHaveValue('300');
	await startSlider.fill('240');
	await expect(startField).toHaveValue('4:00');
	await startSlider.fill('300');
	await expect(startField).toHaveValue('5:00');
	await expect(page.getByTestId('workout-cut').locator('canvas')).toBeAttached();
	await page.getByTestId('save-cut').click();
	await expect(page).toHaveURL(new RegExp(`/workout/${id}$`));
	await expect(page.getByTestId('workout-elapsed')).toHaveText('15:00');
	const after = await distanceValue(page);
	expect(after).toBeLessThan(before);
	expect(after).toBeCloseTo(before * 0.75, 1);

	// Downloading GPX gives the kept samples.
	const downloading = page.waitForEvent('download');
	await page.getByTestId('download-gpx').click();
	const download = await downloading;
	expect(download.suggestedFilename()).toBe('Riverside tempo.gpx');
	const file = readWorkoutFileSync(new Uint8Array(readFileSync((await download.path()) as string)));
	expect(file.points).toHaveLength(91);

	// The original file comes back as uploaded, before the cut, under its own name.
	const downloadingOriginal = page.waitForEvent('download');
	await page.getByTestId('download-original').click();
	const originalDownload = await downloadingOriginal;
	expect(originalDownload.suggestedFilename()).toBe('run.gpx');
	expect(readFileSync((await originalDownload.path()) as string, 'utf8')).toBe(uploadedGpx);

	// Copying logs a hand-entered workout with the same distance and time on another day.
	const movingText = await page.getByTestId('workout-moving').textContent();
	const distanceText = await page.getByTestId('workout-distance').textContent();
	await page.getByRole('link', { name: 'Copy', exact: true }).click();
	await page.getByLabel(/^Start/).fill('2026-06-02T07:00');
	await page.getByTestId('save-workout').click();
	await expect(page).toHaveURL(/\/workout\/\d+$/);
	const copyId = Number(new URL(page.url()).pathname.split('/').at(-1));
	expect(copyId).not.toBe(id);
	await expect(page.getByTestId('workout-distance')).toHaveText(distanceText as string);
	await expect(page.getByTestId('workout-moving')).toHaveText(movingText as string);
	await expect(page.getByTestId('splits')).toHaveCount(0);
	expect((await page.request.delete(`/api/v7.1/workout/${copyId}/`, { headers: auth })).status()).toBe(204);
	await page.goto(`/workout/${id}`);

	// Without script the page still gives the figures, splits and downloads.
	const plain = await browser.newContext({ javaScriptEnabled: false });
	const plainPage = await plain.newPage();
	await logIn(plainPage.request, baseURL as string, DEMO_LOGIN);
	await plainPage.goto(`${baseURL}/workout/${id}`);
	await expect(plainPage.getByTestId('workout-distance')).toHaveText(distanceText as string);
	await expect(plainPage.getByTestId('splits').locator('tbody tr').first()).toBeVisible();
	await expect(plainPage.getByTestId('download-gpx')).toBeVisible();
	await plain.close();

	// Another member (even a friend: it is "only me") gets the not-found page and no download. Signed-out
	// visitors are sent to log in by the workout pages' guard before anything is read.
	const stranger = await browser.newContext();
	const strangerPage = await stranger.newPage();
	await logIn(strangerPage.request, baseURL as string, DEMO_FRIEND_LOGIN);
	const answer = await strangerPage.goto(`${baseURL}/workout/${id}`);
	expect(answer?.status()).toBe(404);
	await expect(strangerPage.getByText('Riverside tempo')).toHaveCount(0);
	expect((await strangerPage.request.get(`${baseURL}/workout/download/${id}?format=gpx`)).status()).toBe(404);
	expect((await strangerPage.request.get(`${baseURL}/workout/download/${id}?format=original`)).status()).toBe(
		404,
	);
	await stranger.close();

	// Deleting asks first, then the workout is gone.
	await page.getByTestId('delete-workout').click();
	await page.getByRole('button', { name: 'Delete workout' }).click();
	await expect(page).toHaveURL(/\/workout\/create$/);
	expect((await page.request.get(`/workout/${id}`)).status()).toBe(404);
	expect(external).toEqual([]);
});
