import { DEMO_FRIEND_LOGIN, DEMO_LOGIN } from '../../src/lib/db/seed';
import { expect, test } from './fixtures';
import { expectNoSeriousA11yIssues, logIn, signUp } from './helpers';

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
	// The feed looks for new stories every 20 s. The page's clock is moved on rather than waited for,
	// as a reader who glances away and back; its time otherwise runs as usual.
	await page.clock.install();
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
	const stopsAt = await page.evaluate(() =>
		Math.min(window.scrollY + 200, document.documentElement.scrollHeight - window.innerHeight),
	);
	await page.mouse.wheel(0, 200);
	// The wheel scrolls smoothly: the reader's place is where the page comes to rest, not where it passes.
	await expect.poll(() => page.evaluate(() => window.scrollY)).toBeCloseTo(stopsAt, 0);
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
	// Each step is one poll; a poll a busy server answers late is followed by another.
	await expect(async () => {
		await page.clock.fastForward(20_000);
		await expect(fresh).toHaveCount(1, { timeout: 10_000 });
	}).toPass({ timeout: 60_000 });
	// It comes in above everything that was there; another test's friend may log one at the same time.
	const order = await stories.evaluateAll((cards) => cards.map((card) => card.getAttribute('data-story')));
	const freshId = await fresh.getAttribute('data-story');
	expect(order.indexOf(freshId)).toBeLessThan(order.indexOf(topStoryBefore));
	const topAfter = await reading.evaluate((element) => element.getBoundingClientRect().top);
	expect(Math.abs(topAfter - topBefore)).toBeLessThan(4);
	await friend.close();
});

/**
 * A member meets a weekly goal and joins a challenge; their friend finds both stories in the feed,
 * each leading to a real page, and likes the goal.
 */
test('a friend sees a member’s weekly goal met and challenge joined, and likes one', async ({
	browser,
	baseURL,
}, testInfo) => {
	test.setTimeout(90_000);
	const stamp = `${Date.now().toString(36)}${testInfo.project.name.replace(/\W/g, '')}`;
	const sol = await signUp(browser, baseURL as string, `Sol${stamp}`, stamp);
	const finn = await signUp(browser, baseURL as string, `Finn${stamp}`, stamp);
	const asSol = { authorization: `Bearer ${sol.member.token}` };
	const request = sol.page.request;
	const asked = await request.post('/api/v7.1/friendship/', {
		headers: asSol,
		data: { to_user: finn.member.id },
	});
	expect(asked.status()).toBe(201);
	const accepted = await finn.page.request.patch(`/api/v7.1/friendship/${sol.member.id}_${finn.member.id}/`, {
		headers: { authorization: `Bearer ${finn.member.token}` },
		data: { status: 'active' },
	});
	expect(accepted.ok()).toBe(true);
	// Sol shares workouts, and so goals, with friends; a run meets the goal set just before it.
	const shared = await request.put(`/api/v7.1/user/${sol.member.id}/`, {
		headers: asSol,
		data: { privacy: { workout: 1 } },
	});
	expect(shared.ok()).toBe(true);
	const goal = await request.post('/api/v7.1/user_goal/', {
		headers: asSol,
		data: {
			period: 'P1W',
			criteria: { threshold_metrics: { data_type_field: 'distance', value: 5000 }, activity_group: 'all' },
		},
	});
	expect(goal.status()).toBe(201);
	const set = await goal.json();
	const goalId = set.id;
	// Twenty minutes ago, unless the goal's week began since then: a run from last week meets last
	// week's goal, so just after midnight on a week's first day the run starts as the week does.
	const started = Math.max(Date.now() - 20 * 60_000, Date.parse(set.progress.start_datetime) + 1_000);
	const run = await request.post('/api/v7.1/workout/', {
		headers: asSol,
		data: {
			name: `Goal run ${stamp}`,
			start_datetime: new Date(started).toISOString().replace(/\.\d{3}Z$/, '+00:00'),
			activity_type: 16,
			privacy: 1,
			aggregates: { distance_total: 6000, active_time_total: 900 },
		},
	});
	expect(run.status()).toBe(201);
	const challenges = await (await request.get('/api/v2/challenges/', { headers: asSol })).json();
	const challenge = challenges.joinable[0] as { id: number; name: string };
	const joined = await request.post(`/api/challenges/${challenge.id}/users/`, {
		headers: asSol,
		data: { show_name: true },
	});
	expect(joined.status()).toBe(201);
	const own = await (await request.get('/api/v7.1/activity_story/', { headers: asSol })).json();
	type Story = { id: string; details: { goal_id?: number; challenge_id?: number } | null };
	const stories = own._embedded.activity_stories as Story[];
	const goalStory = stories.find((story) => story.details?.goal_id === goalId)?.id;
	const challengeStory = stories.find((story) => story.details?.challenge_id === challenge.id)?.id;
	expect(goalStory).toMatch(/^goal_\d+$/);
	expect(challengeStory).toMatch(/^challenge_\d+$/);

	const page = finn.page;
	await page.goto('/activity_feed/');
	const goalCard = page.locator(`[data-story="${goalStory}"]`);
	const challengeCard = page.locator(`[data-story="${challengeStory}"]`);
	await expect(goalCard).toContainText(`Sol${stamp}`);
	await expect(goalCard).toContainText('completed their weekly goal');
	await expect(goalCard).toContainText('Any activity:');
	const goalLink = goalCard.getByRole('link', { name: 'Weekly distance goal' });
	await expect(goalLink).toHaveAttribute('href', `/profile/${sol.member.id}/goals/`);
	await expect(challengeCard).toContainText('joined the challenge');
	await expect(challengeCard.getByRole('link', { name: challenge.name })).toHaveAttribute(
		'href',
		`/challenges/${challenge.id}`,
	);

	await goalCard.getByTestId('like').click();
	await expect(goalCard.getByTestId('like-count')).toHaveText('1 like');
	await expect(goalCard.getByTestId('like')).toHaveText('Unlike');
	await expectNoSeriousA11yIssues(page);
	await page.reload();
	await expect(goalCard.getByTestId('like-count')).toHaveText('1 like');
	await expect(challengeCard.getByTestId('like-count')).toHaveText('0 likes');

	// Both cards lead to pages the friend may open.
	await goalLink.click();
	await expect(page).toHaveURL(new RegExp(`/profile/${sol.member.id}/goals/$`));
	await expect(page.getByText('Any activity:').first()).toBeVisible();
	await page.goto(`/challenges/${challenge.id}`);
	await expect(page.getByRole('heading', { level: 1, name: challenge.name })).toBeVisible();
	await sol.page.context().close();
	await finn.page.context().close();
});
