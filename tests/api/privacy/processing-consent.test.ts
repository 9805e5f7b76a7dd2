import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { users } from '../../../src/lib/auth/server/tables';
import type { AppDeps } from '../../../src/lib/core/server/deps';
import { runDueJobs } from '../../../src/lib/jobs/server/service';
import { createPrivacyApi } from '../../../src/lib/privacy/server/api';
import { privacyJobs } from '../../../src/lib/privacy/server/jobs';
import { closeSharedParsePool } from '../../../src/lib/workout-files/server/parse-pool';
import { createWorkoutsApi } from '../../../src/lib/workouts/server/api';
import { createWorkoutDetailApi } from '../../../src/lib/workouts/server/detail-api';
import { callApi, createTestApi, createTestDeps, signInAs } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { runGpx } from '../../helpers/run-gpx';

let database: TestDatabase;
let deps: AppDeps;
let app: ReturnType<typeof createTestApi>;

type Body = {
	id: number;
	version: number;
	held_back?: string[];
	aggregates: Record<string, number>;
	time_series: { position: unknown[]; heartrate: unknown[]; distance: unknown[] };
	error?: string;
};

beforeAll(async () => {
	database = await openTestDb();
	deps = createTestDeps(database.db);
	app = createTestApi(deps, { routes: [createPrivacyApi(), createWorkoutsApi(), createWorkoutDetailApi()] });
});
beforeEach(async () => {
	await database.reset();
});
afterAll(async () => {
	await closeSharedParsePool();
	await database.close();
});

/** A member living in `country` who has answered nothing beyond the required consents. */
async function memberIn(country: string, username: string) {
	const [row] = await deps.db
		.insert(users)
		.values({
			username,
			email: `${username}@example.test`,
			passwordHash: 'x',
			displayName: username,
			country,
		})
		.returning({ id: users.id });
	const token = await signInAs(deps, { id: row.id, username, displayName: username, isPremium: false });
	return { id: row.id, token };
}

/** A 20-minute run at 3 m/s with heart rate on every point, uploaded as a GPX file. */
async function uploadRun(token: string) {
	const form = new FormData();
	form.append('file', new Blob([runGpx({ minutes: 20, mps: 3 })]), 'run.gpx');
	const response = await app.request('/api/v7.1/device/file_import/?privacy=3', {
		method: 'POST',
		headers: { authorization: `Bearer ${token}` },
		body: form,
	});
	expect(response.status).toBe(201);
	return (await response.json()) as Body;
}

const read = async (id: number, token: string) =>
	(await callApi(app, 'GET', `/api/v7.1/workout/${id}/?field_set=time_series`, { token })).json as Body;

async function answer(token: string, consents: { key: string; granted: boolean }[]) {
	const saved = await callApi(app, 'POST', '/api/consent/v1/consent/status', { token, body: { consents } });
	expect(saved.status).toBe(200);
	await runDueJobs(deps, privacyJobs);
}

describe('recordings wait for the consents they need', () => {
	test('in the Netherlands, without consent: distance and time are shown, the track and heart rate wait, and come back when consent is given', async () => {
		const member = await memberIn('NL', 'noor');
		const run = await uploadRun(member.token);
		expect(run.held_back).toEqual(['precise_location', 'health_data']);
		expect(run.aggregates.distance_total).toBeCloseTo(3600, -1);
		expect(run.aggregates.elapsed_time_total).toBe(1200);
		expect(run.aggregates.heartrate_avg).toBeUndefined();
		const held = await read(run.id, member.token);
		expect(held.time_series.position).toEqual([]);
		expect(held.time_series.heartrate).toEqual([]);
		const gpx = await app.request(`/api/v7.1/workout/${run.id}/export/?format=gpx`, {
			headers: { authorization: `Bearer ${member.token}` },
		});
		expect(await gpx.text()).not.toMatch(/lat="46\./);

		await answer(member.token, [{ key: 'precise_location', granted: true }]);
		const located = await read(run.id, member.token);
		expect(located.held_back).toEqual(['health_data']);
		expect(located.time_series.position).toHaveLength(121);
		expect(located.time_series.heartrate).toEqual([]);

		await answer(member.token, [{ key: 'health_data', granted: true }]);
		const whole = await read(run.id, member.token);
		expect(whole.held_back).toBeUndefined();
		expect(whole.time_series.heartrate).toHaveLength(121);
		expect(whole.aggregates.heartrate_max).toBe(150);
	});

	test('withdrawing health data moves the heart rate out again and keeps the track', async () => {
		const member = await memberIn('NL', 'noor');
		await answer(member.token, [
			{ key: 'precise_location', granted: true },
			{ key: 'health_data', granted: true },
		]);
		const run = await uploadRun(member.token);
		expect(run.held_back).toBeUndefined();
		expect(run.aggregates.heartrate_avg).toBeGreaterThan(0);

		await answer(member.token, [{ key: 'health_data', granted: false }]);
		const withdrawn = await read(run.id, member.token);
		expect(withdrawn.held_back).toEqual(['health_data']);
		expect(withdrawn.time_series.heartrate).toEqual([]);
		expect(withdrawn.aggregates.heartrate_avg).toBeUndefined();
		expect(withdrawn.time_series.position).toHaveLength(121);

		await answer(member.token, [{ key: 'health_data', granted: true }]);
		expect((await read(run.id, member.token)).time_series.heartrate).toHaveLength(121);
	});

	test('in the US, with health data not given: the track is kept and the heart rate waits, also one a client sends later', async () => {
		const member = await memberIn('US', 'uma');
		const run = await uploadRun(member.token);
		expect(run.held_back).toEqual(['health_data']);
		expect((await read(run.id, member.token)).time_series.position).toHaveLength(121);

		const edited = await callApi(app, 'PUT', `/api/v7.1/workout/${run.id}/`, {
			token: member.token,
			body: { version: run.version, aggregates: { heartrate_avg: 151 } },
		});
		expect(edited.status).toBe(200);
		expect((await read(run.id, member.token)).aggregates.heartrate_avg).toBeUndefined();

		await answer(member.token, [{ key: 'health_data', granted: true }]);
		const released = await read(run.id, member.token);
		expect(released.aggregates.heartrate_avg).toBe(151);
		expect(released.time_series.heartrate).toHaveLength(121);
	});

	test('a recording that waits cannot be cut, and says why', async () => {
		const member = await memberIn('NL', 'noor');
		const run = await uploadRun(member.token);
		const cut = await callApi(app, 'POST', `/api/internal/cutWorkout/${run.id}`, {
			token: member.token,
			body: { start_offset_s: 60, end_offset_s: 600, version: run.version },
		});
		expect(cut.status).toBe(409);
		expect(cut.json.message).toMatch(/not consented to precise location and health data/);
		expect((await read(run.id, member.token)).version).toBe(run.version);
	});

	test('another member never sees what waits, nor that anything does', async () => {
		const owner = await memberIn('NL', 'noor');
		const other = await memberIn('NL', 'otto');
		const run = await uploadRun(owner.token);
		const seen = await read(run.id, other.token);
		expect(seen.held_back).toBeUndefined();
		expect(seen.time_series.position).toEqual([]);
		expect(seen.time_series.heartrate).toEqual([]);
	});
});
