import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { callApi } from '../../helpers/app';
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
let bob: Member;

beforeAll(async () => {
	database = await openTestDb();
});
// Zone times are cached by workout id and creation time; ids start again after each reset, so
// each test's workouts are created a minute later than the last one's.
let tests = 0;
beforeEach(async () => {
	await database.reset();
	// Tuesday 24 November 2026 in New York.
	made = createStatsTestApp(database, new Date('2026-11-24T15:00:00Z'));
	made.clock.advance(60 * tests++);
	alice = await addMember(made.deps, 'alice');
	bob = await addMember(made.deps, 'bob');
	await setMember(made.deps, alice.id, { timeZone: 'America/New_York', workoutPrivacy: 3 });
});
afterAll(async () => {
	await database.close();
});

/** A public run with heart rate: `easy` minutes in zone 1, then `hard` in zone 4. */
async function logHeartRate(start: string, easy: number, hard: number) {
	const answer = await callApi(made.app, 'POST', '/api/v7.1/workout/', {
		token: alice.token,
		body: heartRatePayload(start, easy, hard, { privacy: 3 }),
	});
	expect(answer.status).toBe(201);
}

async function logFelt(start: string, minutes: number, perceived_effort?: number) {
	const answer = await callApi(made.app, 'POST', '/api/v7.1/workout/', {
		token: alice.token,
		body: { ...workoutPayload(start, { minutes, privacy: 3 }), perceived_effort },
	});
	expect(answer.status).toBe(201);
	return answer.json;
}

const loadOf = (token: string, query = '') =>
	callApi(made.app, 'GET', `/api/v7.1/workout_stats/training_load/${query}`, { token });

describe('training load, fitness, fatigue and form', () => {
	test('count heart rate by the member’s zones and perceived effort by its zone, on the member’s days', async () => {
		await logHeartRate('2026-11-17T12:00:00Z', 20, 10); // 20 × 1 + 10 × 4 = 60
		await logFelt('2026-11-18T12:00:00Z', 30, 7); // effort 7 stands for zone 4: 120
		// Monday 23 November 23:30 in New York, though the 24th in UTC.
		await logFelt('2026-11-24T04:30:00Z', 60, 2); // zone 1: 60
		await logFelt('2026-11-20T12:00:00Z', 45); // neither: no load

		const answer = await loadOf(alice.token);
		expect(answer.status).toBe(200);
		const { days, workouts } = answer.json as {
			days: { date: string; load: number; fitness: number; fatigue: number; form: number }[];
			workouts: Record<string, number>;
		};
		expect(days).toHaveLength(84);
		expect(days.at(-1)?.date).toBe('2026-11-24');
		const byDate = new Map(days.map((day) => [day.date, day]));
		expect(byDate.get('2026-11-17')?.load).toBe(60);
		expect(byDate.get('2026-11-18')?.load).toBe(120);
		expect(byDate.get('2026-11-23')?.load).toBe(60);
		expect(byDate.get('2026-11-24')?.load).toBe(0);
		expect(workouts).toEqual({ heart_rate: 1, perceived_effort: 2, none: 1 });
		// Nothing before the first workout; then fatigue answers faster than fitness.
		expect(byDate.get('2026-11-16')).toMatchObject({ fitness: 0, fatigue: 0, form: 0 });
		const eighteenth = byDate.get('2026-11-18');
		expect(eighteenth?.fatigue).toBeGreaterThan(eighteenth?.fitness ?? Infinity);
		expect(eighteenth?.form).toBeLessThan(0);
	});

	test('a past date gives the twelve weeks ending then, counting the six weeks before', async () => {
		await logFelt('2026-08-03T12:00:00Z', 60, 10); // 300, a week before the first day shown
		const answer = await loadOf(alice.token, '?date=2026-11-01');
		expect(answer.status).toBe(200);
		expect(answer.json.days[0].date).toBe('2026-08-10');
		expect(answer.json.days[0].fitness).toBeGreaterThan(0);
		expect(answer.json.workouts).toEqual({ heart_rate: 0, perceived_effort: 0, none: 0 });
		const bad = await loadOf(alice.token, '?date=2026-02-30');
		expect(bad.status).toBe(400);
	});

	test('are the member’s own: others read their own, and signed-out callers nothing', async () => {
		await logFelt('2026-11-18T12:00:00Z', 30, 7);
		const theirs = await loadOf(bob.token, `?user=${alice.id}`);
		expect(theirs.status).toBe(200);
		expect(theirs.json.workouts).toEqual({ heart_rate: 0, perceived_effort: 0, none: 0 });
		const anonymous = await callApi(made.app, 'GET', '/api/v7.1/workout_stats/training_load/');
		expect(anonymous.status).toBe(401);
	});
});

describe('perceived effort', () => {
	test('is the owner’s to set, change and clear, and shown only to them', async () => {
		const made1 = await logFelt('2026-11-18T12:00:00Z', 30, 6);
		expect(made1.perceived_effort).toBe(6);
		const path = `/api/v7.1/workout/${made1.id}/`;
		for (const refused of [0, 11, 5.5, '7']) {
			const answer = await callApi(made.app, 'PUT', path, {
				token: alice.token,
				body: { perceived_effort: refused, version: made1.version },
			});
			expect(answer.status, String(refused)).toBe(400);
		}
		const changed = await callApi(made.app, 'PUT', path, {
			token: alice.token,
			body: { perceived_effort: 9, version: made1.version },
		});
		expect(changed.json.perceived_effort).toBe(9);
		const seen = await callApi(made.app, 'GET', path, { token: bob.token });
		expect(seen.status).toBe(200);
		expect(seen.json).not.toHaveProperty('perceived_effort');
		const cleared = await callApi(made.app, 'PUT', path, {
			token: alice.token,
			body: { perceived_effort: null, version: changed.json.version },
		});
		expect(cleared.json.perceived_effort).toBeNull();
	});
});
