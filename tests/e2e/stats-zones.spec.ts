import { expect, test } from '@playwright/test';
import { runGpx } from '../helpers/run-gpx';
import { expectNoSeriousA11yIssues, forbidExternalRequests } from './helpers';

/**
 * Time in heart-rate zones per week on the stats page: a free member is offered MVP, as on the
 * workout page; once they are MVP, this week's recorded run shows up by zone.
 */
test('the stats page shows time in heart-rate zones per week to MVP members only', async ({
	page,
	baseURL,
}, testInfo) => {
	test.setTimeout(90_000);
	await forbidExternalRequests(page, baseURL as string);
	const origin = { origin: new URL(baseURL as string).origin };
	const email = `zones-${testInfo.project.name}-${Date.now()}@mapstride.example`;
	const password = 'Zone-Three-Tempo-2026';
	const signup = await page.request.post('/api/auth/signup', {
		data: {
			first_name: 'Zoe',
			last_name: 'Zones',
			email,
			password,
			birthdate: '1989-06-06',
			gender: 'F',
			location: { country: 'US' },
			consents: { terms_of_use: true, privacy_policy: true },
		},
		headers: origin,
	});
	expect(signup.status()).toBe(201);
	const login = await page.request.post('/api/auth/login', { data: { email, password }, headers: origin });
	const { access_token: token, user } = await login.json();
	// A 20-minute run with heart rate 130 to 149 bpm, finished a few minutes ago.
	const start = new Date(Date.now() - 30 * 60_000).toISOString();
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

	// Now the last eight weeks show, the run's time in zones 3 and 4.
	await page.goto('/workout/stats/', { waitUntil: 'commit' });
	await expect(page.getByTestId('zone-weeks-locked')).toHaveCount(0);
	const table = page.getByTestId('zone-weeks');
	const rows = table.locator('tbody tr');
	await expect(rows).toHaveCount(8);
	// The run's week (this one, or last week just after midnight on the first day) holds 20 minutes.
	const runWeek = rows.filter({ has: page.locator('td:last-child', { hasText: /^20 min$/ }) });
	await expect(runWeek).toHaveCount(1);
	await expect(runWeek.locator('td').nth(2)).not.toHaveText('—');
	await expect(runWeek.locator('td').nth(3)).not.toHaveText('—');
	await expect(page.getByTestId('zone-weeks-summary')).toContainText('20 min with heart rate');
	const weekday = async () =>
		new Date(`${await rows.first().getAttribute('data-week')}T00:00:00Z`).getUTCDay();
	expect(await weekday()).toBe(1);
	const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
	expect(overflow).toBeLessThanOrEqual(0);
	await expectNoSeriousA11yIssues(page);

	// Weeks from Sunday, chosen on the goals page, and the zone weeks follow.
	await page.goto(`/profile/${user.id}/goals/`, { waitUntil: 'commit' });
	await page.getByTestId('week-start-day').selectOption('0');
	await page.getByTestId('week-start-save').click();
	await expect(page.getByTestId('goals-week-run')).toContainText('Sunday to Saturday');
	await page.goto('/mobile/workout/stats/', { waitUntil: 'commit' });
	await expect(page.getByTestId('zone-weeks-summary')).toContainText('20 min with heart rate');
	expect(await weekday()).toBe(0);
});
