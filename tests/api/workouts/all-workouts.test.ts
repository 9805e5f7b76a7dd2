import { afterAll, beforeAll, expect, test } from 'vitest';
import { callApi } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { addMember, createWorkoutsTestApp, type Member, runPayload } from './helpers';

let database: TestDatabase;
let made: ReturnType<typeof createWorkoutsTestApp>;
let owner: Member;
let other: Member;

beforeAll(async () => {
	database = await openTestDb();
	made = createWorkoutsTestApp(database);
	owner = await addMember(made.deps, 'owner');
	other = await addMember(made.deps, 'other');
	const save = async (
		member: Member,
		name: string,
		start: string,
		activity_type: number,
		privacy: 0 | 3 = 0,
	) => {
		const answer = await callApi(made.app, 'POST', '/api/v7.1/workout/', {
			token: member.token,
			body: runPayload(name, { start, activity_type, privacy }),
		});
		expect(answer.status).toBe(201);
	};
	await save(owner, 'March run', '2026-03-02T07:00:00+00:00', 16);
	await save(owner, 'April walk', '2026-04-10T18:00:00+00:00', 9, 3);
	await save(owner, 'May ride', '2026-05-20T09:00:00+00:00', 11);
	await save(owner, 'May run', '2026-05-21T06:00:00+00:00', 16);
	await save(other, 'Public run of another member', '2026-04-11T07:00:00+00:00', 16, 3);
});
afterAll(() => database.close());

const all = (query: string, token?: string) =>
	callApi(made.app, 'GET', `/api/internal/allWorkouts/${query}`, { token: token ?? owner.token });
const names = (answer: Awaited<ReturnType<typeof all>>) =>
	(answer.json._embedded.workouts as { name: string }[]).map((workout) => workout.name);

test('a member gets all of their own workouts, oldest first, and nobody else’s', async () => {
	const answer = await all('');
	expect(answer.status).toBe(200);
	expect(names(answer)).toEqual(['March run', 'April walk', 'May ride', 'May run']);
	expect(answer.json.total_count).toBe(4);
	expect(answer.json._embedded.workouts[0]).toMatchObject({
		start_datetime: '2026-03-02T07:00:00+00:00',
		activity_type: 16,
		privacy: 0,
		has_time_series: false,
		aggregates: { distance_total: 5000, active_time_total: 1800 },
	});
	expect(names(await all('', other.token))).toEqual(['Public run of another member']);
	expect((await callApi(made.app, 'GET', '/api/internal/allWorkouts/')).status).toBe(401);
	expect((await callApi(made.app, 'GET', '/api/internal/allWorkouts', { token: owner.token })).status).toBe(
		200,
	);
});

test('All Activities, No Activities and chosen types filter as the selector offers them', async () => {
	expect(names(await all('?activity_types=all'))).toHaveLength(4);
	const none = await all('?activity_types=none');
	expect(none.json).toMatchObject({ total_count: 0, _embedded: { workouts: [] } });
	expect(names(await all('?activity_types=16'))).toEqual(['March run', 'May run']);
	expect(names(await all('?activity_types=9,11,9'))).toEqual(['April walk', 'May ride']);
	expect(names(await all('?activity_types=24'))).toEqual([]);
});

test('a time window and pages with a next link', async () => {
	const may = await all('?started_after=2026-05-01T00:00:00%2B00:00&started_before=2026-06-01T00:00:00Z');
	expect(names(may)).toEqual(['May ride', 'May run']);
	const first = await all('?limit=3');
	expect(names(first)).toHaveLength(3);
	const next = first.json._links.next[0].href as string;
	expect(next).toContain('offset=3');
	expect(names(await callApi(made.app, 'GET', `/api${next}`, { token: owner.token }))).toEqual(['May run']);
});

test('malformed filters get a 400 naming the parameter', async () => {
	for (const query of [
		'?activity_types=runs',
		'?activity_types=all,16',
		'?activity_types=%00',
		`?activity_types=${Array.from({ length: 51 }, (_, i) => i + 1).join(',')}`,
		'?limit=0',
		'?limit=10001',
		'?started_after=yesterday',
	]) {
		const answer = await all(query);
		expect(answer.status, query).toBe(400);
	}
});
