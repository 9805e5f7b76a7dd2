import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createAuthApi } from '../../../src/lib/auth/server/api';
import { signup } from '../../../src/lib/auth/server/service';
import { listAppDataAccess, listConnectedApps } from '../../../src/lib/connected-apps/server/service';
import { DEMO_LOGIN, seedDemoWorld } from '../../../src/lib/db/seed';
import { createRoutesApi } from '../../../src/lib/routes/server/api';
import { callApi, createTestApi, createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { signupBody } from '../auth/helpers';

let database: TestDatabase;
let deps: ReturnType<typeof createTestDeps>;
let app: ReturnType<typeof createTestApi>;

beforeAll(async () => {
	database = await openTestDb();
	deps = createTestDeps(database.db);
	app = createTestApi(deps, { routes: [createAuthApi(), createRoutesApi()] });
});
afterAll(() => database.close());

describe('the demo world', () => {
	test('lets the printed demo login in, with routes of its own, and seeds only once', async () => {
		const notes = await seedDemoWorld(deps);
		expect(notes.join('\n')).toContain(`Demo login: ${DEMO_LOGIN.email} / ${DEMO_LOGIN.password}`);

		const login = await callApi(app, 'POST', '/api/auth/login', {
			body: { email: DEMO_LOGIN.email, password: DEMO_LOGIN.password },
			headers: { origin: 'http://localhost:4321' },
		});
		expect(login.status).toBe(200);
		const token = login.json.access_token as string;
		const self = login.json.user as { id: number };

		const mine = await callApi(app, 'GET', `/api/v7.1/route/?user=${self.id}`, { token });
		expect(mine.status).toBe(200);
		const firstCount = mine.json.total_count as number;
		expect(firstCount).toBeGreaterThan(0);

		// The demo member has connected their own demo app, which has read their data.
		const apps = await listConnectedApps(deps, self.id);
		expect(apps.map((entry) => [entry.name, entry.scopes])).toEqual([
			['Trailhead Sync (demo app)', ['workouts:read:nolocation', 'routes:read']],
		]);
		expect((await listAppDataAccess(deps, self.id)).length).toBeGreaterThan(0);

		await seedDemoWorld(deps);
		expect(await listConnectedApps(deps, self.id)).toHaveLength(1);
		const again = await callApi(app, 'GET', `/api/v7.1/route/?user=${self.id}`, { token });
		expect(again.json.total_count).toBe(firstCount);
	});

	test("forty starts in a row spend none of 127.0.0.1's sign-up budget", async () => {
		for (let start = 0; start < 40; start++) await seedDemoWorld(deps);
		// The server's own address signs up as any visitor's would.
		const signedIn = await signup(deps, signupBody({ email: 'after.forty.starts@example.test' }), {
			ip: '127.0.0.1',
			userAgent: 'a browser on the server',
		});
		expect(signedIn.user.email).toBe('after.forty.starts@example.test');
	});
});
