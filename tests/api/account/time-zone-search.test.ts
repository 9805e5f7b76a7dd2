import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { callApi, createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { type App, createAccountsApp } from '../auth/helpers';

let database: TestDatabase;
let app: App;

beforeAll(async () => {
	database = await openTestDb();
	app = createAccountsApp(createTestDeps(database.db));
});
afterAll(async () => {
	await database.close();
});

describe('GET /api/_api/time_zone_search/', () => {
	test('answers the cities a name matches, each with its zone', async () => {
		const answer = await callApi(app, 'GET', '/api/_api/time_zone_search/?term=harrisburg');
		expect(answer.status).toBe(200);
		expect(answer.json[0]).toEqual({ label: 'Harrisburg, Pennsylvania, US', time_zone: 'America/New_York' });
		const seattle = await callApi(app, 'GET', '/api/_api/time_zone_search?term=Seattle');
		expect(seattle.json[0]).toEqual({ label: 'Seattle, Washington, US', time_zone: 'America/Los_Angeles' });
	});

	test.each([
		['too short', '?term=ab'],
		['missing', ''],
		['too long', `?term=${'a'.repeat(101)}`],
	])('refuses a term that is %s', async (_, query) => {
		const answer = await callApi(app, 'GET', `/api/_api/time_zone_search/${query}`);
		expect(answer.status).toBe(400);
		expect(Object.keys(answer.json._diagnostics.validation_failures[0])).toEqual(['term']);
	});
});
