import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { heartRateZones } from '../../../src/lib/auth/server/tables';
import type { Viewer } from '../../../src/lib/auth/viewer';
import { statsMember } from '../../../src/lib/stats/server/facts';
import { heartRateZoneWeeks } from '../../../src/lib/stats/server/zones';
import { callApi, signInAs } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import {
	addMember,
	createStatsTestApp,
	heartRatePayload,
	type Member,
	setMember,
	workoutPayload,
} from './helpers';

let database: TestDatabase;
let made: ReturnType<typeof createStatsTestApp>;
let alice: Member;

// Tuesday 24 November 2026 in New York.
beforeAll(async () => {
	database = await openTestDb();
});
// Zone times are cached by workout id and creation time; ids start again after each reset, so
// each test's workouts are created a minute later than the last one's.
let tests = 0;
beforeEach(async () => {
	await database.reset();
	made = createStatsTestApp(database, new Date('2026-11-24T15:00:00Z'));
	made.clock.advance(60 * tests++);
	alice = await addMember(made.deps, 'alice');
	await setMember(made.deps, alice.id, { timeZone: 'America/New_York' });
});
afterAll(async () => {
	await database.close();
});

/** A run (or `activity_type`) with heart rate: `easy` minutes in zone 1, then `hard` in zone 4. */
async function logHeartRate(start: string, easy: number, hard: number, activity_type = 16) {
	const answer = await callApi(made.app, 'POST', '/api/v7.1/workout/', {
		token: alice.token,
		body: heartRatePayload(start, easy, hard, { activity_type }),
	});
	expect(answer.status).toBe(201);
}

const viewer = (isPremium: boolean): Viewer => ({
	id: alice.id,
	username: 'alice',
	displayName: 'alice',
	isPremium,
});

async function zoneWeeks(options: { weekStartDay: 0 | 1; premium?: boolean; groups?: ['run'] | ['ride'] }) {
	const member = await statsMember(made.deps, { id: alice.id }, alice.id);
	return heartRateZoneWeeks(made.deps, viewer(options.premium ?? true), member, {
		date: { year: 2026, month: 11, day: 24 },
		weekType: 'week',
		weekStartDay: options.weekStartDay,
		groups: options.groups ?? null,
		count: 3,
	});
}

describe('time in heart-rate zones per week', () => {
	test('sums each workout’s heart-rate series into the zones of the week it falls in, in the member’s zone', async () => {
		await logHeartRate('2026-11-17T12:00:00Z', 20, 10); // Tuesday 17th
		// Sunday 22 November 23:30 in New York.
		await logHeartRate('2026-11-23T04:30:00Z', 0, 30);
		await logHeartRate('2026-11-24T12:00:00Z', 10, 0); // Tuesday 24th
		// A logged workout without heart rate adds nothing.
		await callApi(made.app, 'POST', '/api/v7.1/workout/', {
			token: alice.token,
			body: workoutPayload('2026-11-18T12:00:00Z'),
		});
		const monday = await zoneWeeks({ weekStartDay: 1 });
		expect(monday.zones.map((zone) => zone.name)).toEqual(['zone1', 'zone2', 'zone3', 'zone4', 'zone5']);
		expect(monday.weeks.map((week) => [week.first, week.last])).toEqual([
			['2026-11-09', '2026-11-15'],
			['2026-11-16', '2026-11-22'],
			['2026-11-23', '2026-11-29'],
		]);
		expect(monday.weeks[0]).toMatchObject({ seconds: [0, 0, 0, 0, 0], workouts: 0 });
		expect(monday.weeks[1]).toMatchObject({ seconds: [1200, 0, 0, 2400, 0], workouts: 2 });
		expect(monday.weeks[2]).toMatchObject({ seconds: [600, 0, 0, 0, 0], workouts: 1 });
		// Weeks from Sunday: the Sunday-evening run moves to the current week.
		const sunday = await zoneWeeks({ weekStartDay: 0 });
		expect(sunday.weeks.map((week) => week.first)).toEqual(['2026-11-08', '2026-11-15', '2026-11-22']);
		expect(sunday.weeks[1].seconds).toEqual([1200, 0, 0, 600, 0]);
		expect(sunday.weeks[2].seconds).toEqual([600, 0, 0, 1800, 0]);
		// The stats' activity filter applies: no rides, no time.
		const rides = await zoneWeeks({ weekStartDay: 1, groups: ['ride'] });
		expect(rides.weeks.every((week) => week.workouts === 0)).toBe(true);
	});

	test('the member’s own zones decide where the time goes', async () => {
		await logHeartRate('2026-11-24T12:00:00Z', 10, 10);
		await made.deps.db.insert(heartRateZones).values({
			userId: alice.id,
			zones: [
				{ name: 'zone1', start: 0, end: 90 },
				{ name: 'zone2', start: 91, end: 120 },
				{ name: 'zone3', start: 121, end: 140 },
				{ name: 'zone4', start: 141, end: 160 },
				{ name: 'zone5', start: 161, end: 200 },
			],
		});
		const weeks = await zoneWeeks({ weekStartDay: 1 });
		expect(weeks.weeks[2].seconds).toEqual([0, 600, 0, 600, 0]);
	});

	test('is MVP only, and nobody sees another member’s zones', async () => {
		await logHeartRate('2026-11-24T12:00:00Z', 10, 0);
		await expect(zoneWeeks({ weekStartDay: 1, premium: false })).rejects.toMatchObject({
			code: 'forbidden',
			message: 'Heart-rate zone analysis is part of MVP.',
		});
		const bob = await addMember(made.deps, 'bob');
		await setMember(made.deps, alice.id, { workoutPrivacy: 3 });
		const member = await statsMember(made.deps, { id: bob.id }, alice.id);
		await expect(
			heartRateZoneWeeks(made.deps, { ...viewer(true), id: bob.id, username: 'bob' }, member, {
				date: { year: 2026, month: 11, day: 24 },
				weekType: 'week',
				weekStartDay: 1,
				groups: null,
			}),
		).rejects.toMatchObject({ code: 'not_found' });
	});
});

describe('time in heart-rate zones per week through the API, for the stats filters', () => {
	const path = '/api/v7.1/workout_stats/zone_weeks/';

	test('follows the activities, week type, start day and date the stats page asks for', async () => {
		await logHeartRate('2026-11-17T12:00:00Z', 20, 10); // a run, Tuesday 17th
		await logHeartRate('2026-11-18T12:00:00Z', 0, 15, 11); // a ride, Wednesday 18th
		await logHeartRate('2026-10-06T12:00:00Z', 5, 0); // a run, Tuesday 6 October
		const token = await signInAs(made.deps, viewer(true));
		const ask = (query: string) => callApi(made.app, 'GET', `${path}?${query}`, { token });

		const all = await ask('date=2026-11-24&week_start_day=1');
		expect(all.status).toBe(200);
		expect(all.json.zones).toHaveLength(5);
		expect(all.json.weeks).toHaveLength(8);
		expect(all.json.weeks.at(-1)).toMatchObject({ first: '2026-11-23', last: '2026-11-29' });
		expect(all.json.weeks.at(-2)).toMatchObject({
			first: '2026-11-16',
			seconds: [1200, 0, 0, 1500, 0],
			workouts: 2,
		});

		// Runs only: the ride's quarter of an hour leaves the week.
		const runs = await ask('date=2026-11-24&week_start_day=1&activity_groups=run');
		expect(runs.json.weeks.at(-2)).toMatchObject({ seconds: [1200, 0, 0, 600, 0], workouts: 1 });
		const rides = await ask('date=2026-11-24&activity_groups=ride');
		expect(rides.json.weeks.at(-2)).toMatchObject({ seconds: [0, 0, 0, 900, 0], workouts: 1 });

		// An earlier date: the eight weeks end with its week, reaching back to October's run.
		const october = await ask('date=2026-10-14&week_start_day=1&activity_groups=run');
		expect(october.json.weeks.at(-1)).toMatchObject({ first: '2026-10-12', last: '2026-10-18' });
		const sixth = october.json.weeks.find((week: { first: string }) => week.first === '2026-10-05');
		expect(sixth).toMatchObject({ seconds: [300, 0, 0, 0, 0], workouts: 1 });

		// ISO weeks start on Monday whatever the start day; a rolling week ends on the chosen day.
		const iso = await ask('date=2026-11-24&week_start_day=0&week_type=isoWeek');
		expect(iso.json.weeks.at(-1).first).toBe('2026-11-23');
		const sunday = await ask('date=2026-11-24&week_start_day=0');
		expect(sunday.json.weeks.at(-1).first).toBe('2026-11-22');
		const rolling = await ask('date=2026-11-24&week_type=rolling');
		expect(rolling.json.weeks.at(-1)).toMatchObject({ first: '2026-11-18', last: '2026-11-24' });

		// Without a start day, the member's own setting decides.
		await callApi(made.app, 'PUT', `/api/v7.1/user/${alice.id}/`, { token, body: { week_start_day: 3 } });
		const saved = await ask('date=2026-11-24');
		expect(saved.json.weeks.at(-1).first).toBe('2026-11-18');
	});

	test('a free member gets 403 and the offer’s reason, never the figures; nobody else’s zones, nobody signed out', async () => {
		await logHeartRate('2026-11-24T12:00:00Z', 10, 0);
		const free = await callApi(made.app, 'GET', `${path}?activity_groups=run`, { token: alice.token });
		expect(free.status).toBe(403);
		expect(free.json).toEqual({
			error: 'premium_required',
			message: 'Heart-rate zone analysis is part of MVP.',
			_diagnostics: { validation_failures: [] },
		});
		const bob = await addMember(made.deps, 'bob');
		const bobMvp = await signInAs(made.deps, {
			id: bob.id,
			username: 'bob',
			displayName: 'bob',
			isPremium: true,
		});
		const other = await callApi(made.app, 'GET', `${path}?user=${alice.id}`, { token: bobMvp });
		expect(other.status).toBe(404);
		expect(JSON.stringify(other.json)).not.toContain('seconds');
		const signedOut = await callApi(made.app, 'GET', `${path}?user=${alice.id}`);
		expect(signedOut.status).toBe(401);
	});

	test('refuses filters it does not know, with the field that failed', async () => {
		const token = await signInAs(made.deps, viewer(true));
		for (const query of [
			'activity_groups=running',
			'week_type=fortnight',
			'week_start_day=7',
			'date=2026-02-30',
			'split_type=9',
			'time_series_x_axis_type=distance',
			'user=x',
		]) {
			const answer = await callApi(made.app, 'GET', `${path}?${query}`, { token });
			expect(answer.status, query).toBe(400);
			expect(answer.json._diagnostics.validation_failures, query).toEqual([
				{ [query.split('=')[0]]: [expect.any(String)] },
			]);
		}
	});
});
