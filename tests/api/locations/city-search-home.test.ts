import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { users } from '../../../src/lib/auth/server/tables';
import { CitySearchResponseSchema } from '../../../src/lib/routing/contract';
import { createRoutingApi } from '../../../src/lib/routing/server/api';
import { addSignedInMember, callApi, createTestApi, createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';

let database: TestDatabase;
let deps: ReturnType<typeof createTestDeps>;
let app: ReturnType<typeof createTestApi>;

beforeAll(async () => {
	database = await openTestDb();
	deps = createTestDeps(database.db);
	// Place search needs no map region.
	app = createTestApi(deps, { routes: [createRoutingApi({ engine: null })] });
});
afterAll(() => database.close());
beforeEach(() => database.reset());

async function memberLivingIn(username: string, country: string, region: string) {
	const member = await addSignedInMember(deps, username);
	await deps.db.update(users).set({ country, region }).where(eq(users.id, member.viewer.id));
	return member;
}

async function suggestions(term: string, options: { token?: string; cookie?: string } = {}) {
	const response = await callApi(app, 'GET', `/api/_api/search_for_city/?term=${encodeURIComponent(term)}`, {
		token: options.token,
		headers: options.cookie ? { cookie: options.cookie } : {},
	});
	expect(response.status).toBe(200);
	return v.parse(CitySearchResponseSchema, response.json).map((item) => item.label);
}

describe('GET /api/_api/search_for_city/ for a signed-in member', () => {
	test("ranks the member's profile country first, wherever the connection is", async () => {
		const { token } = await memberLivingIn('pat', 'US', '');
		// Travelling in England: the geo cookie says GB, the profile says US.
		const labels = await suggestions('Harr', { token, cookie: 'ms_geo=GB' });
		expect(labels).toContain('Harrisburg, PA, US');
		expect(labels.indexOf('Harrisburg, PA, US')).toBeLessThan(
			labels.indexOf('Harrogate, United Kingdom') >>> 0,
		);
		// American places first, then the rest by population.
		expect(labels.slice(0, 2)).toEqual(['Harrisonburg, VA, US', 'Harrisburg, PA, US']);
		// The same search as a visitor follows the cookie.
		expect((await suggestions('Harr', { cookie: 'ms_geo=GB' }))[0]).toBe('Harrogate, United Kingdom');
	});

	test('a member in the United Kingdom sees Harrogate first even from an American connection', async () => {
		const { token } = await memberLivingIn('alex', 'GB', '');
		expect((await suggestions('Harr', { token, cookie: 'ms_geo=US-PA' }))[0]).toBe(
			'Harrogate, United Kingdom',
		);
	});

	test("ranks the member's state first within the country, by code or by name", async () => {
		// Springfield: Missouri's is the most populous, Illinois's a state capital.
		const visitor = await suggestions('Springfield', { cookie: 'ms_geo=US' });
		expect(visitor[0]).toBe('Springfield, MO, US');
		const byCode = await memberLivingIn('ill', 'US', 'IL');
		expect((await suggestions('Springfield', { token: byCode.token }))[0]).toBe('Springfield, IL, US');
		const byName = await memberLivingIn('mass', 'US', 'Massachusetts');
		expect((await suggestions('Springfield', { token: byName.token }))[0]).toBe('Springfield, MA, US');
	});

	test('a member without a profile country is ranked by the geo cookie', async () => {
		const { token } = await addSignedInMember(deps, 'nocountry');
		expect((await suggestions('Harr', { token, cookie: 'ms_geo=GB' }))[0]).toBe('Harrogate, United Kingdom');
	});
});
