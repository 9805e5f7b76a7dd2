import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createAccountApi } from '../../../src/lib/account/server/api';
import { users } from '../../../src/lib/auth/server/tables';
import { createRoutesApi } from '../../../src/lib/routes/server/api';
import { createSocialApi } from '../../../src/lib/social/server/api';
import { closeSharedParsePool } from '../../../src/lib/workout-files/server/parse-pool';
import { createWorkoutsApi } from '../../../src/lib/workouts/server/api';
import { createWorkoutDetailApi } from '../../../src/lib/workouts/server/detail-api';
import { callApi, createTestApi, createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { runGpx } from '../../helpers/run-gpx';
import { addMember, linePayload, type Member } from './helpers';

/**
 * A block hides each member's workouts, routes and profile from the other, signed in, in every
 * representation, and answers "not found" as if they did not exist; unblocking gives them back.
 */
let database: TestDatabase;
let deps: ReturnType<typeof createTestDeps>;
let app: ReturnType<typeof createTestApi>;

type Belongings = {
	member: Member;
	workoutId: number;
	routeId: number;
	linkRouteId: number;
	linkToken: string;
};

beforeAll(async () => {
	database = await openTestDb();
	deps = createTestDeps(database.db);
	app = createTestApi(deps, {
		routes: [
			createSocialApi(),
			createWorkoutsApi(),
			createWorkoutDetailApi(),
			createRoutesApi(),
			createAccountApi(),
		],
	});
});
afterAll(async () => {
	await closeSharedParsePool();
	await database.close();
});

/** A member with a public profile, a public recorded run, a public route and a link-only route. */
async function memberWithPublicThings(username: string): Promise<Belongings> {
	const member = await addMember(deps, username);
	await deps.db.update(users).set({ profilePrivacy: 3 }).where(eq(users.id, member.id));
	const form = new FormData();
	form.append('file', new Blob([runGpx({ minutes: 10, mps: 3, name: `${username} run` })]), 'run.gpx');
	const imported = await app.request('/api/v7.1/device/file_import/?privacy=3', {
		method: 'POST',
		headers: { authorization: `Bearer ${member.token}` },
		body: form,
	});
	expect(imported.status).toBe(201);
	const workoutId = ((await imported.json()) as { id: number }).id;
	const route = await callApi(app, 'POST', '/api/v7.1/route/', {
		token: member.token,
		body: linePayload(`${username} loop`, { privacy: 3 }),
	});
	expect(route.status).toBe(201);
	const linkRoute = await callApi(app, 'POST', '/api/v7.1/route/', {
		token: member.token,
		body: linePayload(`${username} secret`, { privacy: 6 }),
	});
	expect(linkRoute.status).toBe(201);
	const owned = await callApi(app, 'GET', `/api/v7.1/route/${linkRoute.json.id}/`, { token: member.token });
	return {
		member,
		workoutId,
		routeId: route.json.id,
		linkRouteId: linkRoute.json.id,
		linkToken: owned.json.share_token,
	};
}

/** The status of each representation of `owner`'s things as `viewer` reads them (no token: signed out). */
async function readsOf(owner: Belongings, viewer: Member | null): Promise<Record<string, number | string>> {
	const token = viewer?.token;
	const status = async (path: string) => (await callApi(app, 'GET', path, { token })).status;
	const workoutList = await callApi(app, 'GET', `/api/v7.1/workout/?user=${owner.member.id}`, { token });
	const routeList = await callApi(app, 'GET', `/api/v7.1/route/?user=${owner.member.id}`, { token });
	const stats = await callApi(app, 'GET', `/api/v7.1/user_stats/${owner.member.id}/`, { token });
	return {
		workout: await status(`/api/v7.1/workout/${owner.workoutId}/`),
		workoutGpx: await status(`/api/v7.1/workout/${owner.workoutId}/export/?format=gpx`),
		workoutTcx: await status(`/api/v7.1/workout/${owner.workoutId}/export/?format=tcx`),
		workoutFit: await status(`/api/v7.1/workout/${owner.workoutId}/export/?format=fit`),
		workoutList: workoutList.status === 200 ? `${workoutList.json.total_count} workouts` : workoutList.status,
		route: await status(`/api/v7.1/route/${owner.routeId}/`),
		routeGpx: await status(`/api/v7.1/route/${owner.routeId}/gpx/`),
		linkRoute: await status(
			`/api/v7.1/route/${owner.linkRouteId}/?token=${encodeURIComponent(owner.linkToken)}`,
		),
		routeList: routeList.status === 200 ? `${routeList.json.total_count} routes` : routeList.status,
		profile: await status(`/api/v7.1/user/${owner.member.id}/`),
		stats: stats.status === 200 ? `${stats.json._embedded.stats.length} activity totals` : stats.status,
	};
}

const VISIBLE = {
	workout: 200,
	workoutGpx: 200,
	workoutTcx: 200,
	workoutFit: 200,
	workoutList: '1 workouts',
	route: 200,
	routeGpx: 200,
	linkRoute: 200,
	routeList: '1 routes',
	profile: 200,
	stats: '1 activity totals',
};
const HIDDEN = {
	workout: 404,
	workoutGpx: 404,
	workoutTcx: 404,
	workoutFit: 404,
	workoutList: '0 workouts',
	route: 404,
	routeGpx: 404,
	linkRoute: 404,
	routeList: '0 routes',
	profile: 404,
	stats: '0 activity totals',
};

describe('a block hides everything, both ways', () => {
	let a: Belongings;
	let c: Belongings;
	let bystander: Member;
	beforeAll(async () => {
		a = await memberWithPublicThings('block-a');
		c = await memberWithPublicThings('block-c');
		bystander = await addMember(deps, 'block-bystander');
	});

	test('before any block, each reads the other’s public things', async () => {
		expect(await readsOf(a, c.member)).toEqual(VISIBLE);
		expect(await readsOf(c, a.member)).toEqual(VISIBLE);
	});

	test('after A blocks C, each gets 404 for the other’s things; others and signed-out visitors still read them', async () => {
		const blocked = await callApi(app, 'POST', '/api/v7.1/block/', {
			token: a.member.token,
			body: { user: c.member.id },
		});
		expect(blocked.status).toBe(204);
		expect(await readsOf(a, c.member)).toEqual(HIDDEN);
		expect(await readsOf(c, a.member)).toEqual(HIDDEN);
		// The 404 is the one a missing workout gets, so it does not reveal the block.
		const hidden = await callApi(app, 'GET', `/api/v7.1/workout/${a.workoutId}/`, { token: c.member.token });
		const missing = await callApi(app, 'GET', '/api/v7.1/workout/999999/', { token: c.member.token });
		expect(hidden.json).toEqual(missing.json);
		// Each still reads their own, and a block does nothing for anyone else or signed-out visitors.
		expect(await readsOf(a, a.member)).toEqual({ ...VISIBLE, routeList: '2 routes' });
		expect(await readsOf(a, bystander)).toEqual(VISIBLE);
		expect(await readsOf(c, null)).toMatchObject({ workout: 200, route: 200, profile: 200 });
	});

	test('after A unblocks C, access returns; C blocking A hides both ways until C unblocks', async () => {
		const unblock = (by: Member, other: Member) =>
			callApi(app, 'DELETE', `/api/v7.1/block/${other.id}/`, { token: by.token });
		expect((await unblock(a.member, c.member)).status).toBe(204);
		expect(await readsOf(a, c.member)).toEqual(VISIBLE);
		expect(await readsOf(c, a.member)).toEqual(VISIBLE);

		const blocked = await callApi(app, 'POST', '/api/v7.1/block/', {
			token: c.member.token,
			body: { user: a.member.id },
		});
		expect(blocked.status).toBe(204);
		expect(await readsOf(a, c.member)).toEqual(HIDDEN);
		expect(await readsOf(c, a.member)).toEqual(HIDDEN);
		expect((await unblock(c.member, a.member)).status).toBe(204);
		expect(await readsOf(a, c.member)).toEqual(VISIBLE);
		expect(await readsOf(c, a.member)).toEqual(VISIBLE);
	});
});
