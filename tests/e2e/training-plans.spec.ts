import { expect, test } from './fixtures';
import { expectNoSeriousA11yIssues, forbidExternalRequests, registerMember } from './helpers';

/**
 * A runner finds a plan from the training landing, reads it week by week and follows it: the plan's
 * first week becomes their weekly goals. Following again adds nothing.
 */
test('a member follows a training plan and finds its weekly goals on their goals page', async ({
	page,
	baseURL,
}, testInfo) => {
	test.setTimeout(60_000);
	await forbidExternalRequests(page, baseURL as string);

	// The landing has no footer; any address under it is the same landing.
	const landing = await page.goto('/train/landing/spring-campaign');
	expect(landing?.status()).toBe(200);
	await expect(page.locator('.site-footer')).toHaveCount(0);
	await page.getByRole('link', { name: 'See the training plans' }).click();
	await expect(page).toHaveURL(/\/training-plans\/$/);
	await expectNoSeriousA11yIssues(page);
	await page.getByRole('link', { name: 'Your first 10 km' }).click();
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your first 10 km');
	await expect(page.getByTestId('plan-weeks').locator('tbody tr')).toHaveCount(8);
	await expectNoSeriousA11yIssues(page);

	// A visitor is asked to log in first, and comes back to the same plan.
	await page.getByTestId('follow-plan').click();
	await expect(page).toHaveURL(/\/auth\/login\?next=%2Ftraining-plans%2Ffollow%3Fplan%3Dfirst-10k/);
	// Back on the plan (the login page would carry a new session straight on to the follow page).
	await page.goBack();
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your first 10 km');

	const { user, token } = await registerMember(page.request, baseURL as string, {
		first_name: 'Paula',
		last_name: 'Plan',
		email: `paula.${testInfo.project.name}.${Date.now()}@mapstride.example`,
		password: 'Ten-Km-By-Week-Eight',
	});
	await page.getByTestId('follow-plan').click();
	await expect(page.getByTestId('follow-goals').getByRole('listitem')).toHaveText([
		'3 runs a week',
		'12 km of running a week',
	]);

	// Following is MVP: a free member is offered the checkout, and a forged post sets nothing.
	await expect(page.getByRole('button', { name: 'Set my weekly goals' })).toHaveCount(0);
	await expect(page.getByTestId('follow-offer').getByRole('link', { name: 'Get MVP' })).toHaveAttribute(
		'href',
		'/premium/checkout',
	);
	const forged = await page.request.post('/training-plans/follow?plan=first-10k', {
		headers: { origin: new URL(baseURL as string).origin },
	});
	expect(forged.status()).toBe(403);
	await page.getByTestId('follow-offer').getByRole('link', { name: 'Get MVP' }).click();
	await expect(page).toHaveURL(/\/premium\/checkout/);

	// With MVP (a 90-day coupon) the plan can be followed.
	const headers = { origin: new URL(baseURL as string).origin, authorization: `Bearer ${token}` };
	const claimed = await page.request.post('/api/billing/user-coupons', {
		data: { coupon_id: 'MVP90', country_code: 'US' },
		headers,
	});
	expect(claimed.status()).toBe(201);
	const redeemed = await page.request.patch(`/api/billing/user-coupons/${(await claimed.json()).id}`, {
		data: { redeemed: true },
		headers,
	});
	expect(redeemed.status()).toBe(200);
	await page.goto('/training-plans/follow?plan=first-10k');
	await page.getByRole('button', { name: 'Set my weekly goals' }).click();
	await expect(page).toHaveURL(new RegExp(`/profile/${user.id}/goals/\\?plan=first-10k$`));
	const goals = page.getByTestId('goal');
	await expect(goals).toHaveCount(2);
	await expect(goals.filter({ hasText: '3 workouts a week' })).toHaveCount(1);

	// Following the same plan again keeps the goals already set.
	await page.goto('/training-plans/follow?plan=first-10k');
	await page.getByRole('button', { name: 'Set my weekly goals' }).click();
	await expect(page.getByTestId('goal')).toHaveCount(2);
});

test('the partner page answers and an unknown plan is not found', async ({ page, request }) => {
	const partner = await page.goto('/partner/freeletics');
	expect(partner?.status()).toBe(200);
	await expect(page.getByRole('heading', { level: 1 })).toContainText('Freeletics');
	await expect(page.locator('[data-promo]')).toHaveCount(0);
	await expectNoSeriousA11yIssues(page);
	expect((await request.get('/training-plans/no-such-plan/')).status()).toBe(404);
});
