import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createGearApi } from '../../../src/lib/gear/server/api';
import { closeSharedParsePool } from '../../../src/lib/workout-files/server/parse-pool';
import { createWorkoutsApi } from '../../../src/lib/workouts/server/api';
import { createWorkoutDetailApi } from '../../../src/lib/workouts/server/detail-api';
import { callApi, createTestApi, createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { runGpx } from '../../helpers/run-gpx';
import { addMember, type Member, runPayload } from '../workouts/helpers';

let database: TestDatabase;
let deps: ReturnType<typeof createTestDeps>;
let app: ReturnType<typeof createTestApi>;
let ada: Member;
let bob: Member;

beforeAll(async () => {
	database = await openTestDb();
	deps = createTestDeps(database.db);
	app = createTestApi(deps, { routes: [createWorkoutsApi(), createWorkoutDetailApi(), createGearApi()] });
});
beforeEach(async () => {
	await database.reset();
	ada = await addMember(deps, 'ada');
	bob = await addMember(deps, 'bob');
});
afterAll(async () => {
	await closeSharedParsePool();
	await database.close();
});

const shoes = {
	kind: 'shoes',
	brand: 'Brooks',
	model: 'Ghost 16',
	nickname: 'Blue pair',
	start_distance: 12_000,
};

async function addGear(member: Member, body: Record<string, unknown> = shoes) {
	return callApi(app, 'POST', '/api/v7.1/usergear/', { token: member.token, body });
}

async function logRun(member: Member, start: string, distance: number, gear?: unknown) {
	const body = {
		...runPayload('Run', { start }),
		aggregates: { distance_total: distance, active_time_total: 1800 },
	};
	return callApi(app, 'POST', '/api/v7.1/workout/', {
		token: member.token,
		body: gear === undefined ? body : { ...body, gear },
	});
}

async function worn(member: Member, id: number) {
	const read = await callApi(app, 'GET', `/api/v7.1/usergear/${id}/`, { token: member.token });
	expect(read.status).toBe(200);
	return read.json.distance_worn as number;
}

describe('usergear API', () => {
	test('a member adds shoes and lists them in the v7.1 shape', async () => {
		const made = await addGear(ada);
		expect(made.status).toBe(201);
		expect(made.headers.get('location')).toBe(`/api/v7.1/usergear/${made.json.id}/`);
		expect(made.json).toMatchObject({
			kind: 'shoes',
			brand: 'Brooks',
			model: 'Ghost 16',
			nickname: 'Blue pair',
			start_distance: 12_000,
			alert_distance: null,
			retired: false,
			distance_worn: 12_000,
			workout_count: 0,
			alert_reached: false,
			version: 1,
			_links: { self: [{ href: `/v7.1/usergear/${made.json.id}/`, id: String(made.json.id) }] },
		});
		const list = await callApi(app, 'GET', '/api/v7.1/usergear/', { token: ada.token });
		expect(list.status).toBe(200);
		expect(list.json.total_count).toBe(1);
		expect(list.json._embedded.usergear[0].id).toBe(made.json.id);
	});

	test('distance worn follows the workouts that name the gear, as they are edited and deleted', async () => {
		const gear = (await addGear(ada, { ...shoes, alert_distance: 20_000 })).json;
		const first = await logRun(ada, '2026-05-01T07:00:00Z', 5000, gear.id);
		expect(first.status).toBe(201);
		expect(first.json.gear).toBe(gear.id);
		expect(first.json._links.gear).toEqual([{ href: `/v7.1/usergear/${gear.id}/`, id: String(gear.id) }]);
		const second = await logRun(ada, '2026-05-02T07:00:00Z', 4000, `/v7.1/usergear/${gear.id}/`);
		expect(second.status).toBe(201);
		await logRun(ada, '2026-05-03T07:00:00Z', 7000);
		expect(await worn(ada, gear.id)).toBe(21_000);
		const read = await callApi(app, 'GET', `/api/v7.1/usergear/${gear.id}/`, { token: ada.token });
		expect(read.json).toMatchObject({ workout_count: 2, alert_reached: true });

		// A longer distance, then no gear at all, then deleted.
		const edit = await callApi(app, 'PUT', `/api/v7.1/workout/${first.json.id}/`, {
			token: ada.token,
			body: { aggregates: { distance_total: 6000 } },
		});
		expect(edit.status).toBe(200);
		expect(await worn(ada, gear.id)).toBe(22_000);
		await callApi(app, 'PUT', `/api/v7.1/workout/${second.json.id}/`, {
			token: ada.token,
			body: { gear: null },
		});
		expect(await worn(ada, gear.id)).toBe(18_000);
		await callApi(app, 'DELETE', `/api/v7.1/workout/${first.json.id}/`, { token: ada.token });
		expect(await worn(ada, gear.id)).toBe(12_000);
	});

	test('cutting a recorded workout shortens the distance worn by what was cut away', async () => {
		const gear = (await addGear(ada, { kind: 'shoes', nickname: 'Racers' })).json;
		const form = new FormData();
		form.append('file', new Blob([runGpx({ minutes: 20, mps: 3 })]), 'run.gpx');
		const imported = await app.request('/api/v7.1/device/file_import/', {
			method: 'POST',
			headers: { authorization: `Bearer ${ada.token}` },
			body: form,
		});
		const run = await imported.json();
		await callApi(app, 'PUT', `/api/v7.1/workout/${run.id}/`, { token: ada.token, body: { gear: gear.id } });
		expect(await worn(ada, gear.id)).toBeCloseTo(3600, -1);
		const cut = await callApi(app, 'POST', `/api/internal/cutWorkout/${run.id}`, {
			token: ada.token,
			body: { start_offset_s: 300, end_offset_s: 900 },
		});
		expect(cut.status).toBe(200);
		expect(cut.json.gear).toBe(gear.id);
		expect(await worn(ada, gear.id)).toBeCloseTo(1800, -1);
	});

	test('a workout may name only its owner’s gear, and only its owner sees which', async () => {
		const adas = (await addGear(ada)).json;
		const refused = await logRun(bob, '2026-05-01T07:00:00Z', 5000, adas.id);
		expect(refused.status).toBe(400);
		const bobsRun = (await logRun(bob, '2026-05-01T07:00:00Z', 5000)).json;
		const put = await callApi(app, 'PUT', `/api/v7.1/workout/${bobsRun.id}/`, {
			token: bob.token,
			body: { gear: adas.id },
		});
		expect(put.status).toBe(400);
		expect(await worn(ada, adas.id)).toBe(12_000);

		const shared = await callApi(app, 'POST', '/api/v7.1/workout/', {
			token: ada.token,
			body: { ...runPayload('Public run', { privacy: 3 }), gear: adas.id },
		});
		const seen = await callApi(app, 'GET', `/api/v7.1/workout/${shared.json.id}/`, { token: bob.token });
		expect(seen.status).toBe(200);
		expect(seen.json).not.toHaveProperty('gear');
		expect(seen.json._links).not.toHaveProperty('gear');
	});

	test('gear is its owner’s alone: others get 404 on read, change and delete', async () => {
		const gear = (await addGear(ada)).json;
		for (const [method, body] of [
			['GET', undefined],
			['PUT', { nickname: 'Mine now' }],
			['DELETE', undefined],
		] as const) {
			const answer = await callApi(app, method, `/api/v7.1/usergear/${gear.id}/`, { token: bob.token, body });
			expect(answer.status, method).toBe(404);
		}
		expect((await callApi(app, 'GET', '/api/v7.1/usergear/', { token: bob.token })).json.total_count).toBe(0);
		expect((await callApi(app, 'GET', '/api/v7.1/usergear/')).status).toBe(401);
		expect((await callApi(app, 'GET', `/api/v7.1/usergear/${gear.id}/`)).status).toBe(401);
		expect(await worn(ada, gear.id)).toBe(12_000);
	});

	test('changes keep to versions, retiring filters the list, and deleting frees the workouts', async () => {
		const gear = (await addGear(ada)).json;
		const run = (await logRun(ada, '2026-05-01T07:00:00Z', 5000, gear.id)).json;
		const retire = await callApi(app, 'PUT', `/api/v7.1/usergear/${gear.id}/`, {
			token: ada.token,
			body: { retired: true, version: 1 },
		});
		expect(retire.status).toBe(200);
		expect(retire.json).toMatchObject({ retired: true, version: 2, distance_worn: 17_000 });
		const stale = await callApi(app, 'PUT', `/api/v7.1/usergear/${gear.id}/`, {
			token: ada.token,
			body: { nickname: 'Old', version: 1 },
		});
		expect(stale.status).toBe(412);
		expect(stale.json.current.nickname).toBe('Blue pair');
		const inUse = await callApi(app, 'GET', '/api/v7.1/usergear/?retired=false', { token: ada.token });
		expect(inUse.json.total_count).toBe(0);
		const retired = await callApi(app, 'GET', '/api/v7.1/usergear/?retired=true', { token: ada.token });
		expect(retired.json.total_count).toBe(1);

		expect(
			(await callApi(app, 'DELETE', `/api/v7.1/usergear/${gear.id}/`, { token: ada.token })).status,
		).toBe(204);
		const after = await callApi(app, 'GET', `/api/v7.1/workout/${run.id}/`, { token: ada.token });
		expect(after.json.gear).toBeNull();
		expect(after.json.aggregates.distance_total).toBe(5000);
	});

	test('input is checked: kinds, distances, text and a name of some kind', async () => {
		for (const body of [
			{ kind: 'skis', nickname: 'x' },
			{ kind: 'shoes' },
			{ kind: 'shoes', nickname: 'x', start_distance: -1 },
			{ kind: 'shoes', nickname: 'x', start_distance: 1e12 },
			{ kind: 'bike', nickname: 'a\u0000b' },
			{ kind: 'bike', nickname: 'x'.repeat(81) },
			{ kind: 'bike', nickname: 'x', owner: bob.id },
		]) {
			const answer = await addGear(ada, body);
			expect(answer.status, JSON.stringify(body)).toBe(400);
		}
		const blank = (await addGear(ada, { kind: 'bike', nickname: 'Roadie' })).json;
		const emptied = await callApi(app, 'PUT', `/api/v7.1/usergear/${blank.id}/`, {
			token: ada.token,
			body: { nickname: '' },
		});
		expect(emptied.status).toBe(400);
	});
});
