import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { bestEffortQueue, bestEfforts } from '../../../src/lib/stats/server/tables';
import { callApi } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { addMember, befriend, createStatsTestApp, type Member, setMember, workoutPayload } from './helpers';

let database: TestDatabase;
let made: ReturnType<typeof createStatsTestApp>;
let alice: Member;

beforeAll(async () => {
	database = await openTestDb();
});
beforeEach(async () => {
	await database.reset();
	made = createStatsTestApp(database, new Date('2026-11-25T14:00:00Z'));
	alice = await addMember(made.deps, 'alice');
});
afterAll(async () => {
	await database.close();
});

/** A recorded run: a distance sample every 10 s at `speed` m/s, with one faster kilometre from minute 10. */
function recordedRun(start: string, minutes: number, speed: number, privacy: 0 | 1 | 3 = 0) {
	const distance: [number, number][] = [];
	let metres = 0;
	for (let s = 0; s <= minutes * 60; s += 10) {
		distance.push([s, Math.round(metres * 10) / 10]);
		metres += (s >= 600 && s < 800 ? 5 : speed) * 10;
	}
	return {
		...workoutPayload(start, { km: metres / 1000, minutes, privacy }),
		time_series: { distance },
	};
}

async function post(body: unknown, token = alice.token) {
	const answer = await callApi(made.app, 'POST', '/api/v7.1/workout/', { token, body });
	expect(answer.status).toBe(201);
	return answer.json.id as number;
}

describe('personal records', () => {
	test('are found inside recordings and whole logged workouts, per sport, with the records they broke', async () => {
		const first = await post(workoutPayload('2026-10-01T07:00:00Z', { km: 5.1, minutes: 30 }));
		const second = await post(recordedRun('2026-11-01T07:00:00Z', 40, 3));
		const ride = await post(
			workoutPayload('2026-11-02T07:00:00Z', { km: 5, minutes: 10, activity_type: 11 }),
		);
		const answer = await callApi(made.app, 'GET', `/api/v7.1/personal_records/?workout=${second}`, {
			token: alice.token,
		});
		expect(answer.status).toBe(200);
		const runFive = answer.json.records.find(
			(r: { activity_group: string; distance: string }) => r.activity_group === 'run' && r.distance === '5km',
		);
		// The recorded run's fastest 4.95 km beats the logged 5.1 km in 30 minutes.
		expect(runFive.best.workout).toBe(second);
		expect(runFive.best.seconds).toBeLessThan(1800);
		expect(runFive.history.map((h: { workout: number }) => h.workout)).toEqual([first, second]);
		const runOneK = answer.json.records.find(
			(r: { activity_group: string; distance: string }) => r.activity_group === 'run' && r.distance === '1km',
		);
		expect(runOneK.best).toMatchObject({ workout: second, seconds: 200 });
		const rideFive = answer.json.records.find((r: { activity_group: string }) => r.activity_group === 'ride');
		expect(rideFive.best).toMatchObject({ workout: ride, seconds: 600 });
		expect(answer.json.workout_ranks).toContainEqual({
			distance: '5km',
			label: '5 km',
			rank: 1,
			text: 'Best 5 km',
		});
		const ranks = await callApi(made.app, 'GET', `/api/v7.1/personal_records/?workout=${first}`, {
			token: alice.token,
		});
		expect(ranks.json.workout_ranks).toEqual([
			{ distance: '5km', label: '5 km', rank: 2, text: '2nd best 5 km' },
		]);
	});

	test("a new workout's efforts are kept as it is saved; an edit queues it to be looked at again", async () => {
		const id = await post(recordedRun('2026-11-01T07:00:00Z', 40, 3));
		const kept = () =>
			made.deps.db
				.select({ key: bestEfforts.distanceKey, seconds: bestEfforts.seconds })
				.from(bestEfforts)
				.where(eq(bestEfforts.workoutId, id));
		const queued = () => made.deps.db.select().from(bestEffortQueue).where(eq(bestEffortQueue.workoutId, id));
		// Before anyone reads records: found from the recording the upload had in hand, nothing queued.
		expect(await kept()).toContainEqual({ key: '1km', seconds: 200 });
		expect(await queued()).toEqual([]);
		const edit = await callApi(made.app, 'PUT', `/api/v7.1/workout/${id}/`, {
			token: alice.token,
			body: { name: 'Tempo' },
		});
		expect(edit.status).toBe(200);
		expect(await queued()).toHaveLength(1);
		await callApi(made.app, 'GET', '/api/v7.1/personal_records/', { token: alice.token });
		expect(await queued()).toEqual([]);
		expect(await kept()).toContainEqual({ key: '1km', seconds: 200 });
	});

	test('an edited workout is looked at again', async () => {
		const id = await post(workoutPayload('2026-10-01T07:00:00Z', { km: 5, minutes: 30 }));
		const before = await callApi(made.app, 'GET', '/api/v7.1/personal_records/', { token: alice.token });
		expect(before.json.records).toHaveLength(1);
		const edit = await callApi(made.app, 'PUT', `/api/v7.1/workout/${id}/`, {
			token: alice.token,
			body: { aggregates: { distance_total: 10_000, active_time_total: 3000, elapsed_time_total: 3000 } },
		});
		expect(edit.status).toBe(200);
		const after = await callApi(made.app, 'GET', '/api/v7.1/personal_records/', { token: alice.token });
		expect(after.json.records.map((r: { distance: string }) => r.distance)).toEqual(['10km']);
	});

	test('others see only records set in workouts they may see', async () => {
		const friend = await addMember(made.deps, 'friend');
		await befriend(made.deps, alice, friend);
		await post(workoutPayload('2026-10-01T07:00:00Z', { km: 5, minutes: 25, privacy: 0 }));
		await post(workoutPayload('2026-10-02T07:00:00Z', { km: 5, minutes: 28, privacy: 1 }));
		const hidden = await callApi(made.app, 'GET', `/api/v7.1/personal_records/?user=${alice.id}`, {
			token: friend.token,
		});
		expect(hidden.status).toBe(404);
		await setMember(made.deps, alice.id, { workoutPrivacy: 1 });
		const seen = await callApi(made.app, 'GET', `/api/v7.1/personal_records/?user=${alice.id}`, {
			token: friend.token,
		});
		expect(seen.json.records[0].best.seconds).toBe(1680);
		const bad = await callApi(made.app, 'GET', '/api/v7.1/personal_records/?workout=1%00', {
			token: alice.token,
		});
		expect(bad.status).toBe(400);
	});
});
