import { expect, test } from '@playwright/test';
import { DEMO_FRIEND_LOGIN, DEMO_LOGIN } from '../../src/lib/db/seed';
import { logIn } from './helpers';

/**
 * A friend's new workout appears at the top of the demo member's feed without a reload while the
 * reader stays where they are.
 */
test('new stories arrive without a reload and the reader keeps their place', async ({
	page,
	baseURL,
}, testInfo) => {
	test.setTimeout(90_000);
	await logIn(page.request, baseURL as string, DEMO_LOGIN);
	await page.goto('/activity_feed/');
	const stories = page.getByTestId('story');
	// Which stories come first depends on what other tests have logged; the demo world's feed on
	// first start is checked by the API's demo-seed test.
	await expect.poll(() => stories.count()).toBeGreaterThan(3);
	const before = await stories.count();
	const topStoryBefore = await stories.first().getAttribute('data-story');

	// Read further down the page, then a friend records a workout.
	const readingId = await stories.nth(Math.min(3, before - 1)).getAttribute('data-story');
	const reading = page.locator(`[data-story="${readingId}"]`);
	await reading.scrollIntoViewIfNeeded();
	await page.mouse.wheel(0, 200);
	const topBefore = await reading.evaluate((element) => element.getBoundingClientRect().top);

	const friend = await page.context().browser()?.newContext({ baseURL });
	if (!friend) throw new Error('no browser');
	const token = await logIn(friend.request, baseURL as string, DEMO_FRIEND_LOGIN);
	const name = `Sunrise intervals ${Date.now().toString(36)} ${testInfo.project.name}`;
	const made = await friend.request.post('/api/v7.1/workout/', {
		headers: { authorization: `Bearer ${token}` },
		data: {
			name,
			start_datetime: new Date().toISOString().replace(/\.\d{3}Z$/, '+00:00'),
			activity_type: 16,
			privacy: 1,
			aggregates: { distance_total: 7000, active_time_total: 2100 },
		},
	});
	expect(made.status()).toBe(201);

	const fresh = stories.filter({ hasText: name });
	await expect(fresh).toHaveCount(1, { timeout: 45_000 });
	// It comes in above everything that was there; another test's friend may log one at the same time.
	const order = await stories.evaluateAll((cards) => cards.map((card) => card.getAttribute('data-story')));
	const freshId = await fresh.getAttribute('data-story');
	expect(order.indexOf(freshId)).toBeLessThan(order.indexOf(topStoryBefore));
	const topAfter = await reading.evaluate((element) => element.getBoundingClientRect().top);
	expect(Math.abs(topAfter - topBefore)).toBeLessThan(4);
	await friend.close();
});
