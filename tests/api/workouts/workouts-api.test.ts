import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
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

const create = (member: Member, body: Record<string, unknown>) =>
	callApi(made.app, 'POST', '/api/v7.1/workout/', { token: member.token, body });

describe('create, read, update, delete', () => {
	test('a logged workout comes back with its aggregates, HAL links, +00:00 datetimes and only-me privacy by default', async () => {
		const created = await create(alice, runPayload('Morning run'));
		expect(created.status).toBe(201);
		expect(created.headers.get('location')).toBe(`/api/v7.1/workout/${created.json.id}/`);
		expect(created.json).toMatchObject({
			name: 'Morning run',
			notes: 'Easy pace',
			start_datetime: '2026-05-01T07:30:00+00:00',
			start_locale_timezone: 'Europe/Ljubljana',
			activity_type: 16,
			privacy: 0,
			version: 1,
			has_time_series: false,
			aggregates: { distance_total: 5000, active_time_total: 1800, elapsed_time_total: 1850 },
			_links: {
				self: [{ href: `/v7.1/workout/${created.json.id}/`, id: String(created.json.id) }],
				user: [{ href: `/v7.1/user/${alice.id}/`, id: String(alice.id) }],
				activity_type: [{ href: '/v7.1/activity_type/16/', id: '16' }],
				privacy: [{ href: '/v7.1/privacy_option/0/', id: '0' }],
			},
		});
		expect(created.json.created_datetime).toMatch(/\+00:00$/);

		for (const path of [`/api/v7.1/workout/${created.json.id}/`, `/api/v7.1/workout/${created.json.id}`]) {
			const read = await callApi(made.app, 'GET', path, { token: alice.token });
			expect(read.status).toBe(200);
			expect(read.json.name).toBe('Morning run');
		}
	});

	test('activity type and privacy may be sent as HAL links, and a start with another offset is stored in UTC', async () => {
		const created = await create(alice, {
			...runPayload('Linked'),
			start_datetime: '2026-05-01T09:30:00+02:00',
			activity_type: '/v7.1/activity_type/11/',
			privacy: '/v7.1/privacy_option/3/',
		});
		expect(created.status).toBe(201);
		expect(created.json).toMatchObject({
			activity_type: 11,
			privacy: 3,
			start_datetime: '2026-05-01T07:30:00+00:00',
		});
	});

	test('a time series sent as JSON is stored and read back with field_set=time_series', async () => {
		const created = await create(alice, {
			...runPayload('With samples'),
			time_series: {
				position: [
					[0, { lat: 46.05, lng: 14.5, elevation: 295.3 }],
					[5, { lat: 46.0501, lng: 14.5002, elevation: 296 }],
				],
				heartrate: [
					[0, 120],
					[5, 131],
				],
			},
		});
		expect(created.status).toBe(201);
		expect(created.json.has_time_series).toBe(true);
		const read = await callApi(
			made.app,
			'GET',
			`/api/v7.1/workout/${created.json.id}/?field_set=time_series`,
			{
				token: alice.token,
			},
		);
		expect(read.json.time_series.position).toEqual([
			[0, { lat: 46.05, lng: 14.5, elevation: 295.3 }],
			[5, { lat: 46.0501, lng: 14.5002, elevation: 296 }],
		]);
		expect(read.json.time_series.heartrate).toEqual([
			[0, 120],
			[5, 131],
		]);
	});

	test('invalid input is a 400 naming the field, and nothing is stored', async () => {
		const cases = [
			{ ...runPayload('x'), name: 'bad\u0000name' },
			{ ...runPayload('x'), start_datetime: '2026-13-40T00:00:00Z' },
			{ ...runPayload('x'), start_locale_timezone: 'Mars/Olympus' },
			{ ...runPayload('x'), privacy: 6 },
			{ ...runPayload('x'), activity_type: 0 },
			{ ...runPayload('x'), activity_type: '/v7.1/route/16/' },
			{ ...runPayload('x'), aggregates: { distance_total: -1 } },
			{ ...runPayload('x'), owner: bob.id },
		];
		for (const body of cases) {
			const answer = await create(alice, body);
			expect(answer.status, JSON.stringify(body)).toBe(400);
			expect(answer.json._diagnostics.validation_failures.length).toBeGreaterThan(0);
		}
		const list = await callApi(made.app, 'GET', `/api/v7.1/workout/?user=${alice.id}`, {
			token: alice.token,
		});
		expect(list.json.total_count).toBe(0);
	});

	test('a visitor cannot create; only the owner updates or deletes, others get 404', async () => {
		expect((await callApi(made.app, 'POST', '/api/v7.1/workout/', { body: runPayload('anon') })).status).toBe(
			401,
		);
		const created = await create(alice, runPayload('Shared', { privacy: 3 }));
		const id = created.json.id;
		const put = await callApi(made.app, 'PUT', `/api/v7.1/workout/${id}/`, {
			token: bob.token,
			body: { name: 'Mine now' },
		});
		expect(put.status).toBe(404);
		const del = await callApi(made.app, 'DELETE', `/api/v7.1/workout/${id}`, { token: bob.token });
		expect(del.status).toBe(404);
		expect((await callApi(made.app, 'GET', `/api/v7.1/workout/${id}/`, { token: bob.token })).json.name).toBe(
			'Shared',
		);

		const renamed = await callApi(made.app, 'PUT', `/api/v7.1/workout/${id}/`, {
			token: alice.token,
			body: { name: 'Renamed', privacy: 1, aggregates: { distance_total: 5100 } },
		});
		expect(renamed.status).toBe(200);
		expect(renamed.json).toMatchObject({ name: 'Renamed', privacy: 1, version: 2, notes: 'Easy pace' });
		expect(renamed.json.aggregates.distance_total).toBe(5100);
		expect(renamed.json.aggregates.active_time_total).toBe(1800);

		expect(
			(await callApi(made.app, 'DELETE', `/api/v7.1/workout/${id}/`, { token: alice.token })).status,
		).toBe(204);
		expect((await callApi(made.app, 'GET', `/api/v7.1/workout/${id}/`, { token: alice.token })).status).toBe(
			404,
		);
	});

	test('a stale version answers 412 with both versions and changes nothing', async () => {
		const created = await create(alice, runPayload('Versioned'));
		const id = created.json.id;
		const first = await callApi(made.app, 'PUT', `/api/v7.1/workout/${id}/`, {
			token: alice.token,
			body: { name: 'First edit', version: 1 },
		});
		expect(first.status).toBe(200);
		const stale = await callApi(made.app, 'PUT', `/api/v7.1/workout/${id}/`, {
			token: alice.token,
			body: { name: 'Second edit', version: 1 },
		});
		expect(stale.status).toBe(412);
		expect(stale.json).toMatchObject({
			error: 'precondition_failed',
			sent_version: 1,
			current: { name: 'First edit', version: 2 },
		});
		const byHeader = await callApi(made.app, 'PUT', `/api/v7.1/workout/${id}/`, {
			token: alice.token,
			headers: { 'if-match': '"1"' },
			body: { name: 'Third edit' },
		});
		expect(byHeader.status).toBe(412);
		expect(byHeader.headers.get('etag')).toBe('"2"');
		const read = await callApi(made.app, 'GET', `/api/v7.1/workout/${id}/`, { token: alice.token });
		expect(read.json.name).toBe('First edit');
	});
});

describe('writes that try to take more than the member may', () => {
	test('fields the server owns are refused with 400 and ownership is unchanged', async () => {
		const created = await create(alice, runPayload('Mine'));
		for (const body of [
			{ owner_id: bob.id },
			{ user: bob.id },
			{ version: 1, id: 999 },
			{ content_hash: 'x' },
		]) {
			const put = await callApi(made.app, 'PUT', `/api/v7.1/workout/${created.json.id}/`, {
				token: alice.token,
				body,
			});
			expect(put.status, JSON.stringify(body)).toBe(400);
		}
		const read = await callApi(made.app, 'GET', `/api/v7.1/workout/${created.json.id}/`, {
			token: alice.token,
		});
		expect(read.json._links.user[0].id).toBe(String(alice.id));
		expect(read.json.version).toBe(1);
	});

	test('two saves of the same version at once: one 200, the other 412 with the saved copy', async () => {
		const created = await create(alice, runPayload('Two tabs'));
		const path = `/api/v7.1/workout/${created.json.id}/`;
		const answers = await Promise.all(
			['Tab A', 'Tab B'].map((name) =>
				callApi(made.app, 'PUT', path, { token: alice.token, body: { name, version: 1 } }),
			),
		);
		expect(answers.map((answer) => answer.status).sort()).toEqual([200, 412]);
		const saved = answers.find((answer) => answer.status === 200)?.json.name;
		const refused = answers.find((answer) => answer.status === 412);
		expect(refused?.json.current).toMatchObject({ name: saved, version: 2 });
	});
});

describe('lists', () => {
	test('pages by limit and offset with total_count and next/prev links, newest start first', async () => {
		for (let day = 1; day <= 5; day++)
			await create(alice, runPayload(`Run ${day}`, { start: `2026-05-0${day}T07:00:00+00:00` }));
		const first = await callApi(made.app, 'GET', `/api/v7.1/workout/?user=${alice.id}&limit=2`, {
			token: alice.token,
		});
		expect(first.json.total_count).toBe(5);
		expect(first.json._embedded.workouts.map((w: { name: string }) => w.name)).toEqual(['Run 5', 'Run 4']);
		expect(first.json._links.prev).toBeUndefined();
		const next = first.json._links.next[0].href as string;
		expect(next).toContain('offset=2');
		const second = await callApi(made.app, 'GET', `/api${next}`, { token: alice.token });
		expect(second.json._embedded.workouts.map((w: { name: string }) => w.name)).toEqual(['Run 3', 'Run 2']);
		expect(second.json._links.prev[0].href).toContain('offset=0');
		const last = await callApi(made.app, 'GET', `/api${second.json._links.next[0].href}`, {
			token: alice.token,
		});
		expect(last.json._embedded.workouts.map((w: { name: string }) => w.name)).toEqual(['Run 1']);
		expect(last.json._links.next).toBeUndefined();
	});

	test('a member’s own total_count, kept by the database, follows every create, edit and delete', async () => {
		const total = async (who: Member, query = '') =>
			(await callApi(made.app, 'GET', `/api/v7.1/workout/?user=${alice.id}${query}`, { token: who.token }))
				.json.total_count;
		expect(await total(alice)).toBe(0);
		const ids: number[] = [];
		for (const privacy of [0, 3, 3] as const) {
			const made_ = await create(alice, runPayload(`Run ${privacy}`, { privacy }));
			ids.push(made_.json.id as number);
		}
		await create(bob, runPayload('Bob run'));
		expect(await total(alice)).toBe(3);
		// Others, and filtered lists, count what they may see.
		expect(await total(bob)).toBe(2);
		expect(await total(alice, '&activity_type=16')).toBe(3);
		expect(await total(alice, '&activity_type=11')).toBe(0);

		const renamed = await callApi(made.app, 'PUT', `/api/v7.1/workout/${ids[0]}/`, {
			token: alice.token,
			body: runPayload('Renamed', { privacy: 0 }),
		});
		expect(renamed.status).toBe(200);
		expect(await total(alice)).toBe(3);
		expect(
			(await callApi(made.app, 'DELETE', `/api/v7.1/workout/${ids[1]}`, { token: alice.token })).status,
		).toBe(204);
		expect(await total(alice)).toBe(2);
		expect(await total(bob)).toBe(1);
	});

	test('a workout sent again with its Idempotency-Key is answered, not stored twice', async () => {
		const send = (body: Record<string, unknown>, key: string) =>
			callApi(made.app, 'POST', '/api/v7.1/workout/', {
				token: alice.token,
				body,
				headers: { 'idempotency-key': key },
			});
		const first = await send(runPayload('Morning run'), 'manual-run-0001');
		expect(first.status).toBe(201);
		const again = await send(runPayload('Morning run'), 'manual-run-0001');
		expect(again.status).toBe(201);
		expect(again.json.id).toBe(first.json.id);
		const reused = await send(runPayload('Evening run'), 'manual-run-0001');
		expect(reused.status).toBe(422);
		expect(reused.json.error).toBe('idempotency_key_reused');
		// Hand-logged workouts have no recording to tell copies apart: without a key, each send is one.
		expect((await create(alice, runPayload('Morning run'))).status).toBe(201);
		const list = await callApi(made.app, 'GET', '/api/v7.1/workout/', { token: alice.token });
		expect(list.json.total_count).toBe(2);
	});

	test('started_after and started_before bound the start', async () => {
		for (let day = 1; day <= 5; day++)
			await create(alice, runPayload(`Run ${day}`, { start: `2026-05-0${day}T07:00:00+00:00` }));
		const window = await callApi(
			made.app,
			'GET',
			`/api/v7.1/workout/?user=${alice.id}&started_after=2026-05-02T00:00:00%2B00:00&started_before=2026-05-04T07:00:00Z`,
			{ token: alice.token },
		);
		expect(window.json._embedded.workouts.map((w: { name: string }) => w.name)).toEqual(['Run 3', 'Run 2']);
		expect(window.json.total_count).toBe(2);
		expect((await callApi(made.app, 'GET', '/api/v7.1/workout/?started_after=yesterday')).status).toBe(400);
	});

	test('without user a member lists their own workouts and a visitor must name a member', async () => {
		await create(alice, runPayload('Alice public', { privacy: 3 }));
		await create(bob, runPayload('Bob public', { privacy: 3 }));
		const own = await callApi(made.app, 'GET', '/api/v7.1/workout', { token: bob.token });
		expect(own.json._embedded.workouts.map((w: { name: string }) => w.name)).toEqual(['Bob public']);
		const visitor = await callApi(made.app, 'GET', '/api/v7.1/workout/');
		expect(visitor.status).toBe(400);
		expect(visitor.json._diagnostics.validation_failures).toEqual([
			{ user: ['user is required when not signed in.'] },
		]);
	});
});

describe('privacy: owner, friend, stranger, visitor', () => {
	const MAY_VIEW = { owner: [0, 1, 3], friend: [1, 3], pending: [3], stranger: [3], visitor: [3] } as const;

	test('exactly the allowed cells see the detail; the others get 404 and lists leave the workout out', async () => {
		const friend = await addMember(made.deps, 'friend');
		const pending = await addMember(made.deps, 'pending');
		await befriend(made.deps, friend, alice, 'active');
		await befriend(made.deps, alice, pending, 'pending');
		const ids: Record<number, number> = {};
		for (const privacy of [0, 1, 3] as const) {
			ids[privacy] = (await create(alice, runPayload(`Privacy ${privacy}`, { privacy }))).json.id;
		}
		const viewers = { owner: alice, friend, pending, stranger: bob, visitor: undefined };
		for (const [kind, member] of Object.entries(viewers)) {
			const allowed: readonly number[] = MAY_VIEW[kind as keyof typeof MAY_VIEW];
			for (const privacy of [0, 1, 3]) {
				const detail = await callApi(made.app, 'GET', `/api/v7.1/workout/${ids[privacy]}/`, {
					token: member?.token,
				});
				expect(detail.status, `${kind} on privacy ${privacy}`).toBe(allowed.includes(privacy) ? 200 : 404);
				if (!allowed.includes(privacy)) expect(detail.text).not.toContain('Privacy');
			}
			const list = await callApi(made.app, 'GET', `/api/v7.1/workout/?user=${alice.id}`, {
				token: member?.token,
			});
			expect(list.json._embedded.workouts.map((w: { id: number }) => w.id).sort(), kind).toEqual(
				allowed.map((privacy) => ids[privacy]).sort(),
			);
			expect(list.json.total_count).toBe(allowed.length);
		}
	});

	test('the attribution is shown to the owner only, and only known values are taken', async () => {
		const created = await create(alice, {
			...runPayload('Footpod run', { privacy: 3 }),
			attribution: 'gait_coaching',
		});
		expect(created.json.attribution).toBe('gait_coaching');
		const path = `/api/v7.1/workout/${created.json.id}/`;
		expect((await callApi(made.app, 'GET', path, { token: alice.token })).json.attribution).toBe(
			'gait_coaching',
		);
		const forBob = await callApi(made.app, 'GET', path, { token: bob.token });
		expect(forBob.status).toBe(200);
		expect(forBob.json.attribution).toBeUndefined();
		expect(forBob.text).not.toContain('gait_coaching');
		const list = await callApi(made.app, 'GET', `/api/v7.1/workout/?user=${alice.id}`);
		expect(list.text).not.toContain('gait_coaching');
		expect((await create(alice, { ...runPayload('x'), attribution: 'garmin' })).status).toBe(400);
	});

	test("a new workout takes the member's chosen default privacy", async () => {
		const { users } = await import('../../../src/lib/auth/server/tables');
		const { eq } = await import('drizzle-orm');
		await made.deps.db.update(users).set({ workoutPrivacy: 1 }).where(eq(users.id, alice.id));
		expect((await create(alice, runPayload('Default'))).json.privacy).toBe(1);
	});
});
