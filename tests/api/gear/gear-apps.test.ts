import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createConnectedAppsApi } from '../../../src/lib/connected-apps/server/api';
import { createGearApi } from '../../../src/lib/gear/server/api';
import { createWorkoutsApi } from '../../../src/lib/workouts/server/api';
import { callApi, createTestApi, createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import {
	addMember,
	appHeaders,
	authorizeCode,
	exchangeCode,
	type Member,
	registerTestApp,
} from '../connected-apps/helpers';

let database: TestDatabase;
let deps: ReturnType<typeof createTestDeps>;
let app: ReturnType<typeof createTestApi>;
let developer: Member;
let ana: Member;

beforeAll(async () => {
	database = await openTestDb();
	deps = createTestDeps(database.db);
	app = createTestApi(deps, { routes: [createWorkoutsApi(), createGearApi(), createConnectedAppsApi()] });
});
beforeEach(async () => {
	await database.reset();
	developer = await addMember(deps, 'dev');
	ana = await addMember(deps, 'ana');
});
afterAll(async () => {
	await database.close();
});

async function connectApp(scope: string) {
	const client = await registerTestApp(deps, developer, {
		scopes: ['profile:read', 'workouts:read', 'workouts:read:nolocation', 'workouts:write'],
	});
	const grant = await authorizeCode(deps, ana, client.clientId, { scope });
	const tokens = await exchangeCode(app, client, grant);
	expect(tokens.status).toBe(200);
	return appHeaders(client.clientId, tokens.json.access_token);
}

describe('apps and gear', () => {
	test('reading gear needs a workout reading scope; changing it needs workouts:write', async () => {
		const gear = (
			await callApi(app, 'POST', '/api/v7.1/usergear/', {
				token: ana.token,
				body: { kind: 'bike', nickname: 'Roadie' },
			})
		).json;
		const profileOnly = await connectApp('profile:read');
		expect((await callApi(app, 'GET', '/api/v7.1/usergear/', { headers: profileOnly })).status).toBe(403);

		const reader = await connectApp('workouts:read:nolocation');
		const list = await callApi(app, 'GET', '/api/v7.1/usergear/', { headers: reader });
		expect(list.status).toBe(200);
		expect(list.json._embedded.usergear[0].nickname).toBe('Roadie');
		expect((await callApi(app, 'GET', `/api/v7.1/usergear/${gear.id}/`, { headers: reader })).status).toBe(
			200,
		);
		const refused = await callApi(app, 'PUT', `/api/v7.1/usergear/${gear.id}/`, {
			headers: reader,
			body: { nickname: 'Changed' },
		});
		expect(refused.status).toBe(403);
		expect((await callApi(app, 'DELETE', `/api/v7.1/usergear/${gear.id}/`, { headers: reader })).status).toBe(
			403,
		);

		const writer = await connectApp('workouts:write');
		const changed = await callApi(app, 'PUT', `/api/v7.1/usergear/${gear.id}/`, {
			headers: writer,
			body: { retired: true },
		});
		expect(changed.status).toBe(200);
		expect(changed.json.retired).toBe(true);
		const added = await callApi(app, 'POST', '/api/v7.1/usergear/', {
			headers: writer,
			body: { kind: 'shoes', nickname: 'Trail pair' },
		});
		expect(added.status).toBe(201);
	});

	test('the gear and bulk import operations are described in /api/openapi.json', async () => {
		const spec = (await callApi(app, 'GET', '/api/openapi.json')).json;
		for (const [method, path] of [
			['get', '/api/v7.1/usergear/'],
			['post', '/api/v7.1/usergear/'],
			['get', '/api/v7.1/usergear/{id}/'],
			['put', '/api/v7.1/usergear/{id}/'],
			['delete', '/api/v7.1/usergear/{id}/'],
			['post', '/api/v7.1/device/bulk_import/'],
			['get', '/api/v7.1/device/bulk_import/{id}/'],
		])
			expect(spec.paths[path]?.[method], `${method} ${path}`).toBeDefined();
	});
});
