import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { ChallengeRow } from '../../../src/lib/challenges/server/challenge';
import { createChallenge, endChallenge } from '../../../src/lib/challenges/server/organise';
import { seedDemoChallenges } from '../../../src/lib/challenges/server/seed';
import { callApi } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import {
	addMember,
	befriend,
	createChallengesTestApp,
	logWorkout,
	type Member,
	setTimeZone,
} from './helpers';

let database: TestDatabase;
let made: ReturnType<typeof createChallengesTestApp>;
let alice: Member;
let bob: Member;
let june: ChallengeRow;

beforeAll(async () => {
	database = await openTestDb();
	made = createChallengesTestApp(database);
});
beforeEach(async () => {
	await database.reset();
	alice = await addMember(made.deps, 'alice');
	bob = await addMember(made.deps, 'bob');
	// The test clock reads 2026-06-01T12:00Z.
	june = await createChallenge(made.deps, {
		name: 'June Run',
		description: '',
		metric: 'distance',
		activity_groups: ['run'],
		starts_on: '2026-06-01',
		ends_on: '2026-06-30',
		target: 20_000,
		mode: 'solo',
		prizes: ['Finisher badge'],
	});
});
afterAll(async () => {
	await database.close();
});

const join = (member: Member, body?: unknown, ref: string | number = june.id) =>
	callApi(made.app, 'POST', `/api/challenges/${ref}/users/`, { token: member.token, body });
const details = (member: Member | null, ref: string | number = june.id) =>
	callApi(made.app, 'GET', `/api/challenges/challenge/${ref}/details/`, { token: member?.token });
const board = (member: Member | null, query = '') =>
	callApi(made.app, 'GET', `/api/widgets/challenges/${june.id}/leaderboard/${query}`, {
		token: member?.token,
	});
const progressOf = async (member: Member) => (await details(member)).json.progress?.value;

describe('joining and leaving', () => {
	test('joining sets joined and counts workouts already in the window; leaving clears it', async () => {
		await logWorkout(made.app, alice, { start: '2026-06-01T06:00:00Z', metres: 6000 });
		const joined = await join(alice);
		expect(joined.status).toBe(201);
		expect(joined.json.joined).toBe(true);
		expect(joined.json.progress).toMatchObject({ value: 6000, workoutCount: 1, rank: 1 });
		expect(joined.json.rules).toMatchObject({ metric: 'distance', activityGroups: ['run'], target: 20_000 });
		expect(joined.json.prizes).toEqual(['Finisher badge']);
		expect(joined.json.userAwards.map((award: { earned: boolean }) => award.earned)).toEqual([
			true,
			false,
			false,
			false,
		]);
		expect(joined.json.stats.participants).toBe(1);
		// Joining again only changes the name choice: still one participant, progress kept.
		const again = await join(alice, { show_name: true });
		expect(again.json.stats.participants).toBe(1);
		expect(again.json.progress).toMatchObject({ value: 6000, showName: true });
		const left = await callApi(made.app, 'DELETE', `/api/challenges/${june.id}/users/${alice.id}/`, {
			token: alice.token,
		});
		expect(left.status).toBe(200);
		expect(left.json.joined).toBe(false);
		const after = await details(alice);
		expect(after.json.joined).toBe(false);
		expect(after.json.progress).toBeNull();
		expect(after.json.stats.participants).toBe(0);
	});

	test('nobody can take another member out, join without signing in, or join a finished challenge', async () => {
		await join(alice);
		const other = await callApi(made.app, 'DELETE', `/api/challenges/${june.id}/users/${alice.id}/`, {
			token: bob.token,
		});
		expect(other.status).toBe(403);
		expect((await details(alice)).json.joined).toBe(true);
		expect((await callApi(made.app, 'POST', `/api/challenges/${june.id}/users/`)).status).toBe(401);
		const may = await createChallenge(made.deps, {
			name: 'May Run',
			description: '',
			metric: 'count',
			activity_groups: ['run'],
			starts_on: '2026-05-01',
			ends_on: '2026-05-31',
			target: 10,
			mode: 'solo',
			prizes: [],
		});
		const late = await join(alice, undefined, may.id);
		expect(late.status).toBe(409);
		await endChallenge(made.deps, june.id);
		expect((await join(bob)).status).toBe(409);
	});

	test('another member’s progress is not shown through mmfUserId', async () => {
		await join(alice);
		const peek = await callApi(
			made.app,
			'GET',
			`/api/challenges/challenge/${june.id}/details/?mmfUserId=${alice.id}`,
			{ token: bob.token },
		);
		expect(peek.status).toBe(403);
		const own = await callApi(
			made.app,
			'GET',
			`/api/challenges/challenge/${june.id}/details/?mmfUserId=${alice.id}&timezone=Asia/Tokyo`,
			{ token: alice.token },
		);
		expect(own.status).toBe(200);
		expect(own.json.joined).toBe(true);
	});

	test('hostile ids and queries are refused with 4xx', async () => {
		for (const path of [
			'/api/challenges/challenge/%00/details/',
			`/api/challenges/challenge/${june.id}/details/?timezone=%00`,
			'/api/widgets/challenges/1/leaderboard/?page=0',
			'/api/widgets/challenges/1/leaderboard/?page_size=%00',
			'/api/v2/challenges/?sport=%00',
			'/api/challenges/challenge/nope-404/details/',
		]) {
			const answer = await callApi(made.app, 'GET', path, { token: alice.token });
			expect(answer.status, path).toBeGreaterThanOrEqual(400);
			expect(answer.status, path).toBeLessThan(500);
		}
		const bad = await join(alice, { show_name: 'yes\u0000' });
		expect(bad.status).toBe(400);
	});
});

describe('progress in each participant’s time zone', () => {
	test('the window starts and ends at local midnight: Auckland', async () => {
		await setTimeZone(made.deps, alice, 'Pacific/Auckland');
		await join(alice);
		// Auckland is UTC+12 in June: local June 1 00:00 is May 31 12:00Z.
		await logWorkout(made.app, alice, { start: '2026-05-31T11:59:00Z', metres: 1000, seconds: 600 });
		expect(await progressOf(alice)).toBe(0);
		await logWorkout(made.app, alice, { start: '2026-05-31T12:00:00Z', metres: 2000, seconds: 900 });
		expect(await progressOf(alice)).toBe(2000);
		// Local June 30 23:59 is June 30 11:59Z; local July 1 00:00 is June 30 12:00Z.
		await logWorkout(made.app, alice, { start: '2026-06-30T11:59:00Z', metres: 3000, seconds: 1200 });
		await logWorkout(made.app, alice, { start: '2026-06-30T12:00:00Z', metres: 4000, seconds: 1500 });
		const seen = await details(alice);
		expect(seen.json.progress.value).toBe(5000);
		expect(seen.json.rules).toMatchObject({
			timeZone: 'Pacific/Auckland',
			windowStart: '2026-05-31T12:00:00.000Z',
			windowEnd: '2026-06-30T12:00:00.000Z',
		});
	});

	test('the same instant counts for one zone and not another: Los Angeles', async () => {
		await setTimeZone(made.deps, alice, 'America/Los_Angeles');
		await setTimeZone(made.deps, bob, 'UTC');
		await join(alice);
		await join(bob);
		// 2026-06-01T06:30Z is May 31 23:30 in Los Angeles (UTC-7) and June 1 in UTC.
		await logWorkout(made.app, alice, { start: '2026-06-01T06:30:00Z', metres: 1500, seconds: 600 });
		await logWorkout(made.app, bob, { start: '2026-06-01T06:30:00Z', metres: 1500, seconds: 600 });
		expect(await progressOf(alice)).toBe(0);
		expect(await progressOf(bob)).toBe(1500);
		// July 1 02:00Z is still June 30 in Los Angeles.
		await logWorkout(made.app, alice, { start: '2026-07-01T02:00:00Z', metres: 2500, seconds: 900 });
		await logWorkout(made.app, bob, { start: '2026-07-01T02:00:00Z', metres: 2500, seconds: 900 });
		expect(await progressOf(alice)).toBe(2500);
		expect(await progressOf(bob)).toBe(1500);
	});
});

describe('what counts', () => {
	test('only activity types the rules count; edits, type changes and deletions move progress', async () => {
		await join(alice);
		const run = await logWorkout(made.app, alice, { start: '2026-06-02T07:00:00Z', metres: 5000 });
		await logWorkout(made.app, alice, { start: '2026-06-02T17:00:00Z', metres: 30_000, activity_type: 11 });
		expect(await progressOf(alice)).toBe(5000);
		const edited = await callApi(made.app, 'PUT', `/api/v7.1/workout/${run}/`, {
			token: alice.token,
			body: { aggregates: { distance_total: 8000, active_time_total: 2400 } },
		});
		expect(edited.status).toBe(200);
		expect(await progressOf(alice)).toBe(8000);
		await callApi(made.app, 'PUT', `/api/v7.1/workout/${run}/`, {
			token: alice.token,
			body: { activity_type: 11 },
		});
		expect(await progressOf(alice)).toBe(0);
		await callApi(made.app, 'PUT', `/api/v7.1/workout/${run}/`, {
			token: alice.token,
			body: { activity_type: 16 },
		});
		expect(await progressOf(alice)).toBe(8000);
		const removed = await callApi(made.app, 'DELETE', `/api/v7.1/workout/${run}/`, { token: alice.token });
		expect(removed.status).toBe(204);
		expect(await progressOf(alice)).toBe(0);
	});

	test('a pace faster than the world record is kept off the board until its owner confirms it', async () => {
		await join(alice);
		// 10 km in 20 minutes: 8.3 m/s, far beyond the 10,000 m record's 6.4 m/s.
		const fast = await logWorkout(made.app, alice, {
			start: '2026-06-03T07:00:00Z',
			metres: 10_000,
			seconds: 1200,
		});
		await logWorkout(made.app, alice, { start: '2026-06-04T07:00:00Z', metres: 4000, seconds: 1500 });
		const flagged = await details(alice);
		expect(flagged.json.progress).toMatchObject({ value: 4000, flaggedCount: 1 });
		expect(flagged.json.progress.flagged).toEqual([expect.objectContaining({ id: fast, distance: 10_000 })]);
		const stranger = await callApi(made.app, 'POST', `/api/challenges/${june.id}/workouts/${fast}/confirm/`, {
			token: bob.token,
		});
		expect(stranger.status).toBe(404);
		const confirmed = await callApi(
			made.app,
			'POST',
			`/api/challenges/${june.id}/workouts/${fast}/confirm/`,
			{
				token: alice.token,
			},
		);
		expect(confirmed.status).toBe(200);
		expect(confirmed.json.progress).toMatchObject({ value: 14_000, flaggedCount: 0 });
	});
});

describe('climbing', () => {
	test('a climb challenge adds up the recorded climb of rides, and nothing else', async () => {
		const climb = await createChallenge(made.deps, {
			name: 'June Climb',
			description: '',
			metric: 'climb',
			activity_groups: ['ride'],
			starts_on: '2026-06-01',
			ends_on: '2026-06-30',
			target: 1000,
			mode: 'solo',
			prizes: [],
		});
		await join(alice, undefined, climb.id);
		// A ride that rises steadily by 150 m over 30 samples, one a minute.
		const position = Array.from({ length: 31 }, (_, i) => [
			i * 60,
			{ lat: 46.05 + i * 0.002, lng: 14.5, elevation: 300 + i * 5 },
		]);
		const base = {
			start_locale_timezone: 'UTC',
			aggregates: { distance_total: 6700, active_time_total: 1800, elapsed_time_total: 1800 },
			time_series: { position },
		};
		const ride = await callApi(made.app, 'POST', '/api/v7.1/workout/', {
			token: alice.token,
			body: { ...base, name: 'Hill ride', activity_type: 11, start_datetime: '2026-06-02T07:00:00Z' },
		});
		expect(ride.status).toBe(201);
		const run = await callApi(made.app, 'POST', '/api/v7.1/workout/', {
			token: alice.token,
			body: { ...base, name: 'Hill run', activity_type: 16, start_datetime: '2026-06-03T07:00:00Z' },
		});
		expect(run.status).toBe(201);
		const seen = await details(alice, climb.id);
		expect(seen.json.progress.workoutCount).toBe(1);
		expect(seen.json.progress.value).toBeGreaterThan(120);
		expect(seen.json.progress.value).toBeLessThanOrEqual(150);
		expect(seen.json.progress.text).toMatch(/^\d+ m$/);
		// Cutting the ride to its first half leaves about half the climb.
		const cut = await callApi(made.app, 'POST', `/api/internal/cutWorkout/${ride.json.id}/`, {
			token: alice.token,
			body: { start_offset_s: 0, end_offset_s: 900 },
		});
		expect(cut.status).toBe(200);
		const after = (await details(alice, climb.id)).json.progress.value;
		expect(after).toBeGreaterThan(40);
		expect(after).toBeLessThan(seen.json.progress.value - 40);
	});
});

describe('leaderboard', () => {
	test('ties go to whoever got there first; names show only when chosen', async () => {
		const carol = await addMember(made.deps, 'carol');
		await join(alice, { show_name: true });
		await join(bob);
		await join(carol, { show_name: true });
		// Alice and Bob both run 5 km; Bob finished his first, so he ranks above her.
		await logWorkout(made.app, alice, { start: '2026-06-05T09:00:00Z', metres: 5000 });
		await logWorkout(made.app, bob, { start: '2026-06-05T08:00:00Z', metres: 5000 });
		await logWorkout(made.app, carol, { start: '2026-06-06T08:00:00Z', metres: 7000 });
		const seen = await board(null);
		expect(seen.status).toBe(200);
		expect(seen.json.results.map((row: { name: string }) => row.name)).toEqual([
			'carol D.',
			expect.stringMatching(/^Athlete #\d+$/),
			'alice D.',
		]);
		expect(seen.json.results.map((row: { rank: number }) => row.rank)).toEqual([1, 2, 3]);
		expect(seen.json.me).toBeNull();
		expect(JSON.stringify(seen.json)).not.toContain('bob');
		// Bob sees his own name on his own row.
		const own = await board(bob);
		expect(own.json.me).toMatchObject({ rank: 2, name: 'bob D.', isMe: true });
		expect((await details(alice)).json.progress.rank).toBe(3);
	});

	test('pages hold the page size, my row is pinned on every page, and friends can be shown alone', async () => {
		const members = [alice, bob];
		for (let index = 0; index < 5; index += 1) members.push(await addMember(made.deps, `runner${index}`));
		for (const [index, member] of members.entries()) {
			await join(member);
			await logWorkout(made.app, member, {
				start: `2026-06-0${index + 2}T07:00:00Z`,
				metres: 1000 * (index + 1),
				seconds: 1000 * (index + 1),
			});
		}
		const second = await board(alice, '?page=2&page_size=3');
		expect(second.json).toMatchObject({ currentPage: 2, pageSize: 3, totalPages: 3, totalCount: 7 });
		expect(second.json.results.map((row: { rank: number }) => row.rank)).toEqual([4, 5, 6]);
		expect(second.json.me).toMatchObject({ rank: 7, progress: 1000, isMe: true });
		await befriend(made.deps, alice, members[4]);
		const friends = await board(alice, '?friends=true');
		expect(friends.json.totalCount).toBe(2);
		expect(friends.json.results.map((row: { progress: number }) => row.progress)).toEqual([5000, 1000]);
		expect(friends.json.me.rank).toBe(2);
		expect((await board(null, '?friends=true')).status).toBe(401);
	});
});

describe('lists, awards and the demo challenges', () => {
	test('the list sorts challenges into joinable, joined and past, and filters by sport', async () => {
		expect(await seedDemoChallenges(made.deps)).toBe(5);
		expect(await seedDemoChallenges(made.deps)).toBe(0);
		await join(alice);
		const list = await callApi(made.app, 'GET', '/api/v2/challenges/?timezone=Europe/Paris', {
			token: alice.token,
		});
		expect(list.status).toBe(200);
		expect(list.json.joined.map((item: { name: string }) => item.name)).toEqual(['June Run']);
		expect(list.json.joinable.map((item: { slug: string }) => item.slug)).toEqual([
			'run-2026-06',
			'relay-2026-06',
			'climb-2026-06',
			// This year's You VS The Year, beside last year's among the past ones.
			'yvty2026',
		]);
		expect(list.json.past.map((item: { slug: string }) => item.slug)).toEqual(['yvty2025']);
		const rides = await callApi(made.app, 'GET', '/api/v2/challenges/?sport=ride');
		expect(rides.json.joinable.map((item: { slug: string }) => item.slug)).toEqual([
			'climb-2026-06',
			'yvty2026',
		]);
		expect(rides.json.past.map((item: { slug: string }) => item.slug)).toEqual(['yvty2025']);
		const other = await callApi(made.app, 'GET', `/api/v2/challenges/?user=${bob.id}`, {
			token: alice.token,
		});
		expect(other.status).toBe(403);
		const named = await details(null, 'yvty2025');
		expect(named.json.challenge).toMatchObject({
			name: 'You VS The Year 2025',
			status: 'past',
			target: 1_000_000,
		});
	});

	test('awards are earned at their thresholds', async () => {
		await join(alice);
		await logWorkout(made.app, alice, { start: '2026-06-02T07:00:00Z', metres: 10_000, seconds: 3600 });
		const awards = await callApi(made.app, 'GET', `/api/v2/mobile/challenges/awards/${june.id}/`, {
			token: alice.token,
		});
		expect(awards.status).toBe(200);
		expect(awards.json.awards.filter((award: { earned: boolean }) => award.earned)).toHaveLength(2);
		await logWorkout(made.app, alice, { start: '2026-06-03T07:00:00Z', metres: 10_000, seconds: 3600 });
		const all = await callApi(made.app, 'GET', `/api/v2/mobile/challenges/awards/${june.id}/`, {
			token: alice.token,
		});
		expect(all.json.awards.every((award: { earned: boolean }) => award.earned)).toBe(true);
		expect((await callApi(made.app, 'GET', `/api/v2/mobile/challenges/awards/${june.id}/`)).status).toBe(401);
	});
});
