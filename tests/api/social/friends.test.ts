import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { users } from '../../../src/lib/auth/server/tables';
import { callApi } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { addMember, createSocialTestApp, type Member, type SocialApp } from './helpers';

let database: TestDatabase;
let app: SocialApp;
let deps: ReturnType<typeof createSocialTestApp>['deps'];

beforeAll(async () => {
	database = await openTestDb();
	({ app, deps } = createSocialTestApp(database, { friendRequestsPerHour: 5, commentsPerHour: 3 }));
});
afterAll(() => database.close());

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by assertions
const ids = (answer: { json: Record<string, any> }): number[] =>
	answer.json._embedded.user.map((user: { id: number }) => user.id);

async function friendsOf(member: Member) {
	return callApi(app, 'GET', `/api/v7.1/user/?friends_with=${member.id}&limit=40&offset=0`, {
		token: member.token,
	});
}

describe('friend requests', () => {
	let kai: Member;
	let lea: Member;
	beforeAll(async () => {
		kai = await addMember(deps, 'kai');
		lea = await addMember(deps, 'lea');
	});

	test('send, deny, re-send, accept, then remove: totals move by accept +1, remove −1, deny 0', async () => {
		const sent = await callApi(app, 'POST', '/api/v7.1/friendship/', {
			token: kai.token,
			body: { to_user: lea.id },
		});
		expect(sent.status).toBe(201);
		expect(sent.json).toMatchObject({ id: `${kai.id}_${lea.id}`, status: 'pending' });

		// Kai sees it among requests sent; Lea among requests received; neither has a friend yet.
		const pendingSent = await callApi(app, 'GET', `/api/v7.1/user/?friends_with=${kai.id}&status=pending`, {
			token: kai.token,
		});
		expect(ids(pendingSent)).toEqual([lea.id]);
		expect(pendingSent.json._embedded.user[0].friend_status).toBe('sent');
		const received = await callApi(app, 'GET', `/api/v7.1/user/?requested_friendship_with=${lea.id}`, {
			token: lea.token,
		});
		expect(ids(received)).toEqual([kai.id]);
		expect((await friendsOf(lea)).json.total_count).toBe(0);

		// Kai cannot accept his own request; Lea denies it; totals do not move.
		const selfAccept = await callApi(app, 'PATCH', `/api/v7.1/friendship/${kai.id}_${lea.id}/`, {
			token: kai.token,
			body: { status: 'active' },
		});
		expect(selfAccept.status).toBe(403);
		const denied = await callApi(app, 'DELETE', `/api/v7.1/friendship/${kai.id}_${lea.id}/`, {
			token: lea.token,
		});
		expect(denied.status).toBe(204);
		expect((await friendsOf(lea)).json.total_count).toBe(0);
		expect((await friendsOf(kai)).json.total_count).toBe(0);

		const again = await callApi(app, 'POST', '/api/v7.1/friendship/', {
			token: kai.token,
			body: { to_user: lea.id },
		});
		expect(again.status).toBe(201);
		const accepted = await callApi(app, 'PATCH', `/api/v7.1/friendship/${kai.id}_${lea.id}/`, {
			token: lea.token,
			body: { status: 'active' },
		});
		expect(accepted.status).toBe(200);
		expect(accepted.json.status).toBe('active');
		expect((await friendsOf(lea)).json.total_count).toBe(1);
		expect(ids(await friendsOf(kai))).toEqual([lea.id]);

		const removed = await callApi(app, 'DELETE', `/api/v7.1/friendship/${kai.id}_${lea.id}/`, {
			token: kai.token,
		});
		expect(removed.status).toBe(204);
		expect((await friendsOf(lea)).json.total_count).toBe(0);
		expect((await friendsOf(kai)).json.total_count).toBe(0);
	});

	test('asking someone who already asked you makes you friends', async () => {
		const a = await addMember(deps, 'mutual-a');
		const b = await addMember(deps, 'mutual-b');
		await callApi(app, 'POST', '/api/v7.1/friendship/', { token: a.token, body: { to_user: b.id } });
		const back = await callApi(app, 'POST', '/api/v7.1/friendship/', {
			token: b.token,
			body: { to_user: String(a.id) },
		});
		expect(back.status).toBe(201);
		expect(back.json).toMatchObject({ id: `${a.id}_${b.id}`, status: 'active' });
	});

	test('nobody else reads, accepts or removes a friendship, and lists are only your own', async () => {
		const a = await addMember(deps, 'pair-a');
		const b = await addMember(deps, 'pair-b');
		const outsider = await addMember(deps, 'outsider');
		await callApi(app, 'POST', '/api/v7.1/friendship/', { token: a.token, body: { to_user: b.id } });
		const key = `${a.id}_${b.id}`;
		for (const [method, body] of [
			['GET', undefined],
			['PATCH', { status: 'active' }],
			['DELETE', undefined],
		] as const) {
			const answer = await callApi(app, method, `/api/v7.1/friendship/${key}/`, {
				token: outsider.token,
				body,
			});
			expect(answer.status).toBe(404);
		}
		expect((await callApi(app, 'GET', `/api/v7.1/friendship/${key}/`, { token: b.token })).json.status).toBe(
			'pending',
		);
		const theirs = await callApi(app, 'GET', `/api/v7.1/user/?friends_with=${a.id}`, {
			token: outsider.token,
		});
		expect(theirs.status).toBe(403);
		const theirRequests = await callApi(app, 'GET', `/api/v7.1/friendship/?from_user=${a.id}`, {
			token: outsider.token,
		});
		expect(theirRequests.status).toBe(403);
		const mine = await callApi(app, 'GET', `/api/v7.1/friendship/?status=pending`, { token: b.token });
		expect(mine.json._embedded.friendships.map((row: { id: string }) => row.id)).toEqual([key]);
		expect((await callApi(app, 'GET', `/api/v7.1/user/?q=pair`)).status).toBe(401);
		expect(
			(await callApi(app, 'POST', '/api/v7.1/friendship/', { token: a.token, body: { to_user: a.id } }))
				.status,
		).toBe(400);
		expect(
			(await callApi(app, 'POST', '/api/v7.1/friendship/', { token: a.token, body: { to_user: 999_999 } }))
				.status,
		).toBe(404);
	});
});

describe('finding members', () => {
	test('search matches names, drops self and pending people, and hides private profiles', async () => {
		const me = await addMember(deps, 'zed-seeker');
		const found = await addMember(deps, 'zedfound');
		const asked = await addMember(deps, 'zedasked');
		const hidden = await addMember(deps, 'zedhidden');
		await deps.db.update(users).set({ profilePrivacy: 0 }).where(eq(users.id, hidden.id));
		await callApi(app, 'POST', '/api/v7.1/friendship/', { token: me.token, body: { to_user: asked.id } });
		const answer = await callApi(app, 'GET', '/api/v7.1/user/?q=zed', { token: me.token });
		expect(answer.status).toBe(200);
		expect(ids(answer)).toEqual([found.id]);
		// Wildcards are text, not patterns.
		expect(ids(await callApi(app, 'GET', '/api/v7.1/user/?q=%25', { token: me.token }))).toEqual([]);
		// Nothing private: no email, and no location for a friends-only profile of a stranger.
		expect(answer.text).not.toContain('@example.test');
		expect(answer.json._embedded.user[0].location).toBeUndefined();
	});

	test('suggestions put friends of friends first and leave out friends and pending people', async () => {
		const me = await addMember(deps, 'suggest-me');
		const friend = await addMember(deps, 'suggest-friend');
		const theirFriend = await addMember(deps, 'suggest-fof');
		const asked = await addMember(deps, 'suggest-asked');
		const { addFriendship } = await import('../../../src/lib/social/server/friendships');
		await addFriendship(deps.db, me.id, friend.id, 'active');
		await addFriendship(deps.db, theirFriend.id, friend.id, 'active');
		await addFriendship(deps.db, asked.id, me.id, 'pending');
		await deps.db.update(users).set({ profilePrivacy: 3 }).where(eq(users.id, theirFriend.id));
		const answer = await callApi(
			app,
			'GET',
			`/api/v7.1/user/?suggested_friends_for=${me.id}&limit=10&offset=0`,
			{
				token: me.token,
			},
		);
		expect(answer.status).toBe(200);
		const suggested = ids(answer);
		expect(suggested[0]).toBe(theirFriend.id);
		expect(suggested).not.toContain(me.id);
		expect(suggested).not.toContain(friend.id);
		expect(suggested).not.toContain(asked.id);
		expect(suggested.length).toBeLessThanOrEqual(10);
	});

	test('suggestions hold only profiles the viewer may open, and never operators', async () => {
		const me = await addMember(deps, 'suggest-open-me');
		const friend = await addMember(deps, 'suggest-open-friend');
		const friendsOnly = await addMember(deps, 'suggest-open-friends-only');
		const hidden = await addMember(deps, 'suggest-open-hidden');
		const operator = await addMember(deps, 'suggest-open-operator');
		const open = await addMember(deps, 'suggest-open-public');
		const { addFriendship } = await import('../../../src/lib/social/server/friendships');
		// All four are friends of a friend, so each would rank first if allowed at all.
		await addFriendship(deps.db, me.id, friend.id, 'active');
		for (const other of [friendsOnly, hidden, operator, open])
			await addFriendship(deps.db, other.id, friend.id, 'active');
		await deps.db
			.update(users)
			.set({ profilePrivacy: 3 })
			.where(inArray(users.id, [operator.id, open.id]));
		await deps.db.update(users).set({ profilePrivacy: 0 }).where(eq(users.id, hidden.id));
		await deps.db.update(users).set({ isAdmin: true }).where(eq(users.id, operator.id));
		const suggested: number[] = [];
		for (let offset = 0; offset < 200; offset += 40) {
			const page = ids(
				await callApi(
					app,
					'GET',
					`/api/v7.1/user/?suggested_friends_for=${me.id}&limit=40&offset=${offset}`,
					{
						token: me.token,
					},
				),
			);
			suggested.push(...page);
			if (page.length < 40) break;
		}
		expect(suggested[0]).toBe(open.id);
		expect(suggested).not.toContain(friendsOnly.id);
		expect(suggested).not.toContain(hidden.id);
		expect(suggested).not.toContain(operator.id);
		// Every one of them opens for the viewer.
		for (const id of suggested) {
			const profile = await callApi(app, 'GET', `/api/v7.1/user/${id}/`, { token: me.token });
			expect(profile.status, `profile ${id}`).toBe(200);
		}
	});
});

describe('abuse limits and blocking', () => {
	test('friend requests beyond the hourly budget answer 429 with Retry-After', async () => {
		const spammer = await addMember(deps, 'spammer');
		const answers: number[] = [];
		for (let index = 0; index < 6; index++) {
			const target = await addMember(deps, `spam-target-${index}`);
			const answer = await callApi(app, 'POST', '/api/v7.1/friendship/', {
				token: spammer.token,
				body: { to_user: target.id },
			});
			answers.push(answer.status);
			if (answer.status === 429) expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
		}
		expect(answers).toEqual([201, 201, 201, 201, 201, 429]);
	});

	test('blocking ends the friendship and hides each from the other in search and requests', async () => {
		const a = await addMember(deps, 'blocker-qq');
		const b = await addMember(deps, 'blocked-qq');
		await callApi(app, 'POST', '/api/v7.1/friendship/', { token: a.token, body: { to_user: b.id } });
		await callApi(app, 'PATCH', `/api/v7.1/friendship/${a.id}_${b.id}/`, {
			token: b.token,
			body: { status: 'active' },
		});
		expect((await friendsOf(a)).json.total_count).toBe(1);
		expect(
			(await callApi(app, 'POST', '/api/v7.1/block/', { token: a.token, body: { user: b.id } })).status,
		).toBe(204);
		expect((await friendsOf(a)).json.total_count).toBe(0);
		expect((await friendsOf(b)).json.total_count).toBe(0);
		const blocked = await callApi(app, 'GET', '/api/v7.1/block/', { token: a.token });
		expect(blocked.json._embedded.blocked.map((row: { id: number }) => row.id)).toEqual([b.id]);
		expect((await callApi(app, 'GET', '/api/v7.1/block/', { token: b.token })).json.total_count).toBe(0);
		expect(ids(await callApi(app, 'GET', '/api/v7.1/user/?q=blocker-qq', { token: b.token }))).toEqual([]);
		expect(ids(await callApi(app, 'GET', '/api/v7.1/user/?q=blocked-qq', { token: a.token }))).toEqual([]);
		const asks = await callApi(app, 'POST', '/api/v7.1/friendship/', {
			token: b.token,
			body: { to_user: a.id },
		});
		expect(asks.status).toBe(404);
		expect((await callApi(app, 'DELETE', `/api/v7.1/block/${b.id}/`, { token: a.token })).status).toBe(204);
		expect(ids(await callApi(app, 'GET', '/api/v7.1/user/?q=blocker-qq', { token: b.token }))).toEqual([
			a.id,
		]);
	});
});

describe('profiles and notifications', () => {
	test('a friends-only profile opens to friends and answers 404 to everyone else', async () => {
		const owner = await addMember(deps, 'profile-owner');
		const pal = await addMember(deps, 'profile-pal');
		const other = await addMember(deps, 'profile-other');
		await callApi(app, 'POST', '/api/v7.1/friendship/', { token: pal.token, body: { to_user: owner.id } });
		// Pending is not friends yet.
		expect((await callApi(app, 'GET', `/api/v7.1/user/${owner.id}/`, { token: pal.token })).status).toBe(404);
		await callApi(app, 'PATCH', `/api/v7.1/friendship/${pal.id}_${owner.id}/`, {
			token: owner.token,
			body: { status: 'active' },
		});
		const seen = await callApi(app, 'GET', `/api/v7.1/user/${owner.id}/`, { token: pal.token });
		expect(seen.status).toBe(200);
		expect(seen.json.username).toBe('profile-owner');
		const hidden = await callApi(app, 'GET', `/api/v7.1/user/${owner.id}/`, { token: other.token });
		const missing = await callApi(app, 'GET', '/api/v7.1/user/999999/', { token: other.token });
		expect(hidden.status).toBe(404);
		expect(hidden.text).toBe(missing.text);
	});

	test('a friend request is an unread notification until the list is marked read', async () => {
		const asker = await addMember(deps, 'note-asker');
		const asked = await addMember(deps, 'note-asked');
		await callApi(app, 'POST', '/api/v7.1/friendship/', { token: asker.token, body: { to_user: asked.id } });
		const before = await callApi(app, 'GET', '/api/v7.1/notification/', { token: asked.token });
		expect(before.json.unread).toBe(1);
		expect(before.json.notifications[0]).toMatchObject({ kind: 'friend_request', actor: { id: asker.id } });
		expect((await callApi(app, 'GET', '/api/v7.1/notification/', { token: asker.token })).json.unread).toBe(
			0,
		);
		expect((await callApi(app, 'POST', '/api/v7.1/notification/read/', { token: asked.token })).status).toBe(
			204,
		);
		(deps.clock as unknown as { advance: (seconds: number) => void }).advance(1);
		expect((await callApi(app, 'GET', '/api/v7.1/notification/', { token: asked.token })).json.unread).toBe(
			0,
		);
	});
});
