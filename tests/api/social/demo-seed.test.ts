import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createAuthApi } from '../../../src/lib/auth/server/api';
import { DEMO_LOGIN, seedDemoWorld } from '../../../src/lib/db/seed';
import { createRoutesApi } from '../../../src/lib/routes/server/api';
import { createSocialApi } from '../../../src/lib/social/server/api';
import { callApi, createTestApi, createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';

let database: TestDatabase;

beforeAll(async () => {
	database = await openTestDb();
});
afterAll(() => database.close());

describe('the demo member’s social life', () => {
	test('has friends whose workouts, goal and challenge fill the feed on first start, a request waiting and a suggestion', async () => {
		const deps = createTestDeps(database.db);
		const app = createTestApi(deps, { routes: [createAuthApi(), createRoutesApi(), createSocialApi()] });
		await seedDemoWorld(deps);
		const login = await callApi(app, 'POST', '/api/auth/login', {
			body: DEMO_LOGIN,
			headers: { origin: 'http://localhost:4321' },
		});
		expect(login.status).toBe(200);
		const token = login.json.access_token as string;
		const me = login.json.user.id as number;

		const friends = await callApi(app, 'GET', `/api/v7.1/user/?friends_with=${me}`, { token });
		expect(
			friends.json._embedded.user.map((user: { display_name: string }) => user.display_name).sort(),
		).toEqual(['Ana Runner', 'Ben Rider']);
		const requests = await callApi(app, 'GET', `/api/v7.1/user/?requested_friendship_with=${me}`, { token });
		expect(requests.json._embedded.user.map((user: { display_name: string }) => user.display_name)).toEqual([
			'Cara Walker',
		]);
		const suggested = await callApi(app, 'GET', `/api/v7.1/user/?suggested_friends_for=${me}`, { token });
		expect(
			suggested.json._embedded.user.map((user: { display_name: string }) => user.display_name),
		).toContain('Dev Trail');

		const feed = await callApi(app, 'GET', '/api/v7.1/activity_story/?limit=100', { token });
		const stories = feed.json._embedded.activity_stories as {
			object_type: string;
			title: string;
			href: string;
			actor: { id: number };
			likes: { count: number };
			comments: { count: number };
		}[];
		const friendsWorkouts = stories.filter(
			(story) => story.object_type === 'workout' && story.actor.id !== me,
		);
		// Both friends' workouts are there: Ana's recordings and Ben's rides.
		expect(new Set(friendsWorkouts.map((story) => story.actor.id)).size).toBe(2);
		expect(friendsWorkouts.some((story) => story.likes.count === 1 && story.comments.count === 1)).toBe(true);
		// Ben met his weekly riding goal and joined the cycling challenge.
		const ben = friends.json._embedded.user.find(
			(user: { display_name: string }) => user.display_name === 'Ben Rider',
		).id;
		const goal = stories.find((story) => story.object_type === 'goal');
		expect(goal).toMatchObject({ actor: { id: ben }, href: `/profile/${ben}/goals/` });
		const challenge = stories.find((story) => story.object_type === 'challenge');
		expect(challenge).toMatchObject({ actor: { id: ben }, title: 'Climb Everest by Bike' });
		expect(challenge?.href).toMatch(/^\/challenges\/\d+$/);
	});
});
