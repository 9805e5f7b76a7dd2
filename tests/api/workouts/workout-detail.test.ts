import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { readWorkoutFileSync } from '../../../src/lib/workout-files';
import { closeSharedParsePool } from '../../../src/lib/workout-files/server/parse-pool';
import { createWorkoutsApi } from '../../../src/lib/workouts/server/api';
import { createWorkoutDetailApi } from '../../../src/lib/workouts/server/detail-api';
import { callApi, createTestApi, createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { runGpx } from '../../helpers/run-gpx';
import { addMember, befriend, type Member, runPayload } from './helpers';

/** The parts of a workout answer these tests read. */
type Body = {
	id: number;
	version: number;
	name: string;
	start_datetime: string;
	aggregates: Record<string, number>;
	time_series: { position: [number, unknown][] };
	current: { name: string };
};

let database: TestDatabase;
let deps: ReturnType<typeof createTestDeps>;
let app: ReturnType<typeof createTestApi>;
let alice: Member;
let bob: Member;

beforeAll(async () => {
	database = await openTestDb();
	deps = createTestDeps(database.db);
	app = createTestApi(deps, { routes: [createWorkoutsApi(), createWorkoutDetailApi()] });
});
beforeEach(async () => {
	await database.reset();
	alice = await addMember(deps, 'alice');
	bob = await addMember(deps, 'bob');
});
afterAll(async () => {
	await closeSharedParsePool();
	await database.close();
});

/** A 20-minute run at 3 m/s (3.6 km), imported from GPX; its id and the stored copy. */
async function importRun(query = '?privacy=0', token = alice.token) {
	const form = new FormData();
	form.append('file', new Blob([runGpx({ minutes: 20, mps: 3 })]), 'run.gpx');
	const response = await app.request(`/api/v7.1/device/file_import/${query}`, {
		method: 'POST',
		headers: { authorization: `Bearer ${token}` },
		body: form,
	});
	expect(response.status).toBe(201);
	return (await response.json()) as { id: number; version: number; aggregates: Record<string, number> };
}

const cut = (id: number, body: unknown, token: string | null = alice.token) =>
	callApi(app, 'POST', `/api/internal/cutWorkout/${id}`, { token: token ?? undefined, body });

describe('cutting a workout', () => {
	test('the owner keeps minutes 5 to 15: start, distance and times are measured again and the version goes up', async () => {
		const run = await importRun();
		expect(run.aggregates.distance_total).toBeCloseTo(3600, -1);
		const answer = await cut(run.id, { start_offset_s: 300, end_offset_s: 900, version: run.version });
		expect(answer.status).toBe(200);
		const body = answer.json as Body;
		expect(body.version).toBe(run.version + 1);
		expect(body.start_datetime).toBe('2026-05-01T07:35:00+00:00');
		expect(body.aggregates.distance_total).toBeCloseTo(1800, -1);
		expect(body.aggregates.elapsed_time_total).toBe(600);
		expect(body.aggregates.heartrate_max).toBeGreaterThan(0);
		const read = await callApi(app, 'GET', `/api/v7.1/workout/${run.id}/?field_set=time_series`, {
			token: alice.token,
		});
		const positions = (read.json as Body).time_series.position;
		expect(positions).toHaveLength(61);
		expect(positions[0][0]).toBe(0);
		expect(positions.at(-1)?.[0]).toBe(600);
	});

	test('a cut on a stale version answers 412 with the saved copy and changes nothing', async () => {
		const run = await importRun();
		await callApi(app, 'PUT', `/api/v7.1/workout/${run.id}/`, {
			token: alice.token,
			body: { name: 'Renamed', version: run.version },
		});
		const answer = await cut(run.id, { start_offset_s: 60, end_offset_s: 600, version: run.version });
		expect(answer.status).toBe(412);
		expect((answer.json as Body).current.name).toBe('Renamed');
		const read = await callApi(app, 'GET', `/api/v7.1/workout/${run.id}/`, { token: alice.token });
		expect((read.json as Body).aggregates.distance_total).toBeCloseTo(3600, -1);
	});

	test('only the owner cuts: a friend who may see it and a stranger both get 404, a visitor 401', async () => {
		const run = await importRun('?privacy=3');
		await befriend(deps, alice, bob);
		expect((await cut(run.id, { start_offset_s: 0, end_offset_s: 60 }, bob.token)).status).toBe(404);
		expect((await cut(run.id, { start_offset_s: 0, end_offset_s: 60 }, null)).status).toBe(401);
		expect((await cut(999_999, { start_offset_s: 0, end_offset_s: 60 })).status).toBe(404);
	});

	test('bad cuts are refused with the rule: end before start, nothing left, no recording', async () => {
		const run = await importRun();
		const backwards = await cut(run.id, { start_offset_s: 600, end_offset_s: 60 });
		expect(backwards.status).toBe(400);
		const empty = await cut(run.id, { start_offset_s: 5000, end_offset_s: 6000 });
		expect(empty.status).toBe(422);
		const extra = await cut(run.id, { start_offset_s: 0, end_offset_s: 60, trim: true });
		expect(extra.status).toBe(400);
		const manual = await callApi(app, 'POST', '/api/v7.1/workout/', {
			token: alice.token,
			body: runPayload('Logged'),
		});
		const noSeries = await cut((manual.json as Body).id, { start_offset_s: 0, end_offset_s: 60 });
		expect(noSeries.status).toBe(422);
	});
});

describe('downloading a workout', () => {
	test('GPX, TCX and FIT read back with the same samples and distance', async () => {
		const run = await importRun();
		for (const format of ['gpx', 'tcx', 'fit'] as const) {
			const response = await app.request(`/api/v7.1/workout/${run.id}/export/?format=${format}`, {
				headers: { authorization: `Bearer ${alice.token}` },
			});
			expect(response.status).toBe(200);
			expect(response.headers.get('content-disposition')).toBe(
				`attachment; filename="Morning-run.${format}"; filename*=UTF-8''Morning%20run.${format}`,
			);
			const file = readWorkoutFileSync(new Uint8Array(await response.arrayBuffer()));
			expect(file.format).toBe(format);
			expect(file.points).toHaveLength(121);
			expect(file.points[0].heartRate).toBe(130);
			expect(file.startTime).toBe(Date.parse('2026-05-01T07:30:00Z'));
		}
	});

	test('whoever may see the workout may download it; others get 404', async () => {
		const friendsOnly = await importRun('?privacy=1');
		await befriend(deps, alice, bob);
		const asBob = await app.request(`/api/v7.1/workout/${friendsOnly.id}/export/?format=gpx`, {
			headers: { authorization: `Bearer ${bob.token}` },
		});
		expect(asBob.status).toBe(200);
		const visitor = await app.request(`/api/v7.1/workout/${friendsOnly.id}/export/?format=gpx`);
		expect(visitor.status).toBe(404);
		const carol = await addMember(deps, 'carol');
		const asCarol = await app.request(`/api/v7.1/workout/${friendsOnly.id}/export/`, {
			headers: { authorization: `Bearer ${carol.token}` },
		});
		expect(asCarol.status).toBe(404);
	});

	test('an unknown format is a 400 and a workout without a recording a 422', async () => {
		const run = await importRun();
		const wrong = await callApi(app, 'GET', `/api/v7.1/workout/${run.id}/export/?format=kml`, {
			token: alice.token,
		});
		expect(wrong.status).toBe(400);
		const manual = await callApi(app, 'POST', '/api/v7.1/workout/', {
			token: alice.token,
			body: runPayload('Logged'),
		});
		const none = await callApi(app, 'GET', `/api/v7.1/workout/${(manual.json as Body).id}/export/`, {
			token: alice.token,
		});
		expect(none.status).toBe(422);
	});
});
