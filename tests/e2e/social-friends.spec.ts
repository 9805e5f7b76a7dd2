import { PRIVATE_PROFILE_MESSAGE } from '../../src/lib/social/contract';
import { expect, type Page, test } from './fixtures';
import { expectNoSeriousA11yIssues, type NewMember, signUp } from './helpers';

/**
 * Two new members find each other, send, deny, re-send and accept a request, see each other's
 * workouts in the feed, like, unlike, comment, reply and delete; a private profile and a missing
 * one look the same.
 */

/** Through the login page, as a person signs in. */
async function logInThrough(page: Page, member: NewMember, path: string) {
	await page.goto(path);
	await expect(page).toHaveURL(/\/auth\/login\?next=/);
	await page.getByRole('textbox', { name: 'Email' }).fill(member.email);
	await page.locator('input[name="password"]').fill(member.password);
	await page.getByRole('button', { name: 'Log in' }).click();
	await page.waitForURL(`**${path}`);
}

async function logWorkout(page: Page, member: NewMember, name: string) {
	const answer = await page.request.post('/api/v7.1/workout/', {
		headers: { authorization: `Bearer ${member.token}` },
		data: {
			name,
			start_datetime: new Date(Date.now() - 3_600_000).toISOString().replace(/\.\d{3}Z$/, '+00:00'),
			activity_type: 16,
			privacy: 1,
			aggregates: { distance_total: 6000, active_time_total: 1900 },
		},
	});
	expect(answer.status()).toBe(201);
}

test('two new members become friends and talk in the feed', async ({ browser, baseURL }, testInfo) => {
	test.setTimeout(120_000);
	const stamp = `${Date.now().toString(36)}${testInfo.project.name.replace(/\W/g, '')}`;
	const quill = await signUp(browser, baseURL as string, `Quill${stamp}`, stamp);
	const wren = await signUp(browser, baseURL as string, `Wren${stamp}`, stamp);

	// Quill finds Wren by name and asks.
	await quill.page.context().clearCookies();
	await logInThrough(quill.page, quill.member, '/people/friends/find/');
	await quill.page.getByLabel('Name or email').fill(`wren${stamp}`);
	await quill.page.getByRole('button', { name: 'Search' }).click();
	const results = quill.page.getByTestId('search-results');
	await expect(results.getByText(`Wren${stamp} Social`)).toBeVisible();
	await results.getByRole('button', { name: 'Add Friend' }).click();
	await expect(quill.page.getByRole('status')).toContainText(`Friend request sent to Wren${stamp} Social`);
	await expect(quill.page.getByTestId('search-results')).toHaveCount(0);
	await expect(
		quill.page.getByTestId('requests-sent').getByRole('button', { name: 'Request Sent' }),
	).toBeDisabled();
	await expectNoSeriousA11yIssues(quill.page);

	// Wren's bell says so on any page, pre-rendered ones too, and opens the notifications.
	await wren.page.goto('/');
	const bell = wren.page.getByTestId('notification-bell');
	await expect(bell).toHaveAccessibleName('Notifications, 1 new');
	await expect(bell).toContainText('1');
	await bell.click();
	await expect(wren.page).toHaveURL(/\/activity_feed\/#notifications$/);
	await expect(wren.page.getByTestId('notifications')).toContainText(`Quill${stamp} Social`);
	// Once read there, the count is gone.
	await wren.page.goto('/people/friends/');
	await expect(wren.page.getByTestId('notification-bell')).toHaveAccessibleName('Notifications');

	// Wren denies; nobody's total moves.
	await wren.page.goto('/people/friends/');
	const received = wren.page.getByTestId('requests-received');
	await expect(received.getByText(`Quill${stamp} Social`)).toBeVisible();
	await received.getByRole('button', { name: 'Deny' }).click();
	await expect(wren.page.getByRole('status')).toContainText('declined');
	await expect(wren.page.getByTestId('friends-total')).toHaveText('(0)');

	// Quill asks again; Wren accepts; totals rise by one.
	await quill.page.getByLabel('Name or email').fill(`wren${stamp}`);
	await quill.page.getByRole('button', { name: 'Search' }).click();
	await quill.page.getByTestId('search-results').getByRole('button', { name: 'Add Friend' }).click();
	await expect(quill.page.getByRole('status')).toContainText('Friend request sent');
	await wren.page.reload();
	await wren.page.getByTestId('requests-received').getByRole('button', { name: 'Accept' }).click();
	await expect(wren.page.getByTestId('friends-total')).toHaveText('(1)');
	await expect(wren.page.getByTestId('my-friends').getByText(`Quill${stamp} Social`)).toBeVisible();
	await expectNoSeriousA11yIssues(wren.page);

	// Both record a workout; each sees the other's in the feed.
	await logWorkout(quill.page, quill.member, `Quill lunch run ${stamp}`);
	await logWorkout(wren.page, wren.member, `Wren river run ${stamp}`);
	await wren.page.goto('/activity_feed/');
	const quillStory = wren.page.getByTestId('story').filter({ hasText: `Quill lunch run ${stamp}` });
	await expect(quillStory).toBeVisible();
	await expect(wren.page.getByTestId('story').filter({ hasText: `Wren river run ${stamp}` })).toBeVisible();

	// Like, unlike, comment.
	await quillStory.getByTestId('like').click();
	await expect(quillStory.getByTestId('like-count')).toHaveText('1 like');
	await expect(quillStory.getByTestId('like')).toHaveText('Unlike');
	await quillStory.getByTestId('like').click();
	await expect(quillStory.getByTestId('like-count')).toHaveText('0 likes');
	// Enter posts the comment, as in any chat box.
	await quillStory.getByLabel(`Comment on Quill lunch run ${stamp}`).fill('<b>Strong</b> pace!');
	await quillStory.getByLabel(`Comment on Quill lunch run ${stamp}`).press('Enter');
	const comment = quillStory.getByTestId('comment').filter({ hasText: 'pace!' });
	// Typed markup stays text.
	await expect(comment.locator('.comment__text')).toHaveText('<b>Strong</b> pace!');
	await expectNoSeriousA11yIssues(wren.page);

	// Quill replies from his own feed; Wren sees it and deletes her comment, reply and all.
	await quill.page.goto('/activity_feed/');
	// The comment is a new notification the first time the feed is opened, and read after that.
	const notices = quill.page.getByTestId('notifications');
	await expect(notices).toContainText(`Wren${stamp} Social commented on your story`);
	await expect(notices.locator('summary')).toHaveText('Notifications (1 new)');
	const ownStory = quill.page.getByTestId('story').filter({ hasText: `Quill lunch run ${stamp}` });
	await ownStory.getByText('Reply', { exact: true }).click();
	await ownStory.getByLabel(`Reply to Wren${stamp} Social`).fill('Thanks!');
	await ownStory.getByRole('button', { name: 'Post reply' }).click();
	await expect(ownStory.locator('.comment__replies .comment__text')).toHaveText('Thanks!');
	await quill.page.reload();
	await expect(notices.locator('summary')).toHaveText('Notifications');
	await wren.page.reload();
	const again = wren.page.getByTestId('story').filter({ hasText: `Quill lunch run ${stamp}` });
	await expect(again.getByText('Thanks!')).toBeVisible();
	await again
		.getByTestId('comment')
		.filter({ hasText: 'pace!' })
		.getByRole('button', { name: 'Delete' })
		.first()
		.click();
	await expect(again.getByTestId('comment')).toHaveCount(0);

	// Profiles: a friend's shows the header; a stranger's private profile and a missing one say the same.
	await wren.page.goto(`/profile/${quill.member.id}/activity_feed`);
	await expect(wren.page.getByRole('heading', { level: 1 })).toHaveText(`Quill${stamp} Social`);
	await expect(wren.page.getByText(/^Member Since \d{4}$/)).toBeVisible();
	await expect(wren.page.getByRole('button', { name: 'Add Friend' })).toHaveCount(0);
	await expectNoSeriousA11yIssues(wren.page);
	// Quill shares workouts with nobody yet: his Calendar tab says so, rather than leading to a not-found page.
	const tabs = wren.page.getByRole('navigation', { name: 'Profile' });
	await expect(tabs.getByRole('link', { name: 'Activity Feed' })).toHaveAttribute('aria-current', 'page');
	const calendarAnswer = wren.page.waitForResponse((response) =>
		response.url().endsWith(`/profile/${quill.member.id}/dashboard/`),
	);
	await tabs.getByRole('link', { name: 'Calendar' }).click();
	expect((await calendarAnswer).status()).toBe(200);
	await expect(wren.page.getByTestId('calendar-private')).toHaveText(
		`Quill${stamp} Social keeps their workouts private, so their calendar is not shown.`,
	);
	await expect(tabs.getByRole('link', { name: 'Calendar' })).toHaveAttribute('aria-current', 'page');
	await expectNoSeriousA11yIssues(wren.page);
	// Wren's own profile has the tab too, and it opens her dashboard.
	await wren.page.goto(`/profile/${wren.member.id}/activity_feed`);
	await tabs.getByRole('link', { name: 'Calendar' }).click();
	await expect(wren.page).toHaveURL(/\/dashboard\/$/);
	const stranger = await signUp(browser, baseURL as string, `Zinnia${stamp}`, stamp);
	const hidden = await wren.page.goto(`/profile/${stranger.member.id}/activity_feed`);
	const hiddenText = await wren.page.locator('main').textContent();
	const missing = await wren.page.goto('/profile/999999999/activity_feed');
	const missingText = await wren.page.locator('main').textContent();
	expect(hidden?.status()).toBe(404);
	expect(missing?.status()).toBe(404);
	// The status line agrees with the code: "404 Not Found", not "404 OK".
	expect(hidden?.statusText()).toBe('Not Found');
	expect(missing?.statusText()).toBe('Not Found');
	expect(hiddenText).toContain(PRIVATE_PROFILE_MESSAGE);
	expect(hiddenText).toBe(missingText);

	// Remove with a confirmation that can be cancelled.
	await quill.page.goto('/people/friends/');
	const friends = quill.page.getByTestId('my-friends');
	await friends.getByRole('link', { name: 'Remove' }).click();
	await quill.page.getByRole('link', { name: 'Cancel' }).click();
	await expect(quill.page.getByTestId('friends-total')).toHaveText('(1)');
	await friends.getByRole('link', { name: 'Remove' }).click();
	await quill.page.getByRole('button', { name: 'Yes, remove' }).click();
	await expect(quill.page.getByTestId('friends-total')).toHaveText('(0)');
});
