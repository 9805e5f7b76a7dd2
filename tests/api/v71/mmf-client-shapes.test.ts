import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createAccountApi } from '../../../src/lib/account/server/api';
import { createLocationPrivacyApi } from '../../../src/lib/account/server/location-privacy';
import { createDeviceCloudsApi } from '../../../src/lib/connected-apps/server/device-api';
import {
	finishDeviceConnect,
	startDeviceConnect,
	syncDeviceConnection,
} from '../../../src/lib/connected-apps/server/device-sync';
import { grantTestCloudCode, TEST_CLOUD_KEY } from '../../../src/lib/connected-apps/server/test-cloud';
import { createGearApi } from '../../../src/lib/gear/server/api';
import { createGoalsApi } from '../../../src/lib/goals/server/api';
import { createRoutesApi } from '../../../src/lib/routes/server/api';
import { createSocialApi } from '../../../src/lib/social/server/api';
import { createStatsApi } from '../../../src/lib/stats/server/api';
import { createWorkoutsApi } from '../../../src/lib/workouts/server/api';
import { callApi, createTestApi, createTestClock, createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { addMember, linePayload, type Member } from '../routes/helpers';

/**
 * The v7.1 API driven with bodies shaped as MapMyFitness clients build them: from what they read,
 * so every reference travels in `_links` as `[{href, id}]` (often next to the plain field), the
 * server's own figures come back as echoes, and a workout repeats its aggregates at the top level.
 */

let database: TestDatabase;
let deps: ReturnType<typeof createTestDeps>;
let app: ReturnType<typeof createTestApi>;
let alice: Member;
let bob: Member;

beforeAll(async () => {
	database = await openTestDb();
});
beforeEach(async () => {
	await database.reset();
	deps = createTestDeps(database.db, { clock: createTestClock(new Date('2026-11-25T09:00:00.250Z')) });
	app = createTestApi(deps, {
		routes: [
			createRoutesApi(),
			createWorkoutsApi(),
			createSocialApi(),
			createGoalsApi(),
			createAccountApi(),
			createLocationPrivacyApi(),
			createStatsApi(),
			createGearApi(),
			createDeviceCloudsApi(),
		],
	});
	alice = await addMember(deps, 'alice');
	bob = await addMember(deps, 'bob');
});
afterAll(() => database.close());

const api = (method: string, path: string, token?: string, body?: unknown) =>
	callApi(app, method, path, { token, body });
const link = (kind: string, id: number | string) => [{ href: `/v7.1/${kind}/${id}/`, id: String(id) }];
/** The one validation failure's field names, as `_diagnostics` lists them. */
const failedFields = (answer: { json: { _diagnostics?: { validation_failures: object[] } } }) =>
	(answer.json._diagnostics?.validation_failures ?? []).flatMap((failure) => Object.keys(failure));

/** A route as a MapMyFitness client saves it: privacy and activity type only as links, read-only figures echoed. */
function clientRoute(owner: Member, name = 'Riverfront loop') {
	const { privacy: _privacy, activity_type: _activityType, ...plain } = linePayload(name, { km: 3 });
	return {
		...plain,
		description: '',
		distance: 3000.4,
		total_distance: 3000.4,
		total_ascent: 0,
		starting_location: { type: 'Point', coordinates: [-76.88, 40.27] },
		created_datetime: '2026-11-20T08:00:00+00:00',
		_links: {
			privacy: link('privacy_option', 3),
			activity_types: link('activity_type', 16),
			user: link('user', owner.id),
		},
	};
}

/** A workout as a MapMyFitness client logs it: references as links, the aggregates also at the top level. */
function clientWorkout(owner: Member, overrides: Record<string, unknown> = {}) {
	return {
		name: 'Morning run',
		start_datetime: '2026-11-20T07:30:00+00:00',
		start_locale_timezone: 'Europe/Ljubljana',
		source: 'MapMyRun iPhone',
		aggregates: {
			active_time_total: 1800,
			elapsed_time_total: 1850,
			distance_total: 5100,
			metabolic_energy_total: 1_464_400,
			speed_avg: 2.8333333,
			heartrate_avg: 151,
		},
		active_time_total: 1800,
		elapsed_time_total: 1850,
		distance_total: 5100,
		metabolic_energy_total: 1_464_400,
		speed_avg: 2.8333,
		heartrate_avg: 151,
		_links: {
			activity_type: link('activity_type', 16),
			privacy: link('privacy_option', 1),
			user: link('user', owner.id),
		},
		...overrides,
	};
}

describe('routes', () => {
	test('a route saved with _links and echoed figures is created with the linked privacy and activity type', async () => {
		const created = await api('POST', '/api/v7.1/route/', alice.token, clientRoute(alice));
		expect(created.status).toBe(201);
		expect(created.json).toMatchObject({ privacy: 3, activity_type: 16 });
		// The distance is measured here, whatever was echoed.
		expect(created.json.distance).not.toBe(3000.4);

		const read = await api('GET', `/api/v7.1/route/${created.json.id}/`, bob.token);
		expect(read.status).toBe(200);
		expect(read.json._links).toMatchObject({
			user: link('user', alice.id),
			privacy: link('privacy_option', 3),
			activity_types: link('activity_type', 16),
		});
	});

	test('a PUT of what was read, links and all, saves the change', async () => {
		const created = await api('POST', '/api/v7.1/route/', alice.token, clientRoute(alice));
		const { points, _links, starting_location, distance, total_ascent, created_datetime, version } =
			created.json;
		const put = await api('PUT', `/api/v7.1/route/${created.json.id}/`, alice.token, {
			name: 'Riverfront loop, reversed',
			version,
			points,
			starting_location,
			distance,
			total_ascent,
			created_datetime,
			_links: { ..._links, privacy: link('privacy_option', 1) },
		});
		expect(put.status).toBe(200);
		expect(put.json).toMatchObject({ name: 'Riverfront loop, reversed', privacy: 1, activity_type: 16 });
	});

	test('a foreign _links.user is refused, and so is a link that disagrees with its plain field', async () => {
		const asBob = await api('POST', '/api/v7.1/route/', alice.token, {
			...clientRoute(alice),
			_links: { ...clientRoute(alice)._links, user: link('user', bob.id) },
		});
		expect(asBob.status).toBe(403);
		expect(failedFields(asBob)).toEqual(['_links.user']);

		const twoPrivacies = await api('POST', '/api/v7.1/route/', alice.token, {
			...clientRoute(alice),
			privacy: 0,
		});
		expect(twoPrivacies.status).toBe(400);
		expect(failedFields(twoPrivacies)).toEqual(['privacy']);

		const agreeing = await api('POST', '/api/v7.1/route/', alice.token, {
			...clientRoute(alice),
			privacy: 3,
			activity_type: 16,
		});
		expect(agreeing.status).toBe(201);

		const created = await api('POST', '/api/v7.1/route/', alice.token, clientRoute(alice));
		const putAsBob = await api('PUT', `/api/v7.1/route/${created.json.id}/`, alice.token, {
			...clientRoute(alice),
			_links: { user: link('user', bob.id) },
		});
		expect(putAsBob.status).toBe(403);
		expect((await api('GET', `/api/v7.1/route/?user=${bob.id}`, bob.token)).json.total_count).toBe(0);

		// Anything else stays refused: an unknown link, an unknown key, a link to the wrong kind.
		for (const body of [
			{ ...clientRoute(alice), _links: { ...clientRoute(alice)._links, owner: link('user', alice.id) } },
			{ ...clientRoute(alice), owner_id: alice.id },
			{ ...clientRoute(alice), _links: { privacy: link('activity_type', 3) } },
			{ ...clientRoute(alice), _links: { privacy: [{ id: '2' }] } },
		]) {
			const answer = await api('POST', '/api/v7.1/route/', alice.token, body);
			expect(answer.status).toBe(400);
			expect(failedFields(answer).length).toBeGreaterThan(0);
		}
	});
});

describe('workouts', () => {
	test('a workout with its aggregates repeated at the top level is created and reads back once', async () => {
		const created = await api('POST', '/api/v7.1/workout/', alice.token, clientWorkout(alice));
		expect(created.status).toBe(201);
		const read = await api('GET', `/api/v7.1/workout/${created.json.id}/`, alice.token);
		expect(read.json).toMatchObject({ activity_type: 16, privacy: 1, source: 'MapMyRun iPhone' });
		expect(read.json.aggregates).toMatchObject({
			active_time_total: 1800,
			elapsed_time_total: 1850,
			distance_total: 5100,
			heartrate_avg: 151,
		});
		expect(read.json.aggregates.speed_avg).toBeCloseTo(2.8333333, 6);
		expect(read.json.distance_total).toBeUndefined();
		expect(read.json._links).toMatchObject({
			user: link('user', alice.id),
			activity_type: link('activity_type', 16),
			privacy: link('privacy_option', 1),
		});

		// Only the top-level copies: they become the aggregates.
		const { aggregates: _aggregates, ...topLevelOnly } = clientWorkout(alice);
		const flat = await api('POST', '/api/v7.1/workout/', alice.token, topLevelOnly);
		expect(flat.status).toBe(201);
		expect(flat.json.aggregates).toMatchObject({ distance_total: 5100, active_time_total: 1800 });
	});

	test('a top-level aggregate that disagrees is refused, naming the field', async () => {
		const answer = await api(
			'POST',
			'/api/v7.1/workout/',
			alice.token,
			clientWorkout(alice, { speed_avg: 3.1 }),
		);
		expect(answer.status).toBe(400);
		expect(failedFields(answer)).toEqual(['speed_avg']);
		expect((await api('GET', '/api/v7.1/workout/', alice.token)).json.total_count).toBe(0);
	});

	test('a foreign _links.user is refused; a PUT of what was read, links and all, saves the change', async () => {
		const asBob = await api(
			'POST',
			'/api/v7.1/workout/',
			alice.token,
			clientWorkout(alice, {
				_links: { activity_type: link('activity_type', 16), user: link('user', bob.id) },
			}),
		);
		expect(asBob.status).toBe(403);
		expect(failedFields(asBob)).toEqual(['_links.user']);

		const created = await api('POST', '/api/v7.1/workout/', alice.token, clientWorkout(alice));
		const put = await api('PUT', `/api/v7.1/workout/${created.json.id}/`, alice.token, {
			name: 'Morning run, felt good',
			aggregates: created.json.aggregates,
			distance_total: created.json.aggregates.distance_total,
			created_datetime: created.json.created_datetime,
			_links: { ...created.json._links, privacy: link('privacy_option', 3) },
		});
		expect(put.status).toBe(200);
		expect(put.json).toMatchObject({ name: 'Morning run, felt good', privacy: 3 });
	});
});

describe('friendships, goals and bookmarks', () => {
	test('a friend request sent with _links is created, read back and accepted with its own links', async () => {
		const sent = await api('POST', '/api/v7.1/friendship/', alice.token, {
			_links: { from_user: link('user', alice.id), to_user: link('user', bob.id) },
		});
		expect(sent.status).toBe(201);
		const key = `${alice.id}_${bob.id}`;
		const read = await api('GET', `/api/v7.1/friendship/${key}/`, bob.token);
		expect(read.json).toMatchObject({
			status: 'pending',
			_links: {
				self: [{ href: `/v7.1/friendship/${key}/`, id: key }],
				from_user: link('user', alice.id),
				to_user: link('user', bob.id),
			},
		});
		const accepted = await api('PATCH', `/api/v7.1/friendship/${key}/`, bob.token, {
			status: 'active',
			_links: read.json._links,
		});
		expect(accepted.status).toBe(200);
		expect(accepted.json.status).toBe('active');
	});

	test('a friend request from someone else, or naming two members, is refused', async () => {
		const carol = await addMember(deps, 'carol');
		const forged = await api('POST', '/api/v7.1/friendship/', alice.token, {
			_links: { from_user: link('user', carol.id), to_user: link('user', bob.id) },
		});
		expect(forged.status).toBe(403);
		expect(failedFields(forged)).toEqual(['_links.from_user']);
		const twoTargets = await api('POST', '/api/v7.1/friendship/', alice.token, {
			to_user: carol.id,
			_links: { to_user: link('user', bob.id) },
		});
		expect(twoTargets.status).toBe(400);
		expect(failedFields(twoTargets)).toEqual(['to_user']);
	});

	test('a goal set with _links.user is created and reads back with its links; a foreign user is refused', async () => {
		const goal = {
			period: 'P1W',
			criteria: { threshold_metrics: { data_type_field: 'distance', value: 20_000 }, activity_group: 'run' },
		};
		const created = await api('POST', '/api/v7.1/user_goal/', alice.token, {
			...goal,
			_links: { user: link('user', alice.id) },
		});
		expect(created.status).toBe(201);
		const read = await api('GET', `/api/v7.1/user_goal/${created.json.id}/`, alice.token);
		expect(read.json).toMatchObject({
			status: 'active',
			_links: { self: link('user_goal', created.json.id), user: link('user', alice.id) },
		});

		const forged = await api('POST', '/api/v7.1/user_goal/', alice.token, {
			...goal,
			_links: { user: link('user', bob.id) },
		});
		expect(forged.status).toBe(403);
		expect(failedFields(forged)).toEqual(['_links.user']);

		const stopped = await api('PATCH', `/api/v7.1/user_goal/${created.json.id}/`, alice.token, {
			status: 'abandoned',
			_links: read.json._links,
		});
		expect(stopped.status).toBe(200);
		expect(stopped.json.status).toBe('abandoned');
	});

	test('a bookmark is made from _links or the plain route, and the two forms must agree', async () => {
		const route = await api('POST', '/api/v7.1/route/', bob.token, clientRoute(bob));
		const other = await api('POST', '/api/v7.1/route/', bob.token, clientRoute(bob, 'Hill repeats'));
		const made = await api('POST', '/api/v7.1/route_bookmark/', alice.token, {
			_links: { route: link('route', route.json.id), user: link('user', alice.id) },
		});
		expect(made.status).toBe(201);
		expect(made.json._links.route).toEqual(link('route', route.json.id));
		const plain = await api('POST', '/api/v7.1/route_bookmark/', alice.token, { route: other.json.id });
		expect(plain.status).toBe(201);
		const listed = await api('GET', '/api/v7.1/route_bookmark/', alice.token);
		expect(listed.json.total_count).toBe(2);

		const disagreeing = await api('POST', '/api/v7.1/route_bookmark/', alice.token, {
			route: other.json.id,
			_links: { route: link('route', route.json.id) },
		});
		expect(disagreeing.status).toBe(400);
		expect(failedFields(disagreeing)).toEqual(['route']);
		const forged = await api('POST', '/api/v7.1/route_bookmark/', alice.token, {
			_links: { route: link('route', route.json.id), user: link('user', bob.id) },
		});
		expect(forged.status).toBe(403);
	});

	test('likes, comments and profile edits take the caller’s own links', async () => {
		const workout = await api('POST', '/api/v7.1/workout/', alice.token, clientWorkout(alice));
		const comment = await api('POST', '/api/v7.1/activity_story/', alice.token, {
			verb: 'comment',
			parent_story_id: `workout_${workout.json.id}`,
			text: 'Felt strong',
			_links: { user: link('user', alice.id) },
		});
		expect(comment.status).toBe(201);
		expect(comment.json._links).toEqual({
			self: link('activity_story', comment.json.id),
			user: link('user', alice.id),
		});
		const forged = await api('POST', '/api/v7.1/activity_story/', alice.token, {
			verb: 'like',
			parent_story_id: `workout_${workout.json.id}`,
			_links: { user: link('user', bob.id) },
		});
		expect(forged.status).toBe(403);

		const self = await api('GET', '/api/v7.1/user/self/', alice.token);
		const edited = await api('PUT', `/api/v7.1/user/${alice.id}/`, alice.token, {
			first_name: 'Alice',
			_links: self.json._links,
		});
		expect(edited.status).toBe(200);
		const elsewhere = await api('PUT', `/api/v7.1/user/${alice.id}/`, alice.token, {
			first_name: 'Alice',
			_links: { self: link('user', bob.id) },
		});
		expect(elsewhere.status).toBe(400);
		expect(failedFields(elsewhere)).toEqual(['_links.self']);
	});
});

/** An ISO datetime written with `Z`, or with fractions of a second: neither parses with the clients' fixed format. */
const NOT_MMF_DATETIME =
	/"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?(\.\d+)?Z"|"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d+[+-]\d{2}:\d{2}"/;
const MMF_DATETIME = /"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00"/;

describe('datetimes', () => {
	test('every v7.1 resource writes its datetimes as +00:00 with whole seconds, never Z', async () => {
		// Plain bodies: this is about the answers, whatever form the writes take.
		const route = await api('POST', '/api/v7.1/route/', alice.token, linePayload('Riverfront loop'));
		const { _links: _workoutLinks, ...workoutFields } = clientWorkout(alice);
		const workout = await api('POST', '/api/v7.1/workout/', alice.token, {
			...Object.fromEntries(
				Object.entries(workoutFields).filter(
					([key]) => key === 'aggregates' || (!key.endsWith('_total') && !key.endsWith('_avg')),
				),
			),
			activity_type: 16,
		});
		const goal = await api('POST', '/api/v7.1/user_goal/', alice.token, {
			period: 'P1W',
			criteria: { threshold_metrics: { data_type_field: 'distance', value: 20_000 } },
		});
		const friendship = await api('POST', '/api/v7.1/friendship/', alice.token, { to_user: bob.id });
		const bookmark = await api('POST', '/api/v7.1/route_bookmark/', alice.token, { route: route.json.id });
		const gear = await api('POST', '/api/v7.1/usergear/', alice.token, {
			nickname: 'Trail shoes',
			kind: 'shoes',
		});
		const sent = new URL(await startDeviceConnect(deps, alice.id, TEST_CLOUD_KEY), 'http://localhost');
		const code = await grantTestCloudCode(deps, alice.id, {
			redirectUri: sent.searchParams.get('redirect_uri') as string,
			codeChallenge: sent.searchParams.get('code_challenge') as string,
		});
		const { connectionId } = await finishDeviceConnect(deps, alice.id, {
			state: sent.searchParams.get('state') as string,
			code,
		});
		await syncDeviceConnection(deps, connectionId);
		const zone = await api('POST', '/api/v7.1/privacy_zone/', alice.token, {
			name: 'Home',
			lat: 40.27,
			lng: -76.88,
			radius: 400,
		});
		const preference = await api('POST', '/api/v7.1/promotional_preference/', alice.token, {
			choice: false,
			_links: { user: link('user', alice.id) },
		});

		const answers = {
			route,
			workout,
			goal,
			friendship,
			bookmark,
			gear,
			routeItem: await api('GET', `/api/v7.1/route/${route.json.id}/`, alice.token),
			routeList: await api('GET', `/api/v7.1/route/?user=${alice.id}`, alice.token),
			workoutItem: await api('GET', `/api/v7.1/workout/${workout.json.id}/`, alice.token),
			workoutList: await api('GET', '/api/v7.1/workout/', alice.token),
			goalList: await api('GET', '/api/v7.1/user_goal/', alice.token),
			goalProgress: await api('GET', '/api/v7.1/user_goal_progress/', alice.token),
			friendshipList: await api('GET', `/api/v7.1/friendship/?from_user=${alice.id}`, alice.token),
			bookmarkList: await api('GET', '/api/v7.1/route_bookmark/', alice.token),
			feed: await api('GET', '/api/v7.1/activity_story/', alice.token),
			self: await api('GET', '/api/v7.1/user/self/', alice.token),
			user: await api('GET', `/api/v7.1/user/${alice.id}/`, alice.token),
			heartRateZones: await api('GET', `/api/v7.1/heart_rate_zones/?user=${alice.id}`, alice.token),
			gearList: await api('GET', '/api/v7.1/usergear/', alice.token),
			records: await api('GET', '/api/v7.1/personal_records/', alice.token),
			remoteConnections: await api('GET', '/api/v7.1/remoteconnection/', alice.token),
			zone,
			preference,
			zoneList: await api('GET', '/api/v7.1/privacy_zone/', alice.token),
			stats: await api('GET', '/api/v7.1/workout_stats/', alice.token),
			calendar: await api('GET', '/api/v7.1/workout_calendar/?month=2026-11', alice.token),
			lifetime: await api('GET', '/api/v7.1/workout_lifetime/', alice.token),
			notifications: await api('GET', '/api/v7.1/notification/', bob.token),
		};
		for (const [resource, answer] of Object.entries(answers)) {
			expect(answer.status, `${resource}: ${answer.text}`).toBeLessThan(300);
			expect(answer.text, resource).not.toMatch(NOT_MMF_DATETIME);
		}
		// The scan would pass on answers without datetimes; these carry them.
		for (const resource of [
			'route',
			'workout',
			'goal',
			'goalProgress',
			'bookmark',
			'records',
			'remoteConnections',
		])
			expect(answers[resource as keyof typeof answers].text, resource).toMatch(MMF_DATETIME);
	});
});
