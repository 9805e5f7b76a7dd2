import { DEMO_LOGIN } from '../../src/lib/db/seed';
import { expect, type Locator, type Page, test } from './fixtures';
import { payWith, registerMember } from './helpers';

/**
 * Every time a member reads is on their own clock: the same workout shows the same start on the
 * dashboard and on its own page, whatever zone it was recorded in; receipts, the membership page
 * and the connected-apps page give their days and times in the member's zone, not UTC.
 */

/** The day (and time, with the zone named, when `withTime`) an instant is on a zone's clock. */
function onClock(instant: Date, timeZone: string, withTime: boolean): string {
	return new Intl.DateTimeFormat('en-US', {
		timeZone,
		month: 'short',
		day: 'numeric',
		year: 'numeric',
		...(withTime ? { weekday: 'short', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' } : {}),
	} as Intl.DateTimeFormatOptions).format(instant);
}

/** Every `<time>` in `scope` reads its own instant on `timeZone`'s clock. */
async function expectTimesOnClock(scope: Locator, timeZone: string, withTime: boolean) {
	const times = await scope.locator('time').evaluateAll((elements) =>
		elements.map((element) => ({
			at: element.getAttribute('datetime') ?? '',
			text: element.textContent?.trim(),
		})),
	);
	expect(times.length).toBeGreaterThan(0);
	for (const time of times) expect(time.text, time.at).toBe(onClock(new Date(time.at), timeZone, withTime));
}

/** A zone whose calendar day differs from UTC's at this hour, so a day read on UTC's clock shows. */
function zoneAwayFromUtc(now = new Date()): string {
	return now.getUTCHours() >= 10 ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
}

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

/** A new member, signed in on `page`, whose zone is away from UTC; returns the zone. */
async function newMemberAwayFromUtc(page: Page, baseURL: string, label: string): Promise<string> {
	const zone = zoneAwayFromUtc();
	const { user, token } = await registerMember(page.request, baseURL, {
		first_name: 'Tia',
		last_name: 'Zone',
		email: `zone-${label}-${Date.now()}@example.test`,
		password: 'Meridian-Lantern-Ferry-61',
	});
	const moved = await page.request.put(`/api/v7.1/user/${user.id}/`, {
		headers: { authorization: `Bearer ${token}`, origin: new URL(baseURL).origin },
		data: { time_zone: zone },
	});
	expect(moved.ok()).toBe(true);
	return zone;
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
	// Recorded on another clock: its start there is given too, labelled with that clock's offset.
	const whereRecorded = new Intl.DateTimeFormat('en-US', {
		timeZone: latest.start_locale_timezone,
		hour: 'numeric',
		minute: '2-digit',
	}).format(start);
	await expect(page.getByTestId('workout-recorded-start')).toHaveText(
		new RegExp(
			`^ \\(${whereRecorded.replace(/\s/g, '\\s')} where recorded, UTC[+\u2212]\\d{1,2}(:\\d{2})?\\)$`,
		),
	);
});

test('a receipt and the membership page give the payment’s day and time in the member’s zone', async ({
	page,
	baseURL,
}, testInfo) => {
	test.setTimeout(60_000);
	const zone = await newMemberAwayFromUtc(page, baseURL as string, `receipt-${testInfo.project.name}`);

	await page.goto('/premium/checkout', { waitUntil: 'commit' });
	await page.getByRole('radio', { name: /MVP Annual/ }).check();
	await payWith(page, '4242 4242 4242 4242');
	await page.waitForURL(/\/premium\/receipt\/pi_/);
	const date = page.getByTestId('receipt-date');
	await expect(date).not.toContainText('UTC');
	await expectTimesOnClock(page.getByTestId('receipt'), zone, true);

	await page.goto('/premium/membership');
	await expectTimesOnClock(page.getByTestId('payment-history'), zone, false);
});

test('the connected-apps page dates a device connection in the member’s zone', async ({
	page,
	baseURL,
}, testInfo) => {
	const zone = await newMemberAwayFromUtc(page, baseURL as string, `apps-${testInfo.project.name}`);
	await page.goto('/account/connected_apps');
	await page
		.getByTestId('device-connections')
		.getByRole('button', { name: 'Connect Test device cloud' })
		.click();
	await page.getByRole('button', { name: 'Allow' }).click();
	await expect(page).toHaveURL(/\/account\/connected_apps\?device_connected=test$/);
	const connection = page.getByTestId('device-connection-test');
	await expect(connection).not.toContainText('UTC');
	await expectTimesOnClock(connection, zone, true);
});
