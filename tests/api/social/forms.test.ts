import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { handleFeedForm, handleFriendsForm } from '../../../src/lib/social/server/forms';
import { hourlyBudget } from '../../../src/lib/social/server/limits';
import { listLikes } from '../../../src/lib/social/server/reactions';
import { areFriends } from '../../../src/lib/social/server/relations';
import { callApi } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { addMember, createSocialTestApp, type Member, runPayload } from './helpers';

/** The pages' buttons before script runs: the same rules as the API, answered as messages. */
let database: TestDatabase;
let made: ReturnType<typeof createSocialTestApp>;
let sol: Member;
let tam: Member;

const form = (fields: Record<string, string>) => {
	const data = new FormData();
	for (const [key, value] of Object.entries(fields)) data.set(key, value);
	return data;
};
const free = async () => {};

beforeAll(async () => {
	database = await openTestDb();
	made = createSocialTestApp(database);
	sol = await addMember(made.deps, 'form-sol');
	tam = await addMember(made.deps, 'form-tam');
});
afterAll(() => database.close());

describe('friends forms', () => {
	test('add, accept, and a spent budget or a stranger’s accept answer as messages', async () => {
		const added = await handleFriendsForm(
			made.deps,
			sol,
			form({ action: 'add', member: String(tam.id), name: 'Tam' }),
			free,
		);
		expect(added).toEqual({ ok: true, message: 'Friend request sent to Tam.' });
		const wrongSide = await handleFriendsForm(
			made.deps,
			sol,
			form({ action: 'accept', member: String(tam.id) }),
			free,
		);
		expect(wrongSide.ok).toBe(false);
		const accepted = await handleFriendsForm(
			made.deps,
			tam,
			form({ action: 'accept', member: String(sol.id), name: 'Sol' }),
			free,
		);
		expect(accepted.ok).toBe(true);
		expect(await areFriends(made.deps.db, sol.id, tam.id)).toBe(true);
		const spent = hourlyBudget(made.deps.db, 'friend-requests', 0, 'friend requests');
		const refused = await handleFriendsForm(made.deps, sol, form({ action: 'add', member: '999999' }), spent);
		expect(refused).toMatchObject({ ok: false, message: expect.stringContaining('friend requests an hour') });
		expect(
			(await handleFriendsForm(made.deps, sol, form({ action: 'add', member: 'x\u0000' }), free)).ok,
		).toBe(false);
	});
});

describe('feed forms', () => {
	test('like, hostile comments refused, and a story the member may not see is "gone"', async () => {
		const run = await callApi(made.app, 'POST', '/api/v7.1/workout/', {
			token: tam.token,
			body: runPayload('Form run', { privacy: 1 }),
		});
		const story = `workout_${run.json.id}`;
		expect(await handleFeedForm(made.deps, sol, form({ action: 'like', story }), free)).toEqual({
			ok: true,
			message: 'Liked.',
		});
		expect((await listLikes(made.deps, tam, story)).map((like) => like.actor.id)).toEqual([sol.id]);
		for (const text of ['a\u0000b', '', 'x'.repeat(1001)]) {
			expect((await handleFeedForm(made.deps, sol, form({ action: 'comment', story, text }), free)).ok).toBe(
				false,
			);
		}
		const stranger = await addMember(made.deps, 'form-stranger');
		expect(await handleFeedForm(made.deps, stranger, form({ action: 'like', story }), free)).toEqual({
			ok: false,
			message: 'That story is gone.',
		});
	});
});
