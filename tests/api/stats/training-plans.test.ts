import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { MAX_ACTIVE_GOALS } from '../../../src/lib/goals/contract';
import { findPlan, planGoals, TRAINING_PLANS } from '../../../src/lib/goals/plans';
import { followPlan } from '../../../src/lib/goals/server/service';
import { callApi } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { addMember, createStatsTestApp, type Member } from './helpers';

let database: TestDatabase;
let made: ReturnType<typeof createStatsTestApp>;
let alice: Member;
let bob: Member;

beforeAll(async () => {
	database = await openTestDb();
});
beforeEach(async () => {
	await database.reset();
	made = createStatsTestApp(database, new Date('2026-11-24T15:00:00Z'));
	alice = await addMember(made.deps, 'alice');
	bob = await addMember(made.deps, 'bob');
});
afterAll(async () => {
	await database.close();
});

const goalsOf = async (member: Member) =>
	(await callApi(made.app, 'GET', '/api/v7.1/user_goal/?status=active', { token: member.token })).json
		._embedded.user_goals as {
		criteria: { threshold_metrics: { data_type_field: string; value: number }; activity_group: string };
	}[];

describe('training plans', () => {
	test('every plan is written out week by week with sensible figures', () => {
		expect(new Set(TRAINING_PLANS.map((plan) => plan.slug)).size).toBe(TRAINING_PLANS.length);
		for (const plan of TRAINING_PLANS) {
			expect(plan.weeks.length).toBeGreaterThanOrEqual(6);
			for (const week of plan.weeks) {
				expect(week.runs).toBeGreaterThanOrEqual(3);
				expect(week.km).toBeGreaterThan(0);
				expect(week.key.length).toBeGreaterThan(5);
			}
		}
	});

	test('following a plan sets its first week as running goals for that member only, once', async () => {
		const plan = findPlan('first-10k');
		if (!plan) throw new Error('plan missing');
		const first = await followPlan(made.deps, { id: alice.id, isPremium: true }, planGoals(plan));
		expect(first.created).toHaveLength(2);
		const goals = await goalsOf(alice);
		expect(
			goals
				.map((goal) => goal.criteria)
				.sort((a, b) => a.threshold_metrics.value - b.threshold_metrics.value),
		).toEqual([
			{ threshold_metrics: { data_type_field: 'count', value: 3 }, activity_group: 'run' },
			{ threshold_metrics: { data_type_field: 'distance', value: 12_000 }, activity_group: 'run' },
		]);
		expect(await goalsOf(bob)).toEqual([]);

		const again = await followPlan(made.deps, { id: alice.id, isPremium: true }, planGoals(plan));
		expect(again).toEqual({ created: [], kept: 2 });
		expect(await goalsOf(alice)).toHaveLength(2);

		// Another plan with the same number of runs adds only its distance goal.
		const couch = findPlan('couch-to-5k');
		if (!couch) throw new Error('plan missing');
		const other = await followPlan(made.deps, { id: alice.id, isPremium: true }, planGoals(couch));
		expect(other.kept).toBe(1);
		expect(await goalsOf(alice)).toHaveLength(3);
	});

	test('a member without MVP is sent to the checkout and no goal is set', async () => {
		const plan = findPlan('first-10k');
		if (!plan) throw new Error('plan missing');
		await expect(
			followPlan(made.deps, { id: alice.id, isPremium: false }, planGoals(plan)),
		).rejects.toMatchObject({ code: 'forbidden', detail: 'premium_required' });
		expect(await goalsOf(alice)).toEqual([]);
	});

	test('a member with the most goals running is told to stop some and nothing is set', async () => {
		for (let i = 1; i <= MAX_ACTIVE_GOALS - 1; i++) {
			const answer = await callApi(made.app, 'POST', '/api/v7.1/user_goal/', {
				token: alice.token,
				body: {
					period: 'P1W',
					criteria: {
						threshold_metrics: { data_type_field: 'duration', value: i * 60 },
						activity_group: 'all',
					},
				},
			});
			expect(answer.status).toBe(201);
		}
		const plan = findPlan('half-marathon-pb');
		if (!plan) throw new Error('plan missing');
		await expect(
			followPlan(made.deps, { id: alice.id, isPremium: true }, planGoals(plan)),
		).rejects.toMatchObject({
			code: 'conflict',
		});
		expect(await goalsOf(alice)).toHaveLength(MAX_ACTIVE_GOALS - 1);
	});
});
