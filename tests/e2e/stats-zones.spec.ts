import { runGpx } from '../helpers/run-gpx';
import { expect, test } from './fixtures';
import { expectNoSeriousA11yIssues, forbidExternalRequests, registerMember } from './helpers';

/**
 * Time in heart-rate zones per week on the stats page: a free member is offered MVP, as on the
 * workout page; once they are MVP, this week's recorded run and ride show up by zone, following
 * the stats filters. The week start day picked there becomes the member's, for the goals page too.
 */
test('the stats page shows time in heart-rate zones per week to MVP members only, as the filters say', async ({
	page,
	baseURL,
	pageProblems,
}, testInfo) => {
	test.setTimeout(90_000);
	await forbidExternalRequests(page, baseURL as string);
	const origin = { origin: new URL(baseURL as string).origin };
	const { token, user } = await registerMember(page.request, baseURL as string, {
		first_name: 'Zoe',
		last_name: 'Zones',
		email: `zones-${testInfo.project.name}-${Date.now()}@mapstride.example`,
		password: 'Zone-Three-Tempo-2026',
		location: { country: 'US' },
		// Heart-rate zones are health data, used only with the member's consent.
		consents: { terms_of_use: true, privacy_policy: true, health_data: true },
	});
	// A 20-minute run with heart rate 130 to 149 bpm, on the Wednesday before last at 10:00 UTC: well
	// inside one week whatever day the member's weeks start on, and never split by a week's turn.
	const today = new Date();
	const runStart = Date.UTC(
		today.getUTCFullYear(),
		today.getUTCMonth(),
		today.getUTCDate() - ((today.getUTCDay() + 4) % 7) - 7,
		10,
	);
	const start = new Date(runStart).toISOString();
	const imported = await page.request.post('/api/v7.1/device/file_import/?privacy=0&name=Zone%20run', {
		headers: { authorization: `Bearer ${token}` },
		multipart: {
			file: {
				name: 'run.gpx',
				mimeType: 'application/gpx+xml',
				buffer: Buffer.from(runGpx({ minutes: 20, mps: 3, start })),
			},
		},
	});
	expect(imported.status()).toBe(201);
	// A 10-minute ride at 100 bpm (zone 1) just before the run, in the same week as it.
	const rideStart = runStart - 15 * 60_000;
	const ride = await page.request.post('/api/v7.1/workout/', {
		headers: { authorization: `Bearer ${token}`, ...origin },
		data: {
			name: 'Zone ride',
			start_datetime: new Date(rideStart).toISOString(),
			start_locale_timezone: 'UTC',
			activity_type: 11,
			aggregates: {
				distance_total: 4000,
				active_time_total: 600,
				elapsed_time_total: 600,
				heartrate_avg: 100,
			},
			time_series: { heartrate: Array.from({ length: 61 }, (_, i) => [i * 10, 100]) },
		},
	});
	expect(ride.status()).toBe(201);

	// A free member sees the offer, not the figures.
	await page.goto('/workout/stats/', { waitUntil: 'commit' });
	const locked = page.getByTestId('zone-weeks-locked');
	await expect(locked).toContainText('Heart-rate zone analysis is part of MVP.');
	await expect(locked.getByRole('link', { name: 'Get MVP' })).toHaveAttribute('href', '/premium/checkout');
	await expect(page.getByTestId('zone-weeks')).toHaveCount(0);

	// Buying MVP with the test processor's card that succeeds.
	await page.goto('/premium/checkout', { waitUntil: 'commit' });
	await page.getByRole('radio', { name: /MVP Annual/ }).check();
	await page.getByTestId('card-number').fill('4242 4242 4242 4242');
	await page.getByTestId('card-expiry').fill('12/34');
	await page.getByTestId('card-cvc').fill('123');
	await page.getByTestId('checkout-pay').click();
	await page.waitForURL(/\/premium\/receipt\/pi_/);

	// Now the last eight weeks show, the run's time in zones 3 and 4 and the ride's in zone 1.
	await page.goto('/workout/stats/', { waitUntil: 'commit' });
	await expect(page.getByTestId('zone-weeks-locked')).toHaveCount(0);
	const table = page.getByTestId('zone-weeks');
	const rows = table.locator('tbody tr');
	await expect(rows).toHaveCount(8);
	const summary = page.getByTestId('zone-weeks-summary');
	await expect(summary).toContainText('All activities from');
	await expect(summary).toContainText('30 min with heart rate');
	// The run's week holds its 20 minutes in zones 3 and 4, and the ride's 10 in zone 1.
	const runWeek = rows.filter({ has: page.locator('td:nth-of-type(4)', { hasText: /min/ }) });
	await expect(runWeek).toHaveCount(1);
	await expect(runWeek.locator('td').nth(2)).not.toHaveText('—');
	await expect(rows.locator('td:first-of-type', { hasText: /^10 min$/ })).toHaveCount(1);
	const weekday = async () =>
		new Date(`${await rows.first().getAttribute('data-week')}T00:00:00Z`).getUTCDay();
	expect(await weekday()).toBe(1);
	const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
	expect(overflow).toBeLessThanOrEqual(0);
	await expectNoSeriousA11yIssues(page);

	// Runs only: the zone weeks refetch with the figures, and the ride's zone-1 time goes.
	await page.getByRole('checkbox', { name: 'Run' }).check();
	await expect(page.getByTestId('stats-showing')).toContainText('Showing Run,');
	await expect(summary).toContainText('Run from');
	await expect(summary).toContainText('20 min with heart rate');
	await expect(rows.locator('td:first-of-type', { hasText: /^10 min$/ })).toHaveCount(0);
	await expect(page).toHaveURL(/activity_groups=run/);

	// A week start that cannot be saved says so, and the view still follows the pick.
	const weekStart = page.getByRole('combobox', { name: 'Weeks start on' });
	pageProblems.expectFailedRequest(/^\/api\/v7\.1\/user\/\d+\/$/);
	await page.route('**/api/v7.1/user/*/', (route) =>
		route.request().method() === 'PUT'
			? route.fulfill({
					status: 500,
					json: { error: 'unknown_error', message: 'Something went wrong on our side.' },
				})
			: route.fallback(),
	);
	await weekStart.selectOption('Saturday');
	await expect(page.getByTestId('week-start-error')).toContainText(
		'Saturday could not be saved as your week start',
	);
	await expect(page.getByTestId('stats-showing')).toContainText('weeks from Saturday');
	await expect.poll(weekday).toBe(6);
	await page.unroute('**/api/v7.1/user/*/');

	// Weeks from Sunday, picked on the stats page, saved for the goals page as well.
	await weekStart.selectOption('Sunday');
	await expect(page.getByTestId('week-start-status')).toHaveText(
		'Saved: your weeks start on Sunday everywhere.',
	);
	await expect(page.getByTestId('week-start-error')).toHaveCount(0);
	await expect.poll(weekday).toBe(0);
	await page.goto(`/profile/${user.id}/goals/`, { waitUntil: 'commit' });
	await expect(page.getByTestId('week-start-day')).toHaveValue('0');
	await expect(page.getByTestId('goals-week-run')).toContainText('Sunday to Saturday');
	await page.reload({ waitUntil: 'commit' });
	await expect(page.getByTestId('week-start-day')).toHaveValue('0');

	// The app's stats follow the saved day without being told, filters included; a pick made there
	// as soon as the page shows is saved too.
	await page.goto('/mobile/workout/stats/?activity_groups=run', { waitUntil: 'commit' });
	const appWeekStart = page.getByRole('combobox', { name: 'Weeks start on' });
	await expect(appWeekStart).toHaveValue('0');
	await appWeekStart.selectOption('Monday');
	await expect(page.getByTestId('week-start-status')).toHaveText(
		'Saved: your weeks start on Monday everywhere.',
	);
	const self = await page.request.get('/api/v7.1/user/self/', {
		headers: { authorization: `Bearer ${token}` },
	});
	expect((await self.json()).week_start_day).toBe(1);
	await expect(summary).toContainText('Run from');
	await expect(summary).toContainText('20 min with heart rate');
	await expect.poll(weekday).toBe(1);
	await page.getByRole('checkbox', { name: 'All' }).check();
	await expect(summary).toContainText('30 min with heart rate');
	await expectNoSeriousA11yIssues(page);
});
