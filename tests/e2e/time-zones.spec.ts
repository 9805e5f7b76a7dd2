import { DEMO_LOGIN } from '../../src/lib/db/seed';
import { expect, type Page, test } from './fixtures';

/**
 * Every time a member reads is on their own clock: the same workout shows the same start on the
 * dashboard and on its own page, whatever zone it was recorded in.
 */

type ListedWorkout = {
	name: string;
	start_datetime: string;
	start_locale_timezone: string;
	_links: { self: { id: string }[] };
};

async function logInAsDemo(page: Page, baseURL: string) {
	const login = await page.request.post('/api/auth/login', {
		data: DEMO_LOGIN,
		headers: { origin: new URL(baseURL).origin },
	});
	expect(login.ok()).toBe(true);
	const { access_token: token, user } = await login.json();
	const self = await (
		await page.request.get('/api/v7.1/user/self/', { headers: { authorization: `Bearer ${token}` } })
	).json();
	return { token, userId: user.id as number, zone: self.time_zone as string };
}

test('the demo member’s latest workout shows the same clock time on the dashboard and on its page', async ({
	page,
	baseURL,
}) => {
	const { token, userId, zone } = await logInAsDemo(page, baseURL as string);
	const listed = await page.request.get(`/api/v7.1/workout/?user=${userId}&limit=100`, {
		headers: { authorization: `Bearer ${token}` },
	});
	const workouts = (await listed.json())._embedded.workouts as ListedWorkout[];
	// The latest seeded workout recorded away from the member's own zone: where the two clocks differ.
	const [latest] = workouts
		.filter((workout) => workout.start_locale_timezone !== zone && workout.start_locale_timezone !== 'UTC')
		.sort((a, b) => Date.parse(b.start_datetime) - Date.parse(a.start_datetime));
	expect(latest, `a workout recorded outside ${zone}`).toBeDefined();
	const id = latest._links.self[0].id;
	const start = new Date(latest.start_datetime);
	const onMemberClock = new Intl.DateTimeFormat('en-US', {
		timeZone: zone,
		hour: 'numeric',
		minute: '2-digit',
	}).format(start);
	const month = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit' })
		.format(start)
		.slice(0, 7);

	await page.goto(`/dashboard/?month=${month}&view=list`);
	const entry = page
		.getByTestId('calendar-list')
		.getByRole('listitem')
		.filter({ has: page.locator(`a[href="/workout/${id}"]`) });
	await expect(entry).toHaveCount(1);
	const dashboardTime = (await entry.locator('.dashboard-calendar__list-day').textContent())?.split(' · ')[1];
	expect(dashboardTime).toBe(onMemberClock);

	await page.goto(`/workout/${id}`);
	await expect(page.getByTestId('workout-name')).toHaveText(latest.name);
	await expect(page.getByTestId('workout-start')).toContainText(`${onMemberClock} `);
});
