import { afterAll, beforeAll, expect, test } from 'vitest';
import { callApi } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { addMember, befriend, createSocialTestApp, type Member, type SocialApp } from './helpers';

/**
 * A feed page reads each kind of thing once for all its stories: recordings for the thumbnails,
 * and each owner's privacy zones and hidden ends. Its query count must not grow with the stories.
 */
let database: TestDatabase;
let app: SocialApp;
let deps: ReturnType<typeof createSocialTestApp>['deps'];
let reader: Member;
const friends: Member[] = [];

beforeAll(async () => {
	database = await openTestDb();
	({ app, deps } = createSocialTestApp(database));
	reader = await addMember(deps, 'feed-reader');
	for (const name of ['feed-ana', 'feed-ben', 'feed-cara']) {
		const friend = await addMember(deps, name);
		await befriend(deps, friend, reader, 'active');
		// One owner has a privacy zone, so trimming has something to do.
		if (name === 'feed-ana')
			await callApi(app, 'POST', '/api/v7.1/privacy_zone/', {
				token: friend.token,
				body: { name: 'Home', lat: 40.27, lng: -76.88, radius: 300 },
			});
		friends.push(friend);
	}
});
afterAll(() => database.close());

let posted = 0;
/** A friend's public run with a recorded line, one per call. */
async function postRun(friend: Member) {
	posted++;
	const position = Array.from({ length: 120 }, (_, second) => [
		second * 5,
		{ lat: 40.27 + (second * 15) / 111_320, lng: -76.88 + posted / 1000 },
	]);
	const made = await callApi(app, 'POST', '/api/v7.1/workout/', {
		token: friend.token,
		body: {
			name: `Run ${posted}`,
			start_datetime: new Date(Date.UTC(2026, 4, 1, 6, posted)).toISOString().replace('.000Z', '+00:00'),
			activity_type: 16,
			privacy: 3,
			aggregates: {},
			time_series: { position },
		},
	});
	expect(made.status).toBe(201);
}

/** The queries one feed page costs, counted at the database client. */
async function queriesForFeedPage(): Promise<{
	queries: number;
	stories: number;
	drawn: number;
	texts: string[];
}> {
	const client = (database.db as unknown as { $client: Record<string, (...args: unknown[]) => unknown> })
		.$client;
	const methods = ['query', 'execute', 'exec'].filter((name) => typeof client[name] === 'function');
	const originals = methods.map((name) => client[name]);
	let queries = 0;
	const texts: string[] = [];
	methods.forEach((name, index) => {
		client[name] = (...args: unknown[]) => {
			const text = String(args[0]);
			// Every signed-in request checks its session, trusting the answer for a second: that is the
			// sign-in's cost, not the feed's, and whether it falls in a page depends on the clock.
			if (!/from "refresh_tokens"/.test(text)) {
				queries++;
				texts.push(text);
			}
			return originals[index].apply(client, args);
		};
	});
	try {
		const page = await callApi(app, 'GET', '/api/v7.1/activity_story/?limit=40', { token: reader.token });
		expect(page.status).toBe(200);
		const stories = page.json._embedded.activity_stories as { thumbnail: unknown[] }[];
		return {
			queries,
			texts,
			stories: stories.length,
			drawn: stories.filter((s) => s.thumbnail.length > 1).length,
		};
	} finally {
		methods.forEach((name, index) => {
			client[name] = originals[index];
		});
	}
}

test('a feed page costs the same queries for 3 stories as for 15', async () => {
	for (const friend of friends) await postRun(friend);
	// The first page also fills what the server keeps once read; the count is of the pages after.
	await queriesForFeedPage();
	const few = await queriesForFeedPage();
	expect(few).toMatchObject({ stories: 3, drawn: 3 });
	for (let round = 0; round < 4; round++) for (const friend of friends) await postRun(friend);
	const many = await queriesForFeedPage();
	expect(many).toMatchObject({ stories: 15, drawn: 15 });
	// Per story the old page read the recording and the owner's privacy: 18 queries for 3 stories,
	// 54 for 15.
	expect(many.queries).toBe(few.queries);
	// Friends, the three kinds' candidates, their rows, counts, photos and owners' zones: never per story.
	expect(many.queries).toBeLessThanOrEqual(6);
	// Thumbnails are drawn from each workout's stored preview: no recording is read.
	expect(many.texts.filter((text) => text.includes('workout_series'))).toEqual([]);
	console.log(`a feed page of ${many.stories} workout stories: ${many.queries} queries`);
});
