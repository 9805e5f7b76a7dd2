import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { callApi, signInAs } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { addMember, befriend, createStatsTestApp, type Member, setMember, workoutPayload } from './helpers';

let database: TestDatabase;
let made: ReturnType<typeof createStatsTestApp>;
let alice: Member;

// Tuesday 24 November 2026, 15:00 UTC: in New York the week began on Monday the 23rd.
const NOW = new Date('2026-11-24T15:00:00Z');

beforeAll(async () => {
	database = await openTestDb();
});
beforeEach(async () => {
	await database.reset();
	made = createStatsTestApp(database, new Date('2026-11-17T15:00:00Z'));
	alice = await addMember(made.deps, 'alice');
	await setMember(made.deps, alice.id, { timeZone: 'America/New_York' });
});
afterAll(async () => {
	await database.close();
});

const distanceGoal = (km: number, group = 'run') => ({
	period: 'P1W',
	criteria: { threshold_metrics: { data_type_field: 'distance', value: km * 1000 }, activity_group: group },
});

/** Moves the clock on, and signs Alice in again as a member coming back would. */
async function advance(seconds: number) {
	made.clock.advance(seconds);
	alice.token = await signInAs(made.deps, {
		id: alice.id,
		username: 'alice',
		displayName: 'alice',
		isPremium: false,
	});
}

async function log(start: string, options: Parameters<typeof workoutPayload>[1] = {}, token = alice.token) {
	const answer = await callApi(made.app, 'POST', '/api/v7.1/workout/', {
		token,
		body: workoutPayload(start, options),
	});
	expect(answer.status).toBe(201);
}

describe('weekly goals', () => {
	test('a member creates a weekly goal and a Sunday 23:30 run completes the week it ends', async () => {
		const created = await callApi(made.app, 'POST', '/api/v7.1/user_goal/', {
			token: alice.token,
			body: distanceGoal(20),
		});
		expect(created.status).toBe(201);
		expect(created.json).toMatchObject({
			status: 'active',
			period: 'P1W',
			end_datetime: null,
			time_zone: 'America/New_York',
			criteria: { threshold_metrics: { data_type_field: 'distance', value: 20000 }, activity_group: 'run' },
			progress: { week_start: '2026-11-16', value: 0, met: false, current: true },
		});
		await log('2026-11-18T12:00:00Z', { km: 12 });
		// A ride does not count for a run goal.
		await log('2026-11-19T12:00:00Z', { km: 40, activity_type: 11 });
		// Sunday 22 November 23:30 in New York is Monday 04:30 UTC.
		await log('2026-11-23T04:30:00Z', { km: 8 });
		await advance((NOW.getTime() - made.deps.clock().getTime()) / 1000);
		const progress = await callApi(made.app, 'GET', '/api/v7.1/user_goal_progress/', { token: alice.token });
		expect(progress.status).toBe(200);
		const weeks = progress.json._embedded.user_goal_progress[0].weeks;
		expect(weeks.map((week: { week_start: string }) => week.week_start)).toEqual([
			'2026-11-23',
			'2026-11-16',
		]);
		expect(weeks[1]).toMatchObject({
			value: 20000,
			met: true,
			workout_count: 2,
			percent: 100,
			current: false,
		});
		expect(weeks[1].start_datetime).toBe('2026-11-16T05:00:00+00:00');
		expect(weeks[0]).toMatchObject({ value: 0, met: false, current: true });
		const list = await callApi(made.app, 'GET', '/api/v7.1/user_goal/', { token: alice.token });
		expect(list.json._embedded.user_goals[0].performance).toEqual({ weeks_met: 1, weeks_missed: 0 });
	});

	test('stopping a goal abandons it with the current time as its end', async () => {
		const created = await callApi(made.app, 'POST', '/api/v7.1/user_goal/', {
			token: alice.token,
			body: { period: 'P1W', criteria: { threshold_metrics: { data_type_field: 'count', value: 3 } } },
		});
		await advance(3600);
		const stopped = await callApi(made.app, 'PATCH', `/api/v7.1/user_goal/${created.json.id}/`, {
			token: alice.token,
			body: { status: 'abandoned' },
		});
		expect(stopped.status).toBe(200);
		expect(stopped.json).toMatchObject({
			status: 'abandoned',
			end_datetime: '2026-11-17T16:00:00+00:00',
			progress: null,
		});
		const active = await callApi(made.app, 'GET', '/api/v7.1/user_goal/?status=active', {
			token: alice.token,
		});
		expect(active.json.total_count).toBe(0);
		// Stopping it again changes nothing.
		await advance(3600);
		const again = await callApi(made.app, 'PATCH', `/api/v7.1/user_goal/${created.json.id}/`, {
			token: alice.token,
			body: { status: 'abandoned' },
		});
		expect(again.json.end_datetime).toBe('2026-11-17T16:00:00+00:00');
	});

	test('only weekly goals are kept, and thresholds must be real', async () => {
		const monthly = await callApi(made.app, 'POST', '/api/v7.1/user_goal/', {
			token: alice.token,
			body: { ...distanceGoal(20), period: 'P1M' },
		});
		expect(monthly.status).toBe(400);
		for (const value of [0, -5, 1e12]) {
			const bad = await callApi(made.app, 'POST', '/api/v7.1/user_goal/', {
				token: alice.token,
				body: { period: 'P1W', criteria: { threshold_metrics: { data_type_field: 'distance', value } } },
			});
			expect(bad.status).toBe(400);
		}
		const hostile = await callApi(made.app, 'POST', '/api/v7.1/user_goal/', {
			token: alice.token,
			body: { ...distanceGoal(20), criteria: { ...distanceGoal(20).criteria, activity_group: 'run\u0000' } },
		});
		expect(hostile.status).toBe(400);
		const patch = await callApi(made.app, 'PATCH', '/api/v7.1/user_goal/1/', {
			token: alice.token,
			body: { status: 'active' },
		});
		expect(patch.status).toBe(400);
	});

	test('signing in is needed to create or stop a goal', async () => {
		const anonymous = await callApi(made.app, 'POST', '/api/v7.1/user_goal/', { body: distanceGoal(5) });
		expect(anonymous.status).toBe(401);
		const stop = await callApi(made.app, 'PATCH', '/api/v7.1/user_goal/1/', {
			body: { status: 'abandoned' },
		});
		expect(stop.status).toBe(401);
	});

	test("others see a member's goals only as the member's workout privacy allows, counting only what they may see", async () => {
		const friend = await addMember(made.deps, 'friend');
		const stranger = await addMember(made.deps, 'stranger');
		await befriend(made.deps, alice, friend);
		const goal = await callApi(made.app, 'POST', '/api/v7.1/user_goal/', {
			token: alice.token,
			body: distanceGoal(10),
		});
		await log('2026-11-17T16:00:00Z', { km: 6, privacy: 0 });
		await log('2026-11-17T17:00:00Z', { km: 4, privacy: 1 });
		const path = `/api/v7.1/user_goal/?user=${alice.id}`;
		// Workout privacy "only me": nobody else sees the goals, and a stranger cannot stop them.
		for (const token of [friend.token, stranger.token, undefined]) {
			const answer = await callApi(made.app, 'GET', path, { token });
			expect(answer.status).toBe(404);
			expect(JSON.stringify(answer.json)).not.toContain('distance');
		}
		const theirs = await callApi(made.app, 'PATCH', `/api/v7.1/user_goal/${goal.json.id}/`, {
			token: stranger.token,
			body: { status: 'abandoned' },
		});
		expect(theirs.status).toBe(404);
		await setMember(made.deps, alice.id, { workoutPrivacy: 1 });
		const friendView = await callApi(made.app, 'GET', path, { token: friend.token });
		expect(friendView.status).toBe(200);
		// The private 6 km run is left out of what the friend sees; the owner sees both.
		expect(friendView.json._embedded.user_goals[0].progress).toMatchObject({ value: 4000, met: false });
		const own = await callApi(made.app, 'GET', '/api/v7.1/user_goal/', { token: alice.token });
		expect(own.json._embedded.user_goals[0].progress).toMatchObject({ value: 10000, met: true });
		expect((await callApi(made.app, 'GET', path, { token: stranger.token })).status).toBe(404);
		const single = await callApi(made.app, 'GET', `/api/v7.1/user_goal/${goal.json.id}/`, {
			token: stranger.token,
		});
		expect(single.status).toBe(404);
	});
});

describe('the day weeks start on', () => {
	const setStartDay = (value: unknown, token = alice.token) =>
		callApi(made.app, 'PUT', `/api/v7.1/user/${alice.id}/`, { token, body: { week_start_day: value } });

	test('a Sunday run counts in different weeks for a Sunday-start and a Monday-start member', async () => {
		const bob = await addMember(made.deps, 'bob');
		await setMember(made.deps, bob.id, { timeZone: 'America/New_York' });
		expect(
			(await callApi(made.app, 'GET', '/api/v7.1/user/self/', { token: alice.token })).json,
		).toMatchObject({ week_start_day: 1 });
		const saved = await setStartDay(0);
		expect(saved.status).toBe(200);
		expect(saved.json.week_start_day).toBe(0);
		for (const member of [alice, bob]) {
			const goal = await callApi(made.app, 'POST', '/api/v7.1/user_goal/', {
				token: member.token,
				body: { period: 'P1W', criteria: { threshold_metrics: { data_type_field: 'count', value: 1 } } },
			});
			expect(goal.status).toBe(201);
		}
		// Sunday 22 November, 10:00 in New York.
		await log('2026-11-22T15:00:00Z', { km: 5 }, alice.token);
		await log('2026-11-22T15:00:00Z', { km: 5 }, bob.token);
		await advance((NOW.getTime() - made.deps.clock().getTime()) / 1000);
		bob.token = await signInAs(made.deps, {
			id: bob.id,
			username: 'bob',
			displayName: 'bob',
			isPremium: false,
		});
		const weeksOf = async (token: string) =>
			(await callApi(made.app, 'GET', '/api/v7.1/user_goal_progress/', { token })).json._embedded
				.user_goal_progress[0].weeks;
		// Alice's weeks start on Sunday: the run opens the current week, 22 to 28 November.
		const sundayWeeks = await weeksOf(alice.token);
		expect(sundayWeeks[0]).toMatchObject({ week_start: '2026-11-22', current: true, value: 1, met: true });
		expect(sundayWeeks[0].start_datetime).toBe('2026-11-22T05:00:00+00:00');
		expect(sundayWeeks[1]).toMatchObject({ week_start: '2026-11-15', value: 0, met: false });
		// Bob's start on Monday: the same run closes the week of 16 November.
		const mondayWeeks = await weeksOf(bob.token);
		expect(mondayWeeks[0]).toMatchObject({ week_start: '2026-11-23', current: true, value: 0 });
		expect(mondayWeeks[1]).toMatchObject({ week_start: '2026-11-16', value: 1, met: true });
		// The weekly stats and the calendar's week rows follow the same day.
		const stats = async (token: string) =>
			(await callApi(made.app, 'GET', '/api/v7.1/workout_stats/?date=2026-11-22', { token })).json;
		expect(await stats(alice.token)).toMatchObject({
			week_start_day: 0,
			week: { first: '2026-11-22', last: '2026-11-28', totals: { count: 1 } },
		});
		expect(await stats(bob.token)).toMatchObject({
			week_start_day: 1,
			week: { first: '2026-11-16', last: '2026-11-22', totals: { count: 1 } },
		});
		const calendar = async (token: string) =>
			(await callApi(made.app, 'GET', '/api/v7.1/workout_calendar/?month=2026-11', { token })).json;
		const aliceMonth = await calendar(alice.token);
		expect(aliceMonth.week_start_day).toBe(0);
		expect(aliceMonth.weeks[0].first).toBe('2026-11-01');
		expect(aliceMonth.weeks.find((week: { first: string }) => week.first === '2026-11-22').totals.count).toBe(
			1,
		);
		const bobMonth = await calendar(bob.token);
		expect(bobMonth.weeks[0].first).toBe('2026-10-26');
		expect(bobMonth.weeks.find((week: { first: string }) => week.first === '2026-11-16').totals.count).toBe(
			1,
		);
		// An explicit week_start_day on the stats query still wins over the setting.
		const asked = await callApi(
			made.app,
			'GET',
			'/api/v7.1/workout_stats/?date=2026-11-22&week_start_day=1',
			{
				token: alice.token,
			},
		);
		expect(asked.json.week).toMatchObject({ first: '2026-11-16' });
	});

	test('a bad start day is refused with a clear message and changes nothing', async () => {
		for (const value of [7, -1, 1.5, '0', 'sunday', null]) {
			const answer = await setStartDay(value);
			expect(answer.status).toBe(400);
			expect(JSON.stringify(answer.json._diagnostics)).toMatch(
				/week_start_day is a day number: 0 \(Sunday\) to 6/,
			);
		}
		const self = await callApi(made.app, 'GET', '/api/v7.1/user/self/', { token: alice.token });
		expect(self.json.week_start_day).toBe(1);
	});

	test('only the member changes their own start day', async () => {
		const bob = await addMember(made.deps, 'bob');
		expect((await setStartDay(0, bob.token)).status).toBeGreaterThanOrEqual(403);
		const anonymous = await callApi(made.app, 'PUT', `/api/v7.1/user/${alice.id}/`, {
			body: { week_start_day: 0 },
		});
		expect(anonymous.status).toBe(401);
		const self = await callApi(made.app, 'GET', '/api/v7.1/user/self/', { token: alice.token });
		expect(self.json.week_start_day).toBe(1);
	});
});
