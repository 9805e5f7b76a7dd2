import { DEMO_FRIEND_LOGIN, DEMO_LOGIN } from '../../src/lib/db/seed';
import { expect, type Page, test } from './fixtures';
import {
	centreOf,
	distanceFromLine,
	expectNoSeriousA11yIssues,
	forbidExternalRequests,
	pointAlongLine,
} from './helpers';

/**
 * Signs the page in as the demo member and finds three of her seeded workouts: a public long run, a run
 * with heart rate, cadence and power her friends may see, and a private tempo run.
 */
async function demoWorkouts(page: Page, baseURL: string) {
	const login = await page.request.post('/api/auth/login', {
		data: DEMO_LOGIN,
		headers: { origin: new URL(baseURL).origin },
	});
	expect(login.ok()).toBe(true);
	const { access_token: token, user } = await login.json();
	const listed = await page.request.get(`/api/v7.1/workout/?user=${user.id}&limit=100`, {
		headers: { authorization: `Bearer ${token}` },
	});
	const workouts = (await listed.json())._embedded.workouts as {
		name: string;
		privacy: number;
		_links: { self: { id: string }[] };
	}[];
	const longRun = workouts.find((workout) => workout.name === 'Long run to Reservoir Park');
	const tempo = workouts.find((workout) => workout.name === 'Tempo laps' && workout.privacy === 0);
	const easyRun = workouts.find((workout) => workout.name === 'Easy run through Paxtang');
	expect(longRun).toBeDefined();
	expect(tempo).toBeDefined();
	expect(easyRun).toBeDefined();
	return {
		longRunPath: `/workout/${longRun?._links.self[0].id}`,
		easyRunPath: `/workout/${easyRun?._links.self[0].id}`,
		tempoPath: `/workout/${tempo?._links.self[0].id}`,
	};
}

/** A blank 1×1 PNG: map tiles are never fetched for real in tests. */
const BLANK_TILE = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
	'base64',
);

/**
 * On a fresh start the demo member's seeded workouts have pages worth opening: a map, charts,
 * splits and the weather from the configured provider; her friend sees the shared ones, not the private.
 */
test('the demo member and her friend open seeded workouts with map, charts and weather', async ({
	page,
	browser,
	baseURL,
}) => {
	test.setTimeout(60_000);
	await forbidExternalRequests(page, baseURL as string);
	const { longRunPath, tempoPath } = await demoWorkouts(page, baseURL as string);

	await page.goto(longRunPath);
	await expect(page.getByTestId('workout-name')).toHaveText('Long run to Reservoir Park');
	await expect(page.getByTestId('workout-map').locator('path.leaflet-interactive').first()).toBeAttached();
	await expect(page.getByRole('heading', { name: 'Charts' })).toBeVisible();
	await expect(page.getByTestId('splits').locator('tbody tr')).not.toHaveCount(0);
	const weather = page.getByTestId('workout-weather');
	await expect(weather).toContainText('Light rain');
	await expect(weather).toContainText(/14(\.2)? °C|58 °F/);
	await expect(weather.getByRole('link', { name: 'Weather data by Open-Meteo.com' })).toHaveAttribute(
		'href',
		'https://open-meteo.com/',
	);
	await expectNoSeriousA11yIssues(page);

	const friendContext = await browser.newContext({ baseURL });
	try {
		const friend = await friendContext.newPage();
		const friendLogin = await friend.request.post('/api/auth/login', {
			data: DEMO_FRIEND_LOGIN,
			headers: { origin: new URL(baseURL as string).origin },
		});
		expect(friendLogin.ok()).toBe(true);
		await friend.goto(longRunPath);
		await expect(friend.getByTestId('workout-name')).toHaveText('Long run to Reservoir Park');
		await expect(friend.getByTestId('workout-weather')).toContainText('Light rain');
		const hidden = await friend.goto(tempoPath);
		expect(hidden?.status()).toBe(404);
	} finally {
		await friendContext.close();
	}
});

test('the workout charts and map point at each other; a friend is never shown a hidden part', async ({
	page,
	browser,
	baseURL,
}) => {
	// Two members' pages, and a hundred key presses checked one by one.
	test.setTimeout(90_000);
	await forbidExternalRequests(page, baseURL as string);
	await page.route('**/tiles/**', (route) => route.fulfill({ contentType: 'image/png', body: BLANK_TILE }));
	const { easyRunPath } = await demoWorkouts(page, baseURL as string);
	await page.goto(easyRunPath);
	const map = page.getByTestId('workout-map');
	const line = map.locator('path.workout-map__line');
	const ring = map.locator('path.workout-map__cursor');
	const label = map.locator('.workout-map__reading');
	const start = map.locator('path[fill="#1a7f37"]');
	const finish = map.locator('path[fill="#14213d"]');
	await expect(line).toBeAttached();
	const near = async (a: { x: number; y: number }, b: { x: number; y: number }, px: number) =>
		expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeLessThanOrEqual(px);
	const heartRate = page.getByTestId('chart-heartRate').getByRole('slider', {
		name: /^Heart rate chart of Easy run through Paxtang; the arrow keys move along it and mark the place on the map$/,
	});
	const power = page.getByTestId('chart-power').getByRole('slider', { name: /^Power chart of / });
	await page.getByTestId('workout-charts').scrollIntoViewIfNeeded();
	await expect(heartRate).toBeVisible();
	await expect(power).toBeVisible();

	// Pointing at the start of a chart marks the start of the run, labelled with what the charts read there.
	const plot = await page.getByTestId('chart-heartRate').locator('.u-over').boundingBox();
	if (!plot) throw new Error('The heart rate chart has no size');
	await page.mouse.move(plot.x + 1, plot.y + plot.height / 2);
	await expect(heartRate).toHaveAttribute('aria-valuetext', /^0\.00 (km|mi) · .*\d+ bpm/);
	const first = (await heartRate.getAttribute('aria-valuetext')) as string;
	await expect(label).toHaveText(first);
	// The charts share one cursor: the power chart reads the same.
	await expect(power).toHaveAttribute('aria-valuetext', first);
	await near(await centreOf(ring), await centreOf(start), 3);
	// Further along, the pace (unless paused there), heart rate, cadence and power.
	await page.mouse.move(plot.x + plot.width / 2, plot.y + plot.height / 2);
	await expect(heartRate).toHaveAttribute(
		'aria-valuetext',
		/^\d+\.\d{2} (km|mi) · (\d+:\d{2} \/(km|mi) · )?\d+ bpm · \d+ rpm · \d+ W$/,
	);
	await expect(label).toHaveText((await heartRate.getAttribute('aria-valuetext')) as string);
	expect(await distanceFromLine(line, await centreOf(ring))).toBeLessThanOrEqual(3);

	// From the keyboard on the focused power chart: End marks the finish, the arrows step back along the run.
	await power.focus();
	await power.press('End');
	await near(await centreOf(ring), await centreOf(finish), 3);
	const end = Number(await power.getAttribute('aria-valuenow'));
	const finishAt = await centreOf(ring);
	for (let i = 0; i < 20; i++) await power.press('ArrowLeft');
	await expect.poll(async () => Number(await power.getAttribute('aria-valuenow'))).toBeLessThan(end);
	await expect(label).toHaveText((await power.getAttribute('aria-valuetext')) as string);
	await expect(heartRate).toHaveAttribute(
		'aria-valuetext',
		(await power.getAttribute('aria-valuetext')) as string,
	);
	const steppedAt = await centreOf(ring);
	expect(Math.hypot(steppedAt.x - finishAt.x, steppedAt.y - finishAt.y)).toBeGreaterThan(5);
	expect(await distanceFromLine(line, steppedAt)).toBeLessThanOrEqual(3);
	await power.blur();
	await expect(map).toHaveAttribute('data-cursor', 'hidden');

	// Pointing at the track on the map moves the charts' cursor there, further along for a place further on.
	await map.scrollIntoViewIfNeeded();
	const cursorLeft = () =>
		page
			.getByTestId('chart-heartRate')
			.locator('.u-cursor-x')
			.evaluate((element) => new DOMMatrix(getComputedStyle(element).transform).e);
	const lefts: number[] = [];
	for (const share of [0.2, 0.6]) {
		const at = await pointAlongLine(line, share);
		await page.mouse.move(at.x, at.y);
		await expect(heartRate).not.toHaveAttribute('aria-valuetext', 'No point marked');
		await expect(label).toHaveText((await heartRate.getAttribute('aria-valuetext')) as string);
		await near(await centreOf(ring), at, 8);
		lefts.push(await cursorLeft());
	}
	expect(lefts[0]).toBeGreaterThan(0);
	expect(lefts[1]).toBeGreaterThan(lefts[0]);
	await expectNoSeriousA11yIssues(page);

	// Her friend sees the run without its hidden ends: wherever the charts' cursor goes, the mark stays on
	// the line drawn for him, and where the chart has no place to show there is no mark at all.
	const friendContext = await browser.newContext({ baseURL });
	try {
		const friend = await friendContext.newPage();
		await friend.route('**/tiles/**', (route) =>
			route.fulfill({ contentType: 'image/png', body: BLANK_TILE }),
		);
		const friendLogin = await friend.request.post('/api/auth/login', {
			data: DEMO_FRIEND_LOGIN,
			headers: { origin: new URL(baseURL as string).origin },
		});
		expect(friendLogin.ok()).toBe(true);
		await friend.goto(easyRunPath);
		const seen = friend.getByTestId('workout-map');
		const seenLine = seen.locator('path.workout-map__line');
		const seenRing = seen.locator('path.workout-map__cursor');
		await expect(seenLine).toBeAttached();
		const chart = friend.getByTestId('chart-heartRate');
		await chart.scrollIntoViewIfNeeded();
		const slider = chart.getByRole('slider');
		await expect(slider).toBeVisible();
		await slider.focus();
		// The first 200 m or more are hidden from him: the chart still reads its heart rate there, the map marks nothing.
		await slider.press('Home');
		await expect(slider).toHaveAttribute('aria-valuetext', /\d+ bpm/);
		await expect(seen).toHaveAttribute('data-cursor', 'hidden');
		let marked = 0;
		let unmarked = 0;
		for (let step = 0; step <= 50; step++) {
			if ((await seenRing.count()) > 0) {
				marked++;
				expect(await distanceFromLine(seenLine, await centreOf(seenRing))).toBeLessThanOrEqual(3);
			} else unmarked++;
			await slider.press('ArrowRight');
			await slider.press('ArrowRight');
		}
		expect(marked).toBeGreaterThan(25);
		expect(unmarked).toBeGreaterThan(0);
	} finally {
		await friendContext.close();
	}
});
