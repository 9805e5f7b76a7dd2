import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { AppScope } from '../../../src/lib/connected-apps/contract';
import { findAppEndpoint } from '../../../src/lib/connected-apps/server/scopes';
import {
	deleteDeveloperApp,
	listAppDataAccess,
	listConnectedApps,
} from '../../../src/lib/connected-apps/server/service';
import { callApi } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { linePayload } from '../routes/helpers';
import {
	addMember,
	appHeaders,
	authorizeCode,
	createConnectedAppsTestApp,
	exchangeCode,
	type Member,
	registerTestApp,
} from './helpers';

let database: TestDatabase;
let made: ReturnType<typeof createConnectedAppsTestApp>;
let developer: Member;
let ana: Member;

beforeAll(async () => {
	database = await openTestDb();
	made = createConnectedAppsTestApp(database);
});
beforeEach(async () => {
	await database.reset();
	developer = await addMember(made.deps, 'dev');
	ana = await addMember(made.deps, 'ana');
});
afterAll(async () => {
	await database.close();
});

const ALL: AppScope[] = [
	'profile:read',
	'workouts:read',
	'workouts:read:nolocation',
	'workouts:write',
	'routes:read',
	'routes:write',
	'friends:read',
];

/** An app Ana allowed with `scope`: its client id and the headers its calls carry. */
async function connectApp(scope: string) {
	const client = await registerTestApp(made.deps, developer, { scopes: ALL });
	const grant = await authorizeCode(made.deps, ana, client.clientId, { scope });
	const tokens = await exchangeCode(made.app, client, grant);
	expect(tokens.status).toBe(200);
	return { client, headers: appHeaders(client.clientId, tokens.json.access_token) };
}

const asApp = (headers: Record<string, string>, method: string, path: string, body?: unknown) =>
	callApi(made.app, method, path, { headers, body });

async function anaWorkoutWithTrack() {
	const created = await callApi(made.app, 'POST', '/api/v7.1/workout/', {
		token: ana.token,
		body: {
			name: 'Morning run',
			start_datetime: '2026-05-20T06:00:00+00:00',
			start_locale_timezone: 'UTC',
			activity_type: 16,
			privacy: 0,
			aggregates: { distance_total: 20, active_time_total: 5, elapsed_time_total: 5 },
			time_series: {
				position: [
					[0, { lat: 46.05, lng: 14.5, elevation: 295 }],
					[5, { lat: 46.0501, lng: 14.5002, elevation: 296 }],
				],
				heartrate: [
					[0, 120],
					[5, 131],
				],
			},
		},
	});
	expect(created.status).toBe(201);
	return created.json.id as number;
}

describe('an app calls /api/v7.1 with Api-Key and Bearer', () => {
	test('reads the member it acts for, their routes and workouts', async () => {
		const { headers } = await connectApp('profile:read routes:read workouts:read');
		await callApi(made.app, 'POST', '/api/v7.1/route/', {
			token: ana.token,
			body: linePayload('Private loop', { privacy: 0 }),
		});
		const workoutId = await anaWorkoutWithTrack();

		const self = await asApp(headers, 'GET', '/api/v7.1/user/self');
		expect(self.status).toBe(200);
		expect(self.json.username).toBe('ana');
		const routes = await asApp(headers, 'GET', `/api/v7.1/route/?user=${ana.id}`);
		expect(routes.status).toBe(200);
		expect(routes.json._embedded.routes.map((route: { name: string }) => route.name)).toEqual([
			'Private loop',
		]);
		const workout = await asApp(headers, 'GET', `/api/v7.1/workout/${workoutId}/?field_set=time_series`);
		expect(workout.status).toBe(200);
		expect(workout.json.time_series.position).toHaveLength(2);
	});

	test('without the Api-Key, or with another app’s, the token is refused with a JSON 401', async () => {
		const { headers } = await connectApp('profile:read');
		const other = await registerTestApp(made.deps, developer);
		const missing = await asApp({ authorization: headers.authorization }, 'GET', '/api/v7.1/user/self/');
		expect(missing.status).toBe(401);
		expect(missing.json.error).toBe('invalid_token');
		const wrongKey = await asApp({ ...headers, 'api-key': other.clientId }, 'GET', '/api/v7.1/user/self/');
		expect(wrongKey.status).toBe(401);
		expect(wrongKey.headers.get('www-authenticate')).toContain('invalid_token');
	});

	test('an app token never reaches endpoints that declare no scope, whatever it was given', async () => {
		const { headers } = await connectApp(ALL.join(' '));
		for (const [method, path] of [
			['GET', '/api/auth/sessions'],
			['GET', '/api/auth/logout'],
			['PUT', `/api/v7.1/user/${ana.id}/`],
			['GET', '/api/v7.1/privacy_zone/'],
			['GET', `/api/internal/externaltokens/${ana.id}/`],
			['POST', `/api/v7.1/route/1/rotate_link/`],
		]) {
			const answer = await asApp(headers, method, path, method === 'PUT' ? { first_name: 'Eve' } : undefined);
			expect(answer.status, `${method} ${path}`).toBe(403);
			expect(answer.json.error).toBe('insufficient_scope');
		}
	});

	test('each declared endpoint needs its own scope', async () => {
		const { headers } = await connectApp('routes:read');
		const write = await asApp(headers, 'POST', '/api/v7.1/route/', linePayload('Nope'));
		expect(write.status).toBe(403);
		expect(write.headers.get('www-authenticate')).toContain('scope="routes:write"');
		expect((await asApp(headers, 'GET', '/api/v7.1/workout/')).status).toBe(403);
		expect((await asApp(headers, 'GET', '/api/v7.1/friendship/')).status).toBe(403);
		expect(findAppEndpoint('GET', '/v7.1/route/12')?.scopes).toEqual(['routes:read']);
		expect(findAppEndpoint('GET', '/v7.1/route/12/copy/')).toBeNull();
	});

	test('a deleted app’s tokens stop working', async () => {
		const { client, headers } = await connectApp('profile:read');
		await deleteDeveloperApp(made.deps, developer, client.clientId);
		expect((await asApp(headers, 'GET', '/api/v7.1/user/self/')).status).toBe(401);
	});
});

describe('workouts:read:nolocation', () => {
	test('gives workouts and heart rate without any position', async () => {
		const workoutId = await anaWorkoutWithTrack();
		const { headers } = await connectApp('workouts:read:nolocation');
		const detail = await asApp(headers, 'GET', `/api/v7.1/workout/${workoutId}/?field_set=time_series`);
		expect(detail.status).toBe(200);
		expect(detail.json.name).toBe('Morning run');
		expect(detail.json.time_series.heartrate).toEqual([
			[0, 120],
			[5, 131],
		]);
		expect(JSON.stringify(detail.json)).not.toMatch(/"(position|lat|lng)"/);
		const list = await asApp(headers, 'GET', `/api/v7.1/workout/?user=${ana.id}`);
		expect(list.json._embedded.workouts).toHaveLength(1);
		// The export is a track file: nothing in it can be shown without places.
		expect((await asApp(headers, 'GET', `/api/v7.1/workout/${workoutId}/export/?format=gpx`)).status).toBe(
			403,
		);
	});
});

describe('the access log and the connected-apps list', () => {
	test('every app read of location or health data is logged for the member; profile reads are not', async () => {
		const workoutId = await anaWorkoutWithTrack();
		const { client, headers } = await connectApp('profile:read workouts:read routes:read');
		await asApp(headers, 'GET', '/api/v7.1/user/self/');
		await asApp(headers, 'GET', `/api/v7.1/workout/${workoutId}/`);
		await asApp(headers, 'GET', '/api/v7.1/route/?user=1');
		await asApp(headers, 'GET', '/api/v7.1/workout/999999/');
		const log = await listAppDataAccess(made.deps, ana.id);
		expect(log.map((entry) => [entry.method, entry.path, entry.scope])).toEqual(
			expect.arrayContaining([
				['GET', '/v7.1/workout/{id}/', 'workouts:read'],
				['GET', '/v7.1/route/', 'routes:read'],
			]),
		);
		expect(log).toHaveLength(2);
		expect(log[0]).toMatchObject({ clientId: client.clientId, appName: 'Trail Buddy' });
		expect(await listAppDataAccess(made.deps, developer.id)).toEqual([]);
	});

	test('the member sees the app, its scopes and its last use', async () => {
		const { client, headers } = await connectApp('profile:read routes:read');
		expect((await listConnectedApps(made.deps, ana.id))[0]).toMatchObject({
			clientId: client.clientId,
			scopes: ['profile:read', 'routes:read'],
			lastUsedAt: null,
		});
		await asApp(headers, 'GET', '/api/v7.1/user/self/');
		const [app] = await listConnectedApps(made.deps, ana.id);
		expect(app.lastUsedAt).toMatch(/\+00:00$/);
		const tokens = await callApi(made.app, 'GET', `/api/internal/externaltokens/${ana.id}/`, {
			token: ana.token,
		});
		expect(tokens.json._embedded.external_tokens[0]).toMatchObject({
			client_id: client.clientId,
			client_name: 'Trail Buddy',
		});
		expect(
			(await callApi(made.app, 'GET', `/api/internal/externaltokens/${ana.id}/`, { token: developer.token }))
				.status,
		).toBe(404);
		const revoke = await callApi(
			made.app,
			'DELETE',
			`/api/internal/externaltokens/?client_id=${client.clientId}`,
			{
				token: ana.token,
			},
		);
		expect(revoke.status).toBe(204);
		expect(await listConnectedApps(made.deps, ana.id)).toEqual([]);
		expect((await asApp(headers, 'GET', '/api/v7.1/user/self/')).status).toBe(401);
	});

	test('the consent screen’s app name is readable by client id', async () => {
		const client = await registerTestApp(made.deps, developer);
		const name = await callApi(made.app, 'GET', `/api/auth/internal/oauth2/clientName/${client.clientId}`);
		expect(name.json).toEqual({ clientName: 'Trail Buddy' });
		expect((await callApi(made.app, 'GET', '/api/auth/internal/oauth2/clientName/unknown')).status).toBe(404);
	});
});

describe('MapMyFitness payloads', () => {
	test('a route carrying the read-only fields MMF clients send is saved, with those fields measured by us', async () => {
		const { headers } = await connectApp('routes:read routes:write');
		const body = {
			...linePayload('From an MMF client', { km: 5, privacy: 0 }),
			distance: 1,
			total_ascent: 9999,
			total_descent: 9999,
			min_elevation: -5,
			max_elevation: 9000,
			starting_location: { type: 'Point', coordinates: [0, 0] },
			created_datetime: '2001-01-01T00:00:00+00:00',
			updated_datetime: '2001-01-01T00:00:00+00:00',
			city: 'Harrisburg',
			state: 'PA',
			country: 'US',
		};
		const created = await asApp(headers, 'POST', '/api/v7.1/route/', body);
		expect(created.status).toBe(201);
		expect(created.json.distance).toBeCloseTo(5000, -1);
		expect(created.json.total_ascent).toBe(0);
		expect(created.json.starting_location.coordinates).toEqual([-76.88, 40.27]);
		expect(created.json.created_datetime).not.toContain('2001');
		const updated = await asApp(headers, 'PUT', `/api/v7.1/route/${created.json.id}/`, {
			...body,
			name: 'Renamed',
			version: created.json.version,
		});
		expect(updated.status).toBe(200);
		expect(updated.json.name).toBe('Renamed');
	});

	test('privileged or unknown fields are still refused', async () => {
		const { headers } = await connectApp('routes:write workouts:write');
		for (const extra of [
			{ user: 1 },
			{ id: 5 },
			{ owner_id: 1 },
			{ surprise: true },
			{ distance: { nested: 1 } },
		]) {
			const answer = await asApp(headers, 'POST', '/api/v7.1/route/', { ...linePayload('x'), ...extra });
			expect(answer.status, JSON.stringify(extra)).toBe(400);
		}
		const workout = await asApp(headers, 'POST', '/api/v7.1/workout/', {
			name: 'From an MMF client',
			start_datetime: '2026-05-20T06:00:00+00:00',
			activity_type: 16,
			created_datetime: '2001-01-01T00:00:00+00:00',
			has_time_series: true,
			is_verified: true,
		});
		expect(workout.status).toBe(201);
		expect(workout.json.has_time_series).toBe(false);
		const owned = await asApp(headers, 'POST', '/api/v7.1/workout/', {
			name: 'x',
			start_datetime: '2026-05-20T06:00:00+00:00',
			activity_type: 16,
			user: 1,
		});
		expect(owned.status).toBe(400);
	});
});
