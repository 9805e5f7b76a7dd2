import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { users } from '../../../src/lib/auth/server/tables';
import { feedPageWithReplies } from '../../../src/lib/social/server/feed';
import { listComments, listLikes } from '../../../src/lib/social/server/reactions';
import { callApi } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import {
	addMember,
	befriend,
	createSocialTestApp,
	feedIds,
	linePayload,
	type Member,
	runPayload,
	type SocialApp,
} from './helpers';

/**
 * Stories are workouts and routes; the viewer × privacy matrix holds for stories, likes, comments
 * and the profile feed, and a change of privacy applies at once.
 */
let database: TestDatabase;
let app: SocialApp;
let deps: ReturnType<typeof createSocialTestApp>['deps'];
let owner: Member;
let friend: Member;
let pending: Member;
let stranger: Member;
const workoutIds: Record<number, number> = {};
const routeIds: Record<number, number> = {};

type ViewerKind = 'owner' | 'friend' | 'pending' | 'stranger';
const VIEWERS: ViewerKind[] = ['owner', 'friend', 'pending', 'stranger'];
/** Written out, not computed by the code under test. */
const MAY_SEE_WORKOUT: Record<ViewerKind, number[]> = {
	owner: [0, 1, 3],
	friend: [1, 3],
	pending: [3],
	stranger: [3],
};
const MAY_SEE_ROUTE: Record<ViewerKind, number[]> = {
	owner: [0, 1, 3, 6],
	friend: [1, 3],
	pending: [3],
	stranger: [3],
};
const memberOf = (kind: ViewerKind) => ({ owner, friend, pending, stranger })[kind];

beforeAll(async () => {
	database = await openTestDb();
	({ app, deps } = createSocialTestApp(database, { commentsPerHour: 8 }));
	owner = await addMember(deps, 'feed-owner');
	friend = await addMember(deps, 'feed-friend');
	pending = await addMember(deps, 'feed-pending');
	stranger = await addMember(deps, 'feed-stranger');
	await befriend(deps, friend, owner, 'active');
	await befriend(deps, owner, pending, 'pending');
	for (const [index, privacy] of ([0, 1, 3] as const).entries()) {
		const made = await callApi(app, 'POST', '/api/v7.1/workout/', {
			token: owner.token,
			body: runPayload(`Matrix run ${privacy}`, { privacy, start: `2026-05-0${index + 1}T07:30:00+00:00` }),
		});
		expect(made.status).toBe(201);
		workoutIds[privacy] = made.json.id;
	}
	for (const privacy of [0, 1, 3, 6] as const) {
		const made = await callApi(app, 'POST', '/api/v7.1/route/', {
			token: owner.token,
			body: linePayload(`Matrix route ${privacy}`, { privacy, lat: 40.3 }),
		});
		expect(made.status).toBe(201);
		routeIds[privacy] = made.json.id;
	}
});
afterAll(() => database.close());

describe('viewer × privacy matrix for stories', () => {
	for (const kind of VIEWERS) {
		test(`${kind}: story, likes and comments of each workout and route exactly when allowed`, async () => {
			const viewer = memberOf(kind);
			for (const [type, allowedLevels, objects] of [
				['workout', MAY_SEE_WORKOUT[kind], workoutIds],
				['route', MAY_SEE_ROUTE[kind], routeIds],
			] as const) {
				for (const [privacy, id] of Object.entries(objects)) {
					const allowed = allowedLevels.includes(Number(privacy));
					const story = await callApi(
						app,
						'GET',
						`/api/v7.1/activity_story/?object_type=${type}&object_id=${id}`,
						{
							token: viewer.token,
						},
					);
					expect(story.status, `${type} ${privacy}`).toBe(allowed ? 200 : 404);
					if (!allowed) expect(story.text).not.toContain('Matrix');
					for (const reply of ['comment', 'like']) {
						const listed = await callApi(
							app,
							'GET',
							`/api/v7.1/activity_story/?reply_type=${reply}&parent_story_id=${type}_${id}`,
							{ token: viewer.token },
						);
						expect(listed.status).toBe(allowed ? 200 : 404);
					}
					const like = await callApi(app, 'POST', '/api/v7.1/activity_story/', {
						token: viewer.token,
						body: { verb: 'like', parent_story_id: `${type}_${id}` },
					});
					expect(like.status).toBe(allowed ? 201 : 404);
					if (allowed) {
						const unlike = await callApi(app, 'DELETE', `/api/v7.1/activity_story/${like.json.id}/`, {
							token: viewer.token,
						});
						expect(unlike.status).toBe(204);
					}
				}
			}
		});
	}

	test('the home feed holds own and friends’ stories each viewer may see, and nothing else', async () => {
		const ownerFeed = await feedIds(app, owner.token);
		expect(ownerFeed.sort()).toEqual(
			[
				...Object.values(workoutIds).map((id) => `workout_${id}`),
				...Object.values(routeIds).map((id) => `route_${id}`),
			].sort(),
		);
		const friendFeed = await feedIds(app, friend.token);
		expect(friendFeed.sort()).toEqual(
			[
				`workout_${workoutIds[1]}`,
				`workout_${workoutIds[3]}`,
				`route_${routeIds[1]}`,
				`route_${routeIds[3]}`,
			].sort(),
		);
		// Pending requests and strangers are not friends: the owner is not in their home feed.
		expect(await feedIds(app, pending.token)).toEqual([]);
		expect(await feedIds(app, stranger.token)).toEqual([]);
		// Someone else's home feed is never readable.
		const other = await callApi(app, 'GET', `/api/v7.1/activity_story/?feed_id=${owner.id}&feed_view=home`, {
			token: friend.token,
		});
		expect(other.status).toBe(404);
		expect((await callApi(app, 'GET', '/api/v7.1/activity_story/')).status).toBe(401);
	});

	test('a profile feed answers the same for a private profile and a missing member', async () => {
		const friendSees = await feedIds(app, friend.token, `?feed_id=${owner.id}&feed_type=user&feed_view=own`);
		expect(friendSees).toHaveLength(4);
		for (const viewer of [pending, stranger]) {
			const hidden = await callApi(
				app,
				'GET',
				`/api/v7.1/activity_story/?feed_id=${owner.id}&feed_view=own`,
				{
					token: viewer.token,
				},
			);
			const missing = await callApi(app, 'GET', '/api/v7.1/activity_story/?feed_id=999999&feed_view=own', {
				token: viewer.token,
			});
			expect(hidden.status).toBe(404);
			expect(hidden.text).toBe(missing.text);
			expect(hidden.text).toContain('This profile is set to private or the user does not exist.');
		}
	});

	test('making a workout private takes it out of every feed at once', async () => {
		const made = await callApi(app, 'POST', '/api/v7.1/workout/', {
			token: owner.token,
			body: runPayload('Soon private', { privacy: 1, start: '2026-05-09T07:30:00+00:00' }),
		});
		expect(await feedIds(app, friend.token)).toContain(`workout_${made.json.id}`);
		const changed = await callApi(app, 'PUT', `/api/v7.1/workout/${made.json.id}/`, {
			token: owner.token,
			body: { privacy: 0 },
		});
		expect(changed.status).toBe(200);
		expect(await feedIds(app, friend.token)).not.toContain(`workout_${made.json.id}`);
		await callApi(app, 'DELETE', `/api/v7.1/workout/${made.json.id}/`, { token: owner.token });
	});
});

describe('likes, comments and replies', () => {
	const story = () => `workout_${workoutIds[3]}`;
	const storyOf = async (token: string) =>
		(
			await callApi(app, 'GET', `/api/v7.1/activity_story/?object_type=workout&object_id=${workoutIds[3]}`, {
				token,
			})
		).json._embedded.activity_stories[0];

	test('like, see who liked, unlike lowers the count', async () => {
		const like = await callApi(app, 'POST', '/api/v7.1/activity_story/', {
			token: friend.token,
			body: { verb: 'like', parent_story_id: story() },
		});
		expect(like.status).toBe(201);
		expect(await storyOf(owner.token)).toMatchObject({ likes: { count: 1, liked_by_me: false } });
		expect(await storyOf(friend.token)).toMatchObject({
			likes: { count: 1, liked_by_me: true, like_id: like.json.id },
		});
		const who = await callApi(
			app,
			'GET',
			`/api/v7.1/activity_story/?reply_type=like&parent_story_id=${story()}`,
			{
				token: owner.token,
			},
		);
		expect(
			who.json._embedded.activity_stories.map((item: { actor: { id: number } }) => item.actor.id),
		).toEqual([friend.id]);
		// Only the one who liked can take it back.
		expect(
			(await callApi(app, 'DELETE', `/api/v7.1/activity_story/${like.json.id}/`, { token: owner.token }))
				.status,
		).toBe(404);
		expect(
			(await callApi(app, 'DELETE', `/api/v7.1/activity_story/${like.json.id}/`, { token: friend.token }))
				.status,
		).toBe(204);
		expect((await storyOf(owner.token)).likes.count).toBe(0);
	});

	test('comment, reply, plain text kept as text, delete own; the story owner may delete any', async () => {
		const comment = await callApi(app, 'POST', '/api/v7.1/activity_story/', {
			token: friend.token,
			body: { verb: 'comment', parent_story_id: story(), text: '<img src=x onerror=alert(1)> Nice pace!' },
		});
		expect(comment.status).toBe(201);
		const reply = await callApi(app, 'POST', '/api/v7.1/activity_story/', {
			token: owner.token,
			body: { verb: 'comment', parent_story_id: comment.json.id, text: 'Thanks!' },
		});
		expect(reply.status).toBe(201);
		expect(reply.json.reply_to).toBe(comment.json.id);
		const listed = await callApi(
			app,
			'GET',
			`/api/v7.1/activity_story/?reply_type=comment&parent_story_id=${story()}`,
			{
				token: stranger.token,
			},
		);
		expect(listed.json._embedded.activity_stories).toMatchObject([
			{
				id: comment.json.id,
				text: '<img src=x onerror=alert(1)> Nice pace!',
				reply_to: null,
				can_delete: false,
			},
			{ id: reply.json.id, reply_to: comment.json.id },
		]);
		expect((await storyOf(friend.token)).comments.count).toBe(2);
		// A stranger deletes neither; the friend deletes their own; the reply goes with it.
		expect(
			(
				await callApi(app, 'DELETE', `/api/v7.1/activity_story/${comment.json.id}/`, {
					token: stranger.token,
				})
			).status,
		).toBe(404);
		expect(
			(await callApi(app, 'DELETE', `/api/v7.1/activity_story/${comment.json.id}/`, { token: friend.token }))
				.status,
		).toBe(204);
		expect((await storyOf(friend.token)).comments.count).toBe(0);

		const another = await callApi(app, 'POST', '/api/v7.1/activity_story/', {
			token: stranger.token,
			body: { verb: 'comment', parent_story_id: story(), text: 'Spam' },
		});
		expect(
			(await callApi(app, 'DELETE', `/api/v7.1/activity_story/${another.json.id}/`, { token: owner.token }))
				.status,
		).toBe(204);
	});

	test('hostile comment text is refused with 400; too many comments an hour answer 429', async () => {
		for (const text of ['a\u0000b', '\ud800', 'x'.repeat(1001), '   ']) {
			const answer = await callApi(app, 'POST', '/api/v7.1/activity_story/', {
				token: pending.token,
				body: { verb: 'comment', parent_story_id: story(), text },
			});
			expect(answer.status).toBe(400);
		}
		const statuses: number[] = [];
		for (let index = 0; index < 9; index++) {
			const answer = await callApi(app, 'POST', '/api/v7.1/activity_story/', {
				token: pending.token,
				body: { verb: 'comment', parent_story_id: story(), text: `Comment ${index}` },
			});
			statuses.push(answer.status);
		}
		expect(statuses.at(-1)).toBe(429);
		expect(statuses.filter((status) => status === 201).length).toBeLessThanOrEqual(8);
	});

	test('deleting one’s own story takes it out of feeds; only the owner can', async () => {
		const route = `route_${routeIds[1]}`;
		expect(
			(await callApi(app, 'DELETE', `/api/v7.1/activity_story/${route}/`, { token: friend.token })).status,
		).toBe(404);
		expect(await feedIds(app, friend.token)).toContain(route);
		expect(
			(await callApi(app, 'DELETE', `/api/v7.1/activity_story/${route}/`, { token: owner.token })).status,
		).toBe(204);
		expect(await feedIds(app, friend.token)).not.toContain(route);
		expect(await feedIds(app, owner.token)).not.toContain(route);
	});

	test('a blocked member’s comments and likes are hidden from the blocker', async () => {
		const pest = await addMember(deps, 'feed-pest');
		const comment = await callApi(app, 'POST', '/api/v7.1/activity_story/', {
			token: pest.token,
			body: { verb: 'comment', parent_story_id: `workout_${workoutIds[3]}`, text: 'Hello' },
		});
		expect(comment.status).toBe(201);
		await callApi(app, 'POST', '/api/v7.1/block/', { token: owner.token, body: { user: pest.id } });
		const listed = await callApi(
			app,
			'GET',
			`/api/v7.1/activity_story/?reply_type=comment&parent_story_id=workout_${workoutIds[3]}`,
			{ token: owner.token },
		);
		expect(listed.text).not.toContain('feed-pest');
		const blockedSees = await callApi(
			app,
			'GET',
			`/api/v7.1/activity_story/?object_type=workout&object_id=${workoutIds[3]}`,
			{
				token: pest.token,
			},
		);
		expect(blockedSees.status).toBe(404);
	});
});

describe('paging and new stories', () => {
	test('next links walk every story once, newest first; newer-than finds only new ones', async () => {
		const walker = await addMember(deps, 'feed-walker');
		const buddy = await addMember(deps, 'feed-buddy');
		await befriend(deps, walker, buddy, 'active');
		const made: string[] = [];
		for (let index = 0; index < 45; index++) {
			const day = String(1 + (index % 28)).padStart(2, '0');
			const month = String(1 + Math.floor(index / 28)).padStart(2, '0');
			const answer = await callApi(app, 'POST', '/api/v7.1/workout/', {
				token: index % 2 ? walker.token : buddy.token,
				// Two workouts share each start time, so ties are ordered too.
				body: runPayload(`Walk ${index}`, { privacy: 1, start: `2025-${month}-${day}T06:00:00+00:00` }),
			});
			expect(answer.status).toBe(201);
			made.push(`workout_${answer.json.id}`);
		}
		const seen: string[] = [];
		let path: string | null = '/api/v7.1/activity_story/?limit=20';
		let pages = 0;
		while (path) {
			const page = await callApi(app, 'GET', path.startsWith('/api') ? path : `/api${path}`, {
				token: walker.token,
			});
			expect(page.status).toBe(200);
			const stories = page.json._embedded.activity_stories;
			seen.push(...stories.map((story: { id: string }) => story.id));
			path = page.json._links.next?.[0]?.href ?? null;
			pages++;
		}
		expect(pages).toBe(3);
		expect(seen).toHaveLength(45);
		expect(new Set(seen)).toEqual(new Set(made));

		const top = (await callApi(app, 'GET', '/api/v7.1/activity_story/?limit=1', { token: walker.token })).json
			._embedded.activity_stories[0];
		const fresh = await callApi(app, 'POST', '/api/v7.1/workout/', {
			token: buddy.token,
			body: runPayload('Fresh walk', { privacy: 1, start: '2025-12-30T06:00:00+00:00' }),
		});
		const newer = await feedIds(app, walker.token, `?after=${top.position}`);
		expect(newer).toEqual([`workout_${fresh.json.id}`]);
	});
});

describe('profile privacy of the feed', () => {
	test('a public profile shows its public stories to a stranger, and only those', async () => {
		await deps.db.update(users).set({ profilePrivacy: 3 }).where(eq(users.id, owner.id));
		const seen = await feedIds(app, stranger.token, `?feed_id=${owner.id}&feed_view=own`);
		expect(seen.sort()).toEqual([`workout_${workoutIds[3]}`, `route_${routeIds[3]}`].sort());
		await deps.db.update(users).set({ profilePrivacy: 1 }).where(eq(users.id, owner.id));
	});
});

describe('thumbnails', () => {
	test('a friend’s card is drawn from the trimmed track: nothing inside the owner’s privacy zone', async () => {
		const runner = await addMember(deps, 'thumb-runner');
		const buddy = await addMember(deps, 'thumb-buddy');
		await befriend(deps, runner, buddy, 'active');
		const home = { lat: 46.0569, lng: 14.5058 };
		// Straight north from home, about 20 m a second for 150 s: 3 km.
		const position = Array.from({ length: 151 }, (_, second) => [
			second,
			{ lat: Number((home.lat + (second * 20) / 111_320).toFixed(6)), lng: home.lng },
		]);
		const zone = await callApi(app, 'POST', '/api/v7.1/privacy_zone/', {
			token: runner.token,
			body: { name: 'Home', lat: home.lat, lng: home.lng, radius: 400 },
		});
		expect(zone.status).toBe(201);
		const made = await callApi(app, 'POST', '/api/v7.1/workout/', {
			token: runner.token,
			body: {
				name: 'Morning out',
				start_datetime: '2026-05-20T06:00:00+00:00',
				activity_type: 16,
				privacy: 1,
				aggregates: {},
				time_series: { position },
			},
		});
		expect(made.status).toBe(201);
		const cardFor = async (token: string) =>
			(
				await callApi(app, 'GET', `/api/v7.1/activity_story/?object_type=workout&object_id=${made.json.id}`, {
					token,
				})
			).json._embedded.activity_stories[0];
		const metresFromHome = ([lat]: [number, number]) => Math.abs(lat - home.lat) * 111_320;
		const ownCard = await cardFor(runner.token);
		expect(Math.min(...ownCard.thumbnail.map(metresFromHome))).toBeLessThan(1);
		const friendCard = await cardFor(buddy.token);
		expect(friendCard.thumbnail.length).toBeGreaterThan(10);
		expect(Math.min(...friendCard.thumbnail.map(metresFromHome))).toBeGreaterThan(400);
		const feedCard = (await callApi(app, 'GET', '/api/v7.1/activity_story/', { token: buddy.token })).json
			._embedded.activity_stories[0];
		expect(feedCard.id).toBe(`workout_${made.json.id}`);
		expect(feedCard.thumbnail).toEqual(friendCard.thumbnail);
	});
});

describe('the feed pages, which render each story with its replies', () => {
	test("each story's comments and likers are the ones its own lists give, for every viewer", async () => {
		// Earlier tests left comments, replies, likes and a block on these stories.
		let checked = 0;
		for (const kind of VIEWERS) {
			const viewer = memberOf(kind);
			const page = await feedPageWithReplies(deps, viewer, { feedId: viewer.id, view: 'home', limit: 20 });
			checked += page.items.length;
			for (const { story, comments, likes } of page.items) {
				expect(comments).toEqual(await listComments(deps, viewer, story.id));
				expect(likes).toEqual(await listLikes(deps, viewer, story.id));
				expect(comments).toHaveLength(story.comments.count);
			}
		}
		expect(checked).toBeGreaterThan(0);
		const withReplies = await feedPageWithReplies(deps, owner, { feedId: owner.id, view: 'home', limit: 20 });
		expect(withReplies.items.some(({ comments }) => comments.length > 0)).toBe(true);
	});
});
