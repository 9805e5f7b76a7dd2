import { afterAll, beforeAll, expect, test } from 'vitest';
import { callApi } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { createChallengesTestApp } from './helpers';

let database: TestDatabase;
beforeAll(async () => {
	database = await openTestDb();
});
afterAll(async () => {
	await database.close();
});

test('every challenge operation is described in /api/openapi.json with its parameters', async () => {
	const { app } = createChallengesTestApp(database);
	const spec = (await callApi(app, 'GET', '/api/openapi.json')).json;
	const operations = [
		['get', '/api/v2/challenges/'],
		['get', '/api/challenges/challenge/{id}/details/'],
		['post', '/api/challenges/{id}/users/'],
		['delete', '/api/challenges/{id}/users/{userId}/'],
		['post', '/api/challenges/{id}/workouts/{workoutId}/confirm/'],
		['get', '/api/widgets/challenges/{id}/leaderboard/'],
		['get', '/api/v2/mobile/challenges/awards/{id}/'],
	];
	for (const [method, path] of operations)
		expect(spec.paths[path]?.[method], `${method} ${path}`).toBeDefined();
	const board = spec.paths['/api/widgets/challenges/{id}/leaderboard/'].get.parameters.map(
		(parameter: { name: string }) => parameter.name,
	);
	expect(board).toEqual(expect.arrayContaining(['id', 'page', 'page_size', 'friends', 'view']));
});
