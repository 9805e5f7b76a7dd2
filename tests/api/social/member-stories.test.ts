import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createAccountApi } from '../../../src/lib/account/server/api';
import { users } from '../../../src/lib/auth/server/tables';
import type { ChallengeInput } from '../../../src/lib/challenges/contract';
import { createChallengesApi } from '../../../src/lib/challenges/server/api';
import type { ChallengeRow } from '../../../src/lib/challenges/server/challenge';
import { createChallenge, updateChallenge } from '../../../src/lib/challenges/server/organise';
import { createGoalsApi } from '../../../src/lib/goals/server/api';
import { createSocialApi } from '../../../src/lib/social/server/api';
import { createWorkoutsApi } from '../../../src/lib/workouts/server/api';
import { callApi, createTestApi, createTestClock, createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { setMember, workoutPayload } from '../stats/helpers';
import { addMember, befriend, feedIds, type Member, type SocialApp } from './helpers';

/**
 * A member's weekly goal met and a challenge joined are stories: recorded once, withdrawn when no
 * longer true, seen by whom the member's workout privacy allows, and liked and commented on like
 * any other story.
 */
let database: TestDatabase;
let app: SocialApp;
let deps: ReturnType<typeof createTestDeps>;
let clock: ReturnType<typeof createTestClock>;
let owner: Member;
let friend: Member;
let pending: Member;
let stranger: Member;
let november: ChallengeRow;

// Tuesday 24 November 2026, 15:00 UTC; the owner's weeks start on Monday the 23rd (UTC).
const NOW = new Date('2026-11-24T15:00:00Z');

const NOVEMBER = {
	name: 'November Distance',
	description: '',
	metric: 'distance',
	activity_groups: ['run'],
	starts_on: '2026-11-01',
	ends_on: '2026-11-30',
	target: 50_000,
	mode: 'solo',
	prizes: [],
	teams: [],
} as const satisfies ChallengeInput;

beforeAll(async () => {
	database = await openTestDb();
});
beforeEach(async () => {
	await database.reset();
	clock = createTestClock(NOW);
	deps = createTestDeps(database.db, { clock });
	app = createTestApi(deps, {
		routes: [
			createSocialApi(),
			createWorkoutsApi(),
			createGoalsApi(),
			createChallengesApi(),
			createAccountApi(),
		],
	});
	owner = await addMember(deps, 'story-owner');
	friend = await addMember(deps, 'story-friend');
	pending = await addMember(deps, 'story-pending');
	stranger = await addMember(deps, 'story-stranger');
	await befriend(deps, friend, owner, 'active');
	await befriend(deps, owner, pending, 'pending');
	await setMember(deps, owner.id, { timeZone: 'UTC', workoutPrivacy: 1 });
	november = await createChallenge(deps, NOVEMBER);
});
afterAll(() => database.close());

async function logRun(start: string, km: number, privacy: 0 | 1 = 0): Promise<number> {
	const answer = await callApi(app, 'POST', '/api/v7.1/workout/', {
		token: owner.token,
		body: workoutPayload(start, { km, minutes: 30, privacy }),
	});
	expect(answer.status).toBe(201);
	return answer.json.id;
}

async function setGoal(km: number) {
	const answer = await callApi(app, 'POST', '/api/v7.1/user_goal/', {
		token: owner.token,
		body: {
			period: 'P1W',
			criteria: {
				threshold_metrics: { data_type_field: 'distance', value: km * 1000 },
				activity_group: 'all',
			},
		},
	});
	expect(answer.status).toBe(201);
	return answer.json.id as number;
}

const storiesOf = async (token: string, type: string) =>
	(await feedIds(app, token)).filter((id) => id.startsWith(`${type}_`));

const storyAs = (token: string | undefined, id: string) => {
	const [type, number] = id.split('_');
	return callApi(app, 'GET', `/api/v7.1/activity_story/?object_type=${type}&object_id=${number}`, { token });
};

/** A member's whole home feed, one story a page, following each next link. */
async function walk(token: string): Promise<string[]> {
	const walked: string[] = [];
	let before: string | null = null;
	do {
		const query = `?limit=1${before ? `&before=${before}` : ''}`;
		const page = await callApi(app, 'GET', `/api/v7.1/activity_story/${query}`, { token });
		expect(page.status).toBe(200);
		walked.push(...page.json._embedded.activity_stories.map((story: { id: string }) => story.id));
		const href: string | undefined = page.json._links.next?.[0]?.href;
		before = href ? new URL(href, 'http://x').searchParams.get('before') : null;
	} while (before && walked.length < 50);
	return walked;
}

const join = (showName: boolean) =>
	callApi(app, 'POST', `/api/challenges/${november.id}/users/`, {
		token: owner.token,
		body: { show_name: showName },
	});

const like = (token: string, id: string) =>
	callApi(app, 'POST', '/api/v7.1/activity_story/', { token, body: { verb: 'like', parent_story_id: id } });

describe('goal stories', () => {
	test('a week reaching its target makes one story with the goal’s figures; more workouts and edits leave it be', async () => {
		const goalId = await setGoal(10);
		await logRun('2026-11-23T08:00:00Z', 6);
		expect(await storiesOf(owner.token, 'goal')).toEqual([]);
		const second = await logRun('2026-11-24T07:00:00Z', 5);
		const [storyId] = await storiesOf(owner.token, 'goal');
		expect(storyId).toMatch(/^goal_\d+$/);
		const story = (await storyAs(owner.token, storyId)).json._embedded.activity_stories[0];
		expect(story).toMatchObject({
			object_type: 'goal',
			actor: { id: owner.id },
			title: 'Weekly distance goal',
			// Met at the end of the run that took the week past its target.
			published: '2026-11-24T07:30:00+00:00',
			details: {
				type: 'goal',
				goal_id: goalId,
				metric: 'distance',
				target: 10_000,
				activity_group: 'all',
				week_start: '2026-11-23',
			},
			href: `/profile/${owner.id}/goals/`,
			can_delete: true,
		});
		expect(story.object_id).toBe(Number(storyId.slice('goal_'.length)));
		const ownGoals = await callApi(app, 'GET', '/api/v7.1/user_goal/', { token: owner.token });
		expect(ownGoals.json._embedded.user_goals[0]).toMatchObject({ id: goalId, progress: { met: true } });

		await logRun('2026-11-24T09:00:00Z', 3);
		const renamed = await callApi(app, 'PUT', `/api/v7.1/workout/${second}/`, {
			token: owner.token,
			body: { name: 'Tuesday tempo' },
		});
		expect(renamed.status).toBe(200);
		expect(await storiesOf(owner.token, 'goal')).toEqual([storyId]);
		expect((await storyAs(owner.token, storyId)).json._embedded.activity_stories[0].published).toBe(
			'2026-11-24T07:30:00+00:00',
		);
		// The friend sees it in their home feed, the goals page it leads to is theirs to open.
		expect(await storiesOf(friend.token, 'goal')).toEqual([storyId]);
		const goals = await callApi(app, 'GET', `/api/v7.1/user_goal/?user=${owner.id}`, { token: friend.token });
		expect(goals.status).toBe(200);
	});

	test('a deleted workout that drops the week below target takes the story out; meeting it again brings it back with its likes', async () => {
		await setGoal(10);
		await logRun('2026-11-23T08:00:00Z', 6);
		const second = await logRun('2026-11-24T07:00:00Z', 5);
		const [storyId] = await storiesOf(owner.token, 'goal');
		expect((await like(friend.token, storyId)).status).toBe(201);

		const removed = await callApi(app, 'DELETE', `/api/v7.1/workout/${second}/`, { token: owner.token });
		expect(removed.status).toBe(204);
		expect(await storiesOf(owner.token, 'goal')).toEqual([]);
		expect(await storiesOf(friend.token, 'goal')).toEqual([]);
		expect((await storyAs(friend.token, storyId)).status).toBe(404);
		expect((await like(friend.token, storyId)).status).toBe(404);

		await logRun('2026-11-24T10:00:00Z', 5);
		expect(await storiesOf(friend.token, 'goal')).toEqual([storyId]);
		const back = (await storyAs(friend.token, storyId)).json._embedded.activity_stories[0];
		expect(back.likes).toMatchObject({ count: 1, liked_by_me: true });
		expect(back.published).toBe('2026-11-24T10:30:00+00:00');
	});

	test('each met week of a goal is its own story; a week before the goal began makes none', async () => {
		await logRun('2026-11-10T08:00:00Z', 12);
		await setGoal(10);
		expect(await storiesOf(owner.token, 'goal')).toEqual([]);
		await logRun('2026-11-23T08:00:00Z', 11);
		expect(await storiesOf(owner.token, 'goal')).toHaveLength(1);
	});
});

describe('goal stories follow the member’s weeks', () => {
	test('moving the week start re-counts the weeks: a week no longer met loses its story', async () => {
		await setGoal(10);
		await logRun('2026-11-23T08:00:00Z', 6);
		await logRun('2026-11-24T07:00:00Z', 5);
		expect(await storiesOf(friend.token, 'goal')).toHaveLength(1);
		// Weeks from Tuesday: Monday's run belongs to the week before the goal began.
		const moved = await callApi(app, 'PUT', `/api/v7.1/user/${owner.id}/`, {
			token: owner.token,
			body: { week_start_day: 2 },
		});
		expect(moved.status).toBe(200);
		expect(await storiesOf(friend.token, 'goal')).toEqual([]);
		const back = await callApi(app, 'PUT', `/api/v7.1/user/${owner.id}/`, {
			token: owner.token,
			body: { week_start_day: 1 },
		});
		expect(back.status).toBe(200);
		expect(await storiesOf(friend.token, 'goal')).toHaveLength(1);
	});
});

describe('challenge stories', () => {
	test('joining makes a story leading to the challenge; joining again keeps one; leaving takes it out; rejoining brings it back', async () => {
		expect((await join(true)).status).toBe(201);
		const [storyId] = await storiesOf(owner.token, 'challenge');
		expect(storyId).toMatch(/^challenge_\d+$/);
		const story = (await storyAs(friend.token, storyId)).json._embedded.activity_stories[0];
		expect(story).toMatchObject({
			object_type: 'challenge',
			title: 'November Distance',
			published: '2026-11-24T15:00:00+00:00',
			details: { type: 'challenge', challenge_id: november.id },
			href: `/challenges/${november.id}`,
			can_delete: false,
		});
		expect((await join(true)).status).toBe(201);
		expect(await storiesOf(owner.token, 'challenge')).toEqual([storyId]);
		expect((await like(friend.token, storyId)).status).toBe(201);

		const left = await callApi(app, 'DELETE', `/api/challenges/${november.id}/users/${owner.id}/`, {
			token: owner.token,
		});
		expect(left.status).toBe(200);
		expect(await storiesOf(owner.token, 'challenge')).toEqual([]);
		expect(await storiesOf(friend.token, 'challenge')).toEqual([]);
		expect((await storyAs(friend.token, storyId)).status).toBe(404);

		clock.advance(300);
		expect((await join(true)).status).toBe(201);
		expect(await storiesOf(friend.token, 'challenge')).toEqual([storyId]);
		const back = (await storyAs(friend.token, storyId)).json._embedded.activity_stories[0];
		expect(back.published).toBe('2026-11-24T15:05:00+00:00');
		expect(back.likes.count).toBe(1);

		// A challenge renamed by its operator is named anew in the story.
		await updateChallenge(deps, november.id, { ...NOVEMBER, name: 'November Kilometres' });
		expect((await storyAs(friend.token, storyId)).json._embedded.activity_stories[0].title).toBe(
			'November Kilometres',
		);
	});
});

type ViewerKind = 'owner' | 'friend' | 'pending' | 'stranger' | 'anonymous';
const VIEWERS: ViewerKind[] = ['owner', 'friend', 'pending', 'stranger', 'anonymous'];
/** Written out, not computed by the code under test: who sees a story at each workout privacy. */
const MAY_SEE: Record<ViewerKind, number[]> = {
	owner: [0, 1, 3],
	friend: [1, 3],
	pending: [3],
	stranger: [3],
	anonymous: [],
};

describe('viewer × privacy matrix for goal and challenge stories', () => {
	test('each viewer reads, likes and comments exactly when the member’s workout privacy allows', async () => {
		await setGoal(5);
		await logRun('2026-11-23T08:00:00Z', 6);
		expect((await join(true)).status).toBe(201);
		const [goalStory] = await storiesOf(owner.token, 'goal');
		const [challengeStory] = await storiesOf(owner.token, 'challenge');
		const tokenOf = (kind: ViewerKind) =>
			kind === 'anonymous' ? undefined : { owner, friend, pending, stranger }[kind].token;
		for (const privacy of [0, 1, 3]) {
			await setMember(deps, owner.id, { workoutPrivacy: privacy });
			for (const kind of VIEWERS) {
				const token = tokenOf(kind);
				const allowed = MAY_SEE[kind].includes(privacy);
				for (const id of [goalStory, challengeStory]) {
					const label = `${kind} at ${privacy}: ${id}`;
					const read = await storyAs(token, id);
					expect(read.status, label).toBe(token ? (allowed ? 200 : 404) : 401);
					if (!allowed) expect(read.text, label).not.toContain('November Distance');
					for (const reply of ['comment', 'like']) {
						const listed = await callApi(
							app,
							'GET',
							`/api/v7.1/activity_story/?reply_type=${reply}&parent_story_id=${id}`,
							{ token },
						);
						expect(listed.status, `${label} ${reply}s`).toBe(token ? (allowed ? 200 : 404) : 401);
					}
					const liked = await callApi(app, 'POST', '/api/v7.1/activity_story/', {
						token,
						body: { verb: 'like', parent_story_id: id },
					});
					expect(liked.status, `${label} like`).toBe(token ? (allowed ? 201 : 404) : 401);
					const commented = await callApi(app, 'POST', '/api/v7.1/activity_story/', {
						token,
						body: { verb: 'comment', parent_story_id: id, text: 'Nice one' },
					});
					expect(commented.status, `${label} comment`).toBe(token ? (allowed ? 201 : 404) : 401);
					if (allowed && token) {
						expect(
							(await callApi(app, 'DELETE', `/api/v7.1/activity_story/${liked.json.id}/`, { token })).status,
						).toBe(204);
						expect(
							(await callApi(app, 'DELETE', `/api/v7.1/activity_story/${commented.json.id}/`, { token }))
								.status,
						).toBe(204);
					}
				}
				if (token && kind !== 'owner') {
					// Home feeds hold friends' stories only; a profile feed shows what the viewer may see.
					const home = [...(await storiesOf(token, 'goal')), ...(await storiesOf(token, 'challenge'))];
					expect(home.sort(), `${kind} home at ${privacy}`).toEqual(
						kind === 'friend' && allowed ? [challengeStory, goalStory].sort() : [],
					);
				}
			}
		}
	});

	test('a member who keeps their name off the leaderboard is announced to friends only', async () => {
		await setMember(deps, owner.id, { workoutPrivacy: 3 });
		await deps.db.update(users).set({ profilePrivacy: 3 }).where(eq(users.id, owner.id));
		expect((await join(false)).status).toBe(201);
		const [storyId] = await storiesOf(owner.token, 'challenge');
		expect((await storyAs(friend.token, storyId)).status).toBe(200);
		expect((await storyAs(stranger.token, storyId)).status).toBe(404);
		const profile = await feedIds(app, stranger.token, `?feed_id=${owner.id}&feed_view=own`);
		expect(profile).not.toContain(storyId);
		expect(await feedIds(app, friend.token, `?feed_id=${owner.id}&feed_view=own`)).toContain(storyId);
		// Showing the name again opens the story to everyone the member's privacy allows.
		expect((await join(true)).status).toBe(201);
		expect((await storyAs(stranger.token, storyId)).status).toBe(200);
		expect(await feedIds(app, stranger.token, `?feed_id=${owner.id}&feed_view=own`)).toContain(storyId);
	});
});

describe('paging', () => {
	test('next links walk workouts, goal and challenge stories once each, newest first; polling finds a new one', async () => {
		await setGoal(5);
		const run = await logRun('2026-11-23T08:00:00Z', 6, 1);
		const walked = await walk(friend.token);
		const [goalStory] = await storiesOf(owner.token, 'goal');
		// The goal was met as the run ended, so it comes before (newer than) the run.
		expect(walked).toEqual([goalStory, `workout_${run}`]);
		const top = (await callApi(app, 'GET', '/api/v7.1/activity_story/', { token: friend.token })).json
			._embedded.activity_stories[0].position;
		expect((await join(true)).status).toBe(201);
		const [challengeStory] = await storiesOf(owner.token, 'challenge');
		expect(await feedIds(app, friend.token, `?after=${top}`)).toEqual([challengeStory]);
	});
});

describe('paging ties', () => {
	test('a goal met and a challenge joined at the same instant are each walked once, in feed order', async () => {
		await setGoal(5);
		// Still running at the clock's time: the week is met now, as the challenge is joined.
		const run = await logRun('2026-11-24T14:50:00Z', 6, 1);
		expect((await join(true)).status).toBe(201);
		const walked = await walk(friend.token);
		const [goalStory] = await storiesOf(owner.token, 'goal');
		const [challengeStory] = await storiesOf(owner.token, 'challenge');
		expect(walked).toEqual([goalStory, challengeStory, `workout_${run}`]);
	});
});

describe('reactions, notifications and removal', () => {
	test('a friend likes, comments and replies; the member is notified with a link to the story’s page and can remove it', async () => {
		await setGoal(5);
		await logRun('2026-11-23T08:00:00Z', 6);
		expect((await join(true)).status).toBe(201);
		const [goalStory] = await storiesOf(friend.token, 'goal');
		const [challengeStory] = await storiesOf(friend.token, 'challenge');
		expect((await like(friend.token, goalStory)).status).toBe(201);
		const comment = await callApi(app, 'POST', '/api/v7.1/activity_story/', {
			token: friend.token,
			body: { verb: 'comment', parent_story_id: challengeStory, text: 'See you on the board' },
		});
		expect(comment.status).toBe(201);
		const reply = await callApi(app, 'POST', '/api/v7.1/activity_story/', {
			token: owner.token,
			body: { verb: 'comment', parent_story_id: comment.json.id, text: 'You bet' },
		});
		expect(reply.status).toBe(201);
		expect(reply.json).toMatchObject({ parent_story_id: challengeStory, reply_to: comment.json.id });
		const comments = await callApi(
			app,
			'GET',
			`/api/v7.1/activity_story/?reply_type=comment&parent_story_id=${challengeStory}`,
			{ token: friend.token },
		);
		expect(comments.json._embedded.activity_stories.map((item: { text: string }) => item.text)).toEqual([
			'See you on the board',
			'You bet',
		]);
		const likers = await callApi(
			app,
			'GET',
			`/api/v7.1/activity_story/?reply_type=like&parent_story_id=${goalStory}`,
			{
				token: owner.token,
			},
		);
		expect(
			likers.json._embedded.activity_stories.map((item: { actor: { id: number } }) => item.actor.id),
		).toEqual([friend.id]);
		const goal = (await storyAs(owner.token, goalStory)).json._embedded.activity_stories[0];
		expect(goal.likes.count).toBe(1);
		const challenge = (await storyAs(owner.token, challengeStory)).json._embedded.activity_stories[0];
		expect(challenge.comments.count).toBe(2);

		const notices = await callApi(app, 'GET', '/api/v7.1/notification/', { token: owner.token });
		expect(notices.status).toBe(200);
		expect(notices.json.notifications).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ kind: 'like', href: `/profile/${owner.id}/goals/` }),
				expect.objectContaining({ kind: 'comment', href: `/challenges/${november.id}` }),
			]),
		);

		// Only the member removes their story; it leaves every feed and the goal stays.
		expect(
			(await callApi(app, 'DELETE', `/api/v7.1/activity_story/${goalStory}/`, { token: friend.token }))
				.status,
		).toBe(404);
		expect(
			(await callApi(app, 'DELETE', `/api/v7.1/activity_story/${goalStory}/`, { token: owner.token })).status,
		).toBe(204);
		expect(await storiesOf(friend.token, 'goal')).toEqual([]);
		expect(await storiesOf(owner.token, 'goal')).toEqual([]);
		// Another workout in the week does not bring a removed story back.
		await logRun('2026-11-24T08:00:00Z', 2);
		expect(await storiesOf(owner.token, 'goal')).toEqual([]);
		const goals = await callApi(app, 'GET', '/api/v7.1/user_goal/', { token: owner.token });
		expect(goals.json._embedded.user_goals).toHaveLength(1);
	});
});
