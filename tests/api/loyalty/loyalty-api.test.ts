import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { challengeParticipants, challenges } from '../../../src/lib/challenges/server/tables';
import { createGoalsApi } from '../../../src/lib/goals/server/api';
import { tierFor } from '../../../src/lib/loyalty/contract';
import { createLoyaltyApi } from '../../../src/lib/loyalty/server/api';
import { siteApi } from '../../../src/lib/site/server/api';
import { createWorkoutsApi } from '../../../src/lib/workouts/server/api';
import { callApi, createTestApi, createTestClock, createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { addMember, type Member } from '../routes/helpers';
import { workoutPayload } from '../stats/helpers';

let database: TestDatabase;
let deps: ReturnType<typeof createTestDeps>;
let app: ReturnType<typeof createTestApi>;
let pilot: Member;
let other: Member;

beforeAll(async () => {
	database = await openTestDb();
});
beforeEach(async () => {
	await database.reset();
	deps = createTestDeps(database.db, { clock: createTestClock(new Date('2026-11-18T15:00:00Z')) });
	// Only the member the setting names is in the pilot.
	deps.config = { ...deps.config, rollouts: { loyalty_pilot: { percent: 0, members: ['pilot'] } } };
	app = createTestApi(deps, { routes: [createWorkoutsApi(), createGoalsApi(), createLoyaltyApi(), siteApi] });
	pilot = await addMember(deps, 'pilot');
	other = await addMember(deps, 'other');
});
afterAll(async () => {
	await database.close();
});

async function logRun(member: Member, start: string, km: number) {
	const answer = await callApi(app, 'POST', '/api/v7.1/workout/', {
		token: member.token,
		body: workoutPayload(start, { km }),
	});
	expect(answer.status).toBe(201);
	return answer.json.id as number;
}

describe('loyalty pilot', () => {
	test('points come from workouts, goal weeks met and challenges finished, and set the status', async () => {
		const points = () =>
			callApi(app, 'GET', `/api/v1/loyalty/rewards-points/${pilot.id}`, { token: pilot.token });
		expect((await points()).json).toEqual({
			user_id: pilot.id,
			pointsBalance: 0,
			earned: { workouts: 0, goals_met: 0, challenges_finished: 0 },
		});

		const goal = await callApi(app, 'POST', '/api/v7.1/user_goal/', {
			token: pilot.token,
			body: {
				period: 'P1W',
				criteria: { threshold_metrics: { data_type_field: 'distance', value: 10_000 } },
			},
		});
		expect(goal.status).toBe(201);
		const first = await logRun(pilot, '2026-11-17T07:00:00Z', 4);
		await logRun(pilot, '2026-11-18T07:00:00Z', 7);
		expect((await points()).json).toMatchObject({
			pointsBalance: 2 * 10 + 50,
			earned: { workouts: 2, goals_met: 1, challenges_finished: 0 },
		});

		// One challenge reached, one not.
		const [done, open] = await deps.db
			.insert(challenges)
			.values([
				{
					name: 'Done',
					metric: 'distance',
					activityGroups: ['run'],
					startsOn: '2026-11-01',
					endsOn: '2026-11-30',
					target: 5000,
				},
				{
					name: 'Open',
					metric: 'distance',
					activityGroups: ['run'],
					startsOn: '2026-11-01',
					endsOn: '2026-11-30',
					target: 500_000,
				},
			])
			.returning({ id: challenges.id });
		await deps.db.insert(challengeParticipants).values([
			{ challengeId: done.id, userId: pilot.id, progress: 11_000, reachedAt: deps.clock() },
			{ challengeId: open.id, userId: pilot.id, progress: 11_000, reachedAt: deps.clock() },
		]);
		const status = await callApi(app, 'GET', `/api/v1/loyalty/status/${pilot.id}`, { token: pilot.token });
		expect(status.status).toBe(200);
		expect(status.json).toEqual({
			user_id: pilot.id,
			pointsBalance: 270,
			status: 'Bronze',
			next: { status: 'Silver', points_needed: 730 },
		});

		// A deleted workout takes its points, and the goal week it made, with it.
		expect((await callApi(app, 'DELETE', `/api/v7.1/workout/${first}/`, { token: pilot.token })).status).toBe(
			204,
		);
		expect((await points()).json.earned).toEqual({ workouts: 1, goals_met: 0, challenges_finished: 1 });
	});

	test('only the member in the pilot reads their own points', async () => {
		await logRun(other, '2026-11-17T07:00:00Z', 5);
		for (const path of [`/api/v1/loyalty/rewards-points/${pilot.id}`, `/api/v1/loyalty/status/${pilot.id}`]) {
			expect((await callApi(app, 'GET', path)).status).toBe(401);
			expect((await callApi(app, 'GET', path, { token: other.token })).status).toBe(404);
		}
		// Outside the pilot, a member's own points are not there either.
		expect(
			(await callApi(app, 'GET', `/api/v1/loyalty/status/${other.id}`, { token: other.token })).status,
		).toBe(404);
		expect((await callApi(app, 'GET', '/api/v1/loyalty/status/abc', { token: pilot.token })).status).toBe(
			400,
		);
	});

	test("the bootup configuration carries a pilot member's status for the profile menu, and no one else's", async () => {
		await logRun(pilot, '2026-11-17T07:00:00Z', 5);
		const mine = await callApi(app, 'GET', '/api/site/bootup', { token: pilot.token });
		expect(mine.json.loyalty).toEqual({ status: 'Blue', pointsBalance: 10 });
		const others = await callApi(app, 'GET', '/api/site/bootup', { token: other.token });
		expect(others.json.loyalty).toBeUndefined();
		expect((await callApi(app, 'GET', '/api/site/bootup')).json.loyalty).toBeUndefined();
	});

	test('tiers start at 0, 250, 1000 and 2500 points', () => {
		expect(tierFor(0)).toEqual({ status: 'Blue', next: { status: 'Bronze', points_needed: 250 } });
		expect(tierFor(249).status).toBe('Blue');
		expect(tierFor(250).status).toBe('Bronze');
		expect(tierFor(1000).status).toBe('Silver');
		expect(tierFor(2500)).toEqual({ status: 'Gold', next: null });
	});
});
