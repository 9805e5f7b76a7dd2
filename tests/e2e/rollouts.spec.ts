import { DEMO_LOGIN } from '../../src/lib/db/seed';
import { type APIRequestContext, expect, test } from './fixtures';
import { expectNoSeriousA11yIssues, forbidExternalRequests, logIn } from './helpers';

/**
 * The customer survey, the ad slot and the loyalty pilot reach only members in their rollouts:
 * playwright.config.ts puts `rolloutpilot` in all three and no one else. The ad is one of our own MVP promotions, served from this
 * server; the survey is asked once and its answer stays sent.
 */
const PILOT = {
	first_name: 'Rollo',
	last_name: 'Pilot',
	// Its username, `rolloutpilot`, is the one the test server's ROLLOUTS setting names.
	email: 'rollout.pilot@mapstride.example',
	password: 'Pilot-Survey-Slot-2026',
	birthdate: '1991-03-03',
	gender: 'M',
	location: { country: 'US', region: 'PA', locality: 'Harrisburg' },
	consents: { terms_of_use: true, privacy_policy: true },
};

/** Signs the pilot up on the first run (a retry finds them there) and in. */
async function signInPilot(request: APIRequestContext, baseURL: string): Promise<string> {
	await request.post('/api/auth/signup', { data: PILOT, headers: { origin: new URL(baseURL).origin } });
	return logIn(request, baseURL, PILOT);
}

test.describe('rollouts @desktop-layout', () => {
	test('a member in the rollouts sees a house ad, answers the survey once and sees their loyalty points', async ({
		page,
		browser,
		baseURL,
	}) => {
		test.setTimeout(180_000);
		const external = await forbidExternalRequests(page, baseURL as string);
		const token = await signInPilot(page.request, baseURL as string);
		const made = await page.request.post('/api/v7.1/workout/', {
			headers: { authorization: `Bearer ${token}` },
			data: {
				name: 'Pilot run',
				start_datetime: new Date(Date.now() - 3_600_000).toISOString().replace(/\.\d{3}Z$/, '+00:00'),
				activity_type: 16,
				privacy: 3,
				aggregates: { distance_total: 5000, active_time_total: 1600 },
			},
		});
		expect(made.status()).toBe(201);
		const workoutId = (await made.json()).id as number;

		const bootups: string[] = [];
		page.on('request', (request) => {
			if (request.url().includes('/api/site/bootup')) bootups.push(request.url());
		});
		await page.goto(`/workout/${workoutId}`);
		const ad = page.getByTestId('house-ad');
		await expect(ad).toBeVisible();
		await expect(ad.getByRole('link')).toHaveAttribute('href', '/mvp/');
		await expectNoSeriousA11yIssues(page);
		const routeId = /href="\/routes\/view\/(\d+)"/.exec(
			await (await page.request.get('/routes/')).text(),
		)?.[1];
		expect(routeId, 'a public route is listed').toBeTruthy();
		bootups.length = 0;
		await page.goto(`/routes/view/${routeId}`);
		await expect(page.getByTestId('house-ad')).toBeVisible();
		// The map (its tiles wait for the member's rollouts) and the profile menu's loyalty line share the
		// page's one bootup request.
		await expect(page.locator('.leaflet-tile-loaded').first()).toBeVisible();
		await page.getByRole('button', { name: /account menu/ }).click();
		await expect(page.getByTestId('loyalty-menu')).toHaveText('Rewards: Blue · 10 points');
		expect(bootups).toHaveLength(1);
		await page.keyboard.press('Escape');

		// The survey: sending it unanswered asks again, then the answer is thanked for and not asked again.
		await page.goto('/dashboard/');
		const survey = page.getByTestId('survey');
		await expect(survey).toBeVisible();
		await expectNoSeriousA11yIssues(page);
		await survey.getByRole('button', { name: 'Send answers' }).click();
		await expect(page.getByTestId('survey').getByRole('alert')).toContainText('Choose a score');
		await page.getByTestId('survey').getByRole('radio', { name: '9' }).check();
		await page.getByLabel('What do you use').selectOption('routes');
		await page.getByLabel('Anything we could do better?').fill('More trail loops near the river.');
		await page.getByTestId('survey').getByRole('button', { name: 'Send answers' }).click();
		await expect(page.getByTestId('survey-thanks')).toContainText('Thank you');
		const state = await page.request.get('/api/v7.1/customer_survey/', {
			headers: { authorization: `Bearer ${token}` },
		});
		expect(await state.json()).toMatchObject({ eligible: true, answered: true });
		await page.goto('/dashboard/');
		await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
		await expect(page.getByTestId('survey')).toHaveCount(0);

		// The loyalty pilot: one workout is 10 points, on the dashboard card and in the profile menu.
		await expect(page.getByTestId('loyalty-status')).toHaveText('Blue · 10 points');
		await page.getByRole('button', { name: /account menu/ }).click();
		await expect(page.getByTestId('loyalty-menu')).toHaveText('Rewards: Blue · 10 points');
		// A pre-rendered page knows the member from the hint cookie and shows the same.
		await page.goto('/mvp');
		await page.getByRole('button', { name: /account menu/ }).click();
		await expect(page.getByTestId('loyalty-menu')).toHaveText('Rewards: Blue · 10 points');
		expect(external).toEqual([]);

		// The demo member is in neither rollout: the same public workout has no ad, the dashboard no survey.
		const demo = await browser.newPage();
		await logIn(demo.request, baseURL as string, DEMO_LOGIN);
		await demo.goto(`/workout/${workoutId}`);
		await expect(demo.getByRole('heading', { level: 1 })).toBeVisible();
		await expect(demo.getByTestId('house-ad')).toHaveCount(0);
		await demo.goto('/dashboard/');
		await expect(demo.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
		await expect(demo.getByTestId('survey')).toHaveCount(0);
		await expect(demo.getByTestId('loyalty-card')).toHaveCount(0);
		await expect(demo.getByTestId('loyalty-menu')).toBeHidden();
		await demo.close();
	});
});
