import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createAuthApi } from '../../../src/lib/auth/server/api';
import { siteApi } from '../../../src/lib/site/server/api';
import { callApi, createTestApi, createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { signupMember } from '../auth/helpers';

let database: TestDatabase;
let deps: ReturnType<typeof createTestDeps>;
let app: ReturnType<typeof createTestApi>;

beforeAll(async () => {
	database = await openTestDb();
	const base = createTestDeps(database.db);
	// The member signed up below (username `ada`) is listed in the alternate maps rollout.
	deps = { ...base, config: { ...base.config, rollouts: { alternate_maps_type: { members: ['ada'] } } } };
	app = createTestApi(deps, { routes: [createAuthApi(), siteApi] });
});
beforeEach(() => database.reset());
afterAll(() => database.close());

const alternateMaps = (body: Record<string, unknown>) =>
	(body.rollouts as { rollout_name: string; variant_name: string }[]).find(
		(rollout) => rollout.rollout_name === 'alternate_maps_type',
	)?.variant_name;

describe('GET /api/site/bootup', () => {
	test('knows the member from the session cookie alone, as pages do, and gives their rollouts', async () => {
		const member = await signupMember(app);
		const byCookie = await callApi(app, 'GET', '/api/site/bootup', { headers: { cookie: member.cookie } });
		expect(byCookie.status).toBe(200);
		expect(alternateMaps(byCookie.json)).toBe('enabled');
		const byToken = await callApi(app, 'GET', '/api/site/bootup', { token: member.token });
		expect(alternateMaps(byToken.json)).toBe('enabled');
		// Reading the cookie does not rotate it: the same cookie still refreshes the session afterwards.
		const refreshed = await callApi(app, 'GET', '/api/auth/refresh-token', {
			headers: { cookie: member.cookie },
		});
		expect(refreshed.status).toBe(200);
	});

	test('answers a visitor, or a cookie that is no session, as a visitor', async () => {
		for (const headers of [{}, { cookie: 'ms_session=not-a-session' }] as Record<string, string>[]) {
			const answer = await callApi(app, 'GET', '/api/site/bootup', { headers });
			expect(answer.status).toBe(200);
			expect(alternateMaps(answer.json)).toBe('control');
		}
	});
});
