import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { users } from '../../../src/lib/auth/server/tables';
import { callApi } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { addMember, befriend, createWorkoutsTestApp, type Member, runPayload } from './helpers';

let database: TestDatabase;
let made: ReturnType<typeof createWorkoutsTestApp>;
let alice: Member;
let bob: Member;

beforeAll(async () => {
	database = await openTestDb();
	made = createWorkoutsTestApp(database);
});
beforeEach(async () => {
	await database.reset();
	alice = await addMember(made.deps, 'alice');
	bob = await addMember(made.deps, 'bob');
});
afterAll(() => database.close());

async function log(member: Member, body: Record<string, unknown>) {
	const answer = await callApi(made.app, 'POST', '/api/v7.1/workout/', { token: member.token, body });
	expect(answer.status).toBe(201);
	return answer.json;
}

describe('user_stats', () => {
	beforeEach(async () => {
		// Two runs (one private), one public ride, in May; one public run in June.
		await log(alice, {
			...runPayload('Run 1', { start: '2026-05-01T07:00:00+00:00', privacy: 3 }),
			aggregates: {
				distance_total: 5000,
				active_time_total: 1800,
				elapsed_time_total: 1900,
				metabolic_energy_total: 1_500_000,
			},
		});
		await log(alice, {
			...runPayload('Run 2', { start: '2026-05-03T07:00:00+00:00', privacy: 0 }),
			aggregates: {
				distance_total: 10000,
				active_time_total: 3600,
				elapsed_time_total: 3700,
				steps_total: 9000,
			},
		});
		await log(alice, {
			...runPayload('Ride', { start: '2026-05-10T07:00:00+00:00', privacy: 3, activity_type: 11 }),
			aggregates: { distance_total: 40000, active_time_total: 5400, elapsed_time_total: 6000 },
		});
		await log(alice, {
			...runPayload('June run', { start: '2026-06-01T07:00:00+00:00', privacy: 3 }),
			aggregates: { distance_total: 8000, active_time_total: 2400, elapsed_time_total: 2500 },
		});
	});

	test('the member sees totals per activity and a summary over all their workouts', async () => {
		const stats = await callApi(
			made.app,
			'GET',
			`/api/v7.1/user_stats/${alice.id}/?include_summary_stats=true`,
			{ token: alice.token },
		);
		expect(stats.status).toBe(200);
		expect(stats.json._embedded.stats).toEqual([
			expect.objectContaining({
				activity_type: 11,
				count: 1,
				distance_total: 40000,
				active_time_total: 5400,
			}),
			expect.objectContaining({
				activity_type: 16,
				count: 3,
				distance_total: 23000,
				active_time_total: 7800,
				steps_total: 9000,
				metabolic_energy_total: 1_500_000,
			}),
		]);
		expect(stats.json.summary_stats).toEqual({
			count: 4,
			distance_total: 63000,
			active_time_total: 13200,
			elapsed_time_total: 14100,
			metabolic_energy_total: 1_500_000,
			steps_total: 9000,
		});
		expect(stats.json._links.user[0].id).toBe(String(alice.id));
	});

	test('a period counts whole days, both ends included; without include_summary_stats there is no summary', async () => {
		const stats = await callApi(
			made.app,
			'GET',
			`/api/v7.1/user_stats/${alice.id}/?start_date=2026-05-03&end_date=2026-05-10`,
			{ token: alice.token },
		);
		expect(stats.json.summary_stats).toBeUndefined();
		expect(
			stats.json._embedded.stats.map((row: { activity_type: number; count: number }) => [
				row.activity_type,
				row.count,
			]),
		).toEqual([
			[11, 1],
			[16, 1],
		]);
		const backwards = await callApi(
			made.app,
			'GET',
			`/api/v7.1/user_stats/${alice.id}/?start_date=2026-06-01&end_date=2026-05-01`,
		);
		expect(backwards.status).toBe(400);
	});

	test('others count only the workouts they may see; a friend also the friends-only ones', async () => {
		const forStranger = await callApi(
			made.app,
			'GET',
			`/api/v7.1/user_stats/${alice.id}/?include_summary_stats=true`,
			{ token: bob.token },
		);
		expect(forStranger.json.summary_stats).toMatchObject({ count: 3, distance_total: 53000 });
		const forVisitor = await callApi(
			made.app,
			'GET',
			`/api/v7.1/user_stats/${alice.id}/?include_summary_stats=true`,
		);
		expect(forVisitor.json.summary_stats).toMatchObject({ count: 3, distance_total: 53000 });
		await log(alice, {
			...runPayload('Friends run', { start: '2026-05-20T07:00:00+00:00', privacy: 1 }),
			aggregates: { distance_total: 1000 },
		});
		const friend = await addMember(made.deps, 'friend');
		await befriend(made.deps, alice, friend);
		const forFriend = await callApi(
			made.app,
			'GET',
			`/api/v7.1/user_stats/${alice.id}/?include_summary_stats=true`,
			{ token: friend.token },
		);
		expect(forFriend.json.summary_stats).toMatchObject({ count: 4, distance_total: 54000 });
		expect((await callApi(made.app, 'GET', '/api/v7.1/user_stats/999999/')).status).toBe(404);
	});
});

describe('calorie estimate', () => {
	test('MET × weight × hours from the 2011 Compendium: an hour of running at 70 kg is 8.0 × 70 = 560 kcal', async () => {
		const answer = await callApi(made.app, 'POST', '/api/_api/workout/calculate/calories/', {
			body: { activity_type: 16, duration: 3600, weight: 70 },
		});
		expect(answer.status).toBe(200);
		expect(answer.json).toMatchObject({
			met: 8,
			calories: 560,
			metabolic_energy_total: 560 * 4184,
			compendium_code: '12150',
			weight: 70,
		});
		const ride = await callApi(
			made.app,
			'GET',
			'/api/_api/workout/calculate/calories/?activity_type=11&duration=1800&weight=80',
		);
		expect(ride.json).toMatchObject({ met: 7.5, calories: 300, compendium_code: '01015' });
	});

	test("a Compendium activity type uses its own MET, and without a weight the member's profile weight", async () => {
		await made.deps.db.update(users).set({ weightKg: 60 }).where(eq(users.id, alice.id));
		const answer = await callApi(made.app, 'POST', '/api/_api/workout/calculate/calories/', {
			token: alice.token,
			body: { activity_type: 102150, duration: 3600 },
		});
		expect(answer.json).toMatchObject({ met: 2.5, calories: 150, weight: 60, compendium_code: '02150' });
	});

	test('the two editions reuse a code for different activities, and each type keeps its own', async () => {
		const estimate = async (id: number) =>
			(
				await callApi(
					made.app,
					'GET',
					`/api/_api/workout/calculate/calories/?activity_type=${id}&duration=3600&weight=70`,
				)
			).json;
		expect(await estimate(101015)).toMatchObject({
			met: 7.5,
			compendium_code: '01015',
			compendium_edition: 2011,
			compendium_activity: 'Bicycling, general',
		});
		expect(await estimate(201015)).toMatchObject({
			met: 4.3,
			calories: 301,
			compendium_code: '01015',
			compendium_edition: 2024,
			compendium_activity: 'Bicycling, self-selected easy pace',
		});
		// A type of the 2024 edition's own heading: virtual reality fitness, 9.8 MET.
		expect(await estimate(222360)).toMatchObject({ met: 9.8, calories: 686, compendium_edition: 2024 });
	});

	test('bad input is a 400', async () => {
		for (const body of [
			{ activity_type: 16, duration: -1 },
			{ activity_type: 16, duration: 60, weight: 5 },
			{ duration: 60 },
		]) {
			const answer = await callApi(made.app, 'POST', '/api/_api/workout/calculate/calories/', { body });
			expect(answer.status, JSON.stringify(body)).toBe(400);
		}
	});
});

describe('activity types', () => {
	type Listed = {
		id: number;
		name: string;
		has_children: boolean;
		group: string;
		_links: Record<string, { id: string }[]>;
	};
	async function listAll() {
		const list = await callApi(made.app, 'GET', '/api/v7.1/activity_type/');
		expect(list.status).toBe(200);
		return { page: list.json, types: list.json._embedded.activity_types as Listed[] };
	}

	test('the list has about 1,200 types with name, has_children, group and self/parent/root links', async () => {
		const { page, types } = await listAll();
		expect(page.total_count).toBe(types.length);
		expect(types.length).toBeGreaterThan(1100);
		expect(types.length).toBeLessThan(1300);
		expect(page.attribution).toContain('2024 Adult Compendium of Physical Activities');
		expect(page.attribution).toContain('2011 Compendium of Physical Activities');
		const run = types.find((type) => type.id === 16);
		expect(run).toMatchObject({ name: 'Run', has_children: true, group: 'run' });
		expect(run?._links.parent).toBeUndefined();
		const trackRun = types.find((type) => type.id === 112180);
		expect(trackRun).toMatchObject({ has_children: false, group: 'run' });
		expect(trackRun?._links.parent[0].id).toBe('16');
		expect(trackRun?._links.root[0].id).toBe('16');
		const ids = new Set(types.map((type) => type.id));
		expect(ids.size).toBe(types.length);
	});

	test('every parent is listed, every root is a top-level type, and no two names repeat under one parent', async () => {
		const { types } = await listAll();
		const byId = new Map(types.map((type) => [type.id, type]));
		const names = new Set<string>();
		for (const type of types) {
			const parent = type._links.parent?.[0].id;
			const root = Number(type._links.root[0].id);
			if (parent) expect(byId.get(Number(parent))?.has_children, `${type.id}`).toBe(true);
			expect(byId.get(root)?._links.parent, `${type.id}`).toBeUndefined();
			const key = `${parent}:${type.name.toLowerCase()}`;
			expect(names.has(key), key).toBe(false);
			names.add(key);
		}
		// The outdoor roots the product names are top-level types with their activities under them.
		for (const id of [9, 11, 15, 16, 24]) {
			expect(byId.get(id)?._links.parent, `${id}`).toBeUndefined();
			expect(byId.get(id)?.has_children, `${id}`).toBe(true);
		}
		const ebike = types.find(
			(type) => type.name === 'E-bike (electrically assisted) with light electronic support',
		);
		expect(ebike).toMatchObject({ id: 201084, group: 'ride' });
		expect(ebike?._links.root[0].id).toBe('11');
	});

	test('every type first served keeps its id, name, parent and MET value', async () => {
		const first = JSON.parse(
			readFileSync(new URL('../../fixtures/activity-types/first-list.json', import.meta.url), 'utf8'),
		) as { types: [number, string, number | null, number | null, string | null][] };
		const { types } = await listAll();
		const byId = new Map(types.map((type) => [type.id, type]));
		expect(first.types).toHaveLength(638);
		for (const [id, name, parent, met, code] of first.types) {
			const type = byId.get(id);
			// Where the Compendium tells two activities apart only by a Taylor code, the name now carries it.
			expect(type?.name.startsWith(name), `${id}`).toBe(true);
			expect(type?._links.parent?.[0].id ?? null, `${id}`).toBe(parent === null ? null : String(parent));
			if (code) {
				const estimate = await callApi(
					made.app,
					'GET',
					`/api/_api/workout/calculate/calories/?activity_type=${id}&duration=3600&weight=70`,
				);
				expect(estimate.json, `${id}`).toMatchObject({
					met,
					compendium_code: code,
					compendium_edition: 2011,
				});
			}
		}
	});

	test('an item by id with and without the slash, paging, children of a parent, and 404 for an unknown id', async () => {
		for (const path of ['/api/v7.1/activity_type/78/', '/api/v7.1/activity_type/78']) {
			const yoga = await callApi(made.app, 'GET', path);
			expect(yoga.json).toMatchObject({ id: 78, name: 'Yoga', group: 'yoga', has_children: true });
		}
		const hatha = await callApi(made.app, 'GET', '/api/v7.1/activity_type/102150/');
		expect(hatha.json).toMatchObject({ name: 'Yoga, Hatha', group: 'yoga' });
		const page = await callApi(made.app, 'GET', '/api/v7.1/activity_type/?limit=10&offset=10');
		expect(page.json._embedded.activity_types).toHaveLength(10);
		expect(page.json._links.next[0].href).toContain('offset=20');
		const children = await callApi(made.app, 'GET', '/api/v7.1/activity_type/?parent=15');
		expect(
			children.json._embedded.activity_types.every((type: { name: string }) =>
				type.name.startsWith('Swimming'),
			),
		).toBe(true);
		expect(children.json.total_count).toBeGreaterThan(5);
		expect((await callApi(made.app, 'GET', '/api/v7.1/activity_type/5/')).status).toBe(404);
	});
});
