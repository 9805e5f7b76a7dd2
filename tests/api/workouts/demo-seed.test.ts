import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createLocationPrivacyApi } from '../../../src/lib/account/server/location-privacy';
import { createAuthApi } from '../../../src/lib/auth/server/api';
import { DEMO_FRIEND_LOGIN, DEMO_LOGIN, seedDemoWorld } from '../../../src/lib/db/seed';
import { haversineM } from '../../../src/lib/workout-files/geo';
import { createWorkoutsApi } from '../../../src/lib/workouts/server/api';
import { DEMO_OUTINGS, DEMO_WEEKS } from '../../../src/lib/workouts/server/demo';
import { callApi, createTestApi, createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { addMember, type Member } from './helpers';

let database: TestDatabase;
let deps: ReturnType<typeof createTestDeps>;
let app: ReturnType<typeof createTestApi>;
let demo: { id: number; token: string };
let friend: { id: number; token: string };
let stranger: Member;
const NOW = new Date('2026-11-20T15:00:00Z');

type Listed = {
	name: string;
	start_datetime: string;
	start_locale_timezone: string;
	privacy: number;
	aggregates: { distance_total?: number; elapsed_time_total?: number; heartrate_avg?: number };
	_links: { self: { id: string }[] };
};
type Position = [number, { lat: number; lng: number }];

async function login(credentials: { email: string; password: string }) {
	const answer = await callApi(app, 'POST', '/api/auth/login', {
		body: credentials,
		headers: { origin: 'http://localhost:4321' },
	});
	expect(answer.status).toBe(200);
	return { id: (answer.json.user as { id: number }).id, token: answer.json.access_token as string };
}

async function listOf(userId: number, token?: string): Promise<Listed[]> {
	const all: Listed[] = [];
	for (let offset = 0; ; offset += 100) {
		const page = await callApi(app, 'GET', `/api/v7.1/workout/?user=${userId}&limit=100&offset=${offset}`, {
			token,
		});
		expect(page.status).toBe(200);
		all.push(...(page.json._embedded.workouts as Listed[]));
		if (all.length >= (page.json.total_count as number)) return all;
	}
}

const idOf = (workout: Listed) => workout._links.self[0].id;

beforeAll(async () => {
	database = await openTestDb();
	deps = { ...createTestDeps(database.db), clock: () => NOW };
	app = createTestApi(deps, { routes: [createAuthApi(), createWorkoutsApi(), createLocationPrivacyApi()] });
	await seedDemoWorld(deps);
	demo = await login(DEMO_LOGIN);
	friend = await login(DEMO_FRIEND_LOGIN);
	stranger = await addMember(deps, 'stranger');
});
afterAll(() => database.close());

describe('a fresh start', () => {
	test('gives the demo member and her friend months of workouts, all in the past, none overlapping', async () => {
		for (const member of [demo, friend]) {
			const own = await listOf(member.id, member.token);
			expect(own.length).toBeGreaterThan(member === demo ? 30 : 15);
			const starts = own.map((w) => Date.parse(w.start_datetime)).sort((a, b) => a - b);
			expect(starts[0]).toBeLessThan(NOW.getTime() - (DEMO_WEEKS - 2) * 7 * 86_400_000);
			const ordered = [...own].sort((a, b) => Date.parse(a.start_datetime) - Date.parse(b.start_datetime));
			for (let i = 0; i < ordered.length; i++) {
				const end =
					Date.parse(ordered[i].start_datetime) + (ordered[i].aggregates.elapsed_time_total ?? 0) * 1000;
				expect(end).toBeLessThan(NOW.getTime());
				if (i + 1 < ordered.length) expect(end).toBeLessThan(Date.parse(ordered[i + 1].start_datetime));
			}
		}
	});

	test('every kind of outing is there, the Andorra holiday included', async () => {
		const names = new Set((await listOf(demo.id, demo.token)).map((w) => w.name));
		expect(names).toEqual(new Set(DEMO_OUTINGS.member.map((outing) => outing.name)));
		const friendNames = new Set((await listOf(friend.id, friend.token)).map((w) => w.name));
		expect(friendNames).toEqual(new Set(DEMO_OUTINGS.friend.map((outing) => outing.name)));
	});

	test('replays the same recording on different dates with its shape kept and its times shifted', async () => {
		const tempo = (await listOf(demo.id, demo.token)).filter((w) => w.name === 'Tempo laps');
		expect(tempo.length).toBeGreaterThan(4);
		const [first, second] = tempo;
		expect(new Set(tempo.map((w) => w.start_datetime)).size).toBe(tempo.length);
		// Same route and recording: the same distance and heart rate, a pace a few per cent apart.
		expect(second.aggregates.distance_total).toBeCloseTo(first.aggregates.distance_total as number, 0);
		expect(second.aggregates.heartrate_avg).toBeCloseTo(first.aggregates.heartrate_avg as number, 0);
		const ratio =
			(second.aggregates.elapsed_time_total as number) / (first.aggregates.elapsed_time_total as number);
		expect(ratio).toBeGreaterThan(0.9);
		expect(ratio).toBeLessThan(1.1);
		// Early on a weekday morning where it was run.
		for (const workout of tempo) {
			expect(workout.start_locale_timezone).toBe('America/New_York');
			const hour = Number(
				new Intl.DateTimeFormat('en-US', {
					timeZone: 'America/New_York',
					hour: 'numeric',
					hourCycle: 'h23',
				}).format(new Date(workout.start_datetime)),
			);
			expect(hour).toBe(6);
		}
	});

	test('draws the tracks inside the bundled regions, Harrisburg and the Andorra holiday', async () => {
		const own = await listOf(demo.id, demo.token);
		const andorra = own.filter((w) => w.start_locale_timezone === 'Europe/Andorra');
		expect(andorra.length).toBeGreaterThan(2);
		for (const workout of [andorra[0], own.find((w) => w.name === 'Long run to Reservoir Park') as Listed]) {
			const answer = await callApi(app, 'GET', `/api/v7.1/workout/${idOf(workout)}/?field_set=time_series`, {
				token: demo.token,
			});
			const positions = answer.json.time_series.position as Position[];
			expect(positions.length).toBeGreaterThan(100);
			const centre = workout.start_locale_timezone === 'Europe/Andorra' ? [42.51, 1.52] : [40.27, -76.84];
			for (const [, point] of positions)
				expect(haversineM(point.lat, point.lng, centre[0], centre[1])).toBeLessThan(15_000);
		}
		const indoor = own.find((w) => w.name === 'Trainer session') as Listed;
		const series = await callApi(app, 'GET', `/api/v7.1/workout/${idOf(indoor)}/?field_set=time_series`, {
			token: demo.token,
		});
		expect(series.json.time_series.position ?? []).toHaveLength(0);
		expect(series.json.time_series.heartrate.length).toBeGreaterThan(100);
	});
});

describe('privacy on the demo data', () => {
	test('a stranger sees only public workouts, the friend also friends-only ones, and nobody the private ones', async () => {
		const own = await listOf(demo.id, demo.token);
		const privacies = new Set(own.map((w) => w.privacy));
		expect(privacies).toEqual(new Set([0, 1, 3]));
		const publicCount = own.filter((w) => w.privacy === 3).length;
		const friendsCount = own.filter((w) => w.privacy === 1).length;

		const seenByStranger = await listOf(demo.id, stranger.token);
		expect(seenByStranger.length).toBe(publicCount);
		expect(seenByStranger.every((w) => w.privacy === 3)).toBe(true);
		expect((await listOf(demo.id)).length).toBe(publicCount);

		const seenByFriend = await listOf(demo.id, friend.token);
		expect(seenByFriend.length).toBe(publicCount + friendsCount);

		const hidden = own.find((w) => w.privacy === 0) as Listed;
		const direct = await callApi(app, 'GET', `/api/v7.1/workout/${idOf(hidden)}/`, { token: stranger.token });
		expect(direct.status).toBe(404);
	});

	test('the ends of a public demo workout stay hidden from others, and new workouts still default to only me', async () => {
		const hideEnds = await callApi(app, 'GET', '/api/v7.1/location_privacy/', { token: demo.token });
		expect(hideEnds.json.hide_ends).toBe(200);

		const ride = (await listOf(demo.id, demo.token)).find(
			(w) => w.name === 'Long run to Reservoir Park',
		) as Listed;
		const url = `/api/v7.1/workout/${idOf(ride)}/?field_set=time_series`;
		const full = (await callApi(app, 'GET', url, { token: demo.token })).json.time_series
			.position as Position[];
		const seen = (await callApi(app, 'GET', url, { token: stranger.token })).json.time_series
			.position as Position[];
		expect(seen.length).toBeLessThan(full.length);
		// What others see is the middle of the track: at least 200 m along it is gone at each end.
		const along = [0];
		for (let i = 1; i < full.length; i++)
			along.push(
				along[i - 1] + haversineM(full[i - 1][1].lat, full[i - 1][1].lng, full[i][1].lat, full[i][1].lng),
			);
		const firstSeen = full.findIndex(([seconds]) => seconds === seen[0][0]);
		const lastSeen = full.findIndex(([seconds]) => seconds === seen[seen.length - 1][0]);
		expect(firstSeen).toBeGreaterThan(0);
		expect(along[firstSeen]).toBeGreaterThanOrEqual(200);
		expect((along.at(-1) as number) - along[lastSeen]).toBeGreaterThanOrEqual(200);
		expect(seen).toEqual(full.slice(firstSeen, lastSeen + 1));

		const logged = await callApi(app, 'POST', '/api/v7.1/workout/', {
			token: demo.token,
			body: {
				name: 'After the seed',
				start_datetime: '2026-11-19T07:00:00+00:00',
				activity_type: 16,
				aggregates: { distance_total: 5000, elapsed_time_total: 1800 },
			},
		});
		expect(logged.status).toBe(201);
		expect(logged.json.privacy).toBe(0);
	});

	test('a second start adds nothing', async () => {
		const before = (await listOf(demo.id, demo.token)).length;
		await seedDemoWorld(deps);
		expect((await listOf(demo.id, demo.token)).length).toBe(before);
	});
});
