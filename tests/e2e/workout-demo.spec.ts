import { DEMO_FRIEND_LOGIN, DEMO_LOGIN } from '../../src/lib/db/seed';
import { expect, test } from './fixtures';
import { expectNoSeriousA11yIssues, forbidExternalRequests } from './helpers';

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
	const login = await page.request.post('/api/auth/login', {
		data: DEMO_LOGIN,
		headers: { origin: new URL(baseURL as string).origin },
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
	expect(longRun).toBeDefined();
	expect(tempo).toBeDefined();
	const longRunPath = `/workout/${longRun?._links.self[0].id}`;

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
		const hidden = await friend.goto(`/workout/${tempo?._links.self[0].id}`);
		expect(hidden?.status()).toBe(404);
	} finally {
		await friendContext.close();
	}
});
