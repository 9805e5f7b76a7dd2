import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createSurveysApi } from '../../../src/lib/surveys/server/api';
import { surveyResponses } from '../../../src/lib/surveys/server/tables';
import { addSignedInMember, callApi, createTestApi, createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';

let database: TestDatabase;
let made: { deps: ReturnType<typeof createTestDeps>; app: ReturnType<typeof createTestApi> };

beforeAll(async () => {
	database = await openTestDb();
});
beforeEach(async () => {
	await database.reset();
	const deps = createTestDeps(database.db);
	// Only the members the setting names are asked.
	deps.config = { ...deps.config, rollouts: { customer_survey: { percent: 0, members: ['asked'] } } };
	made = { deps, app: createTestApi(deps, { routes: [createSurveysApi()] }) };
});
afterAll(async () => {
	await database.close();
});

const PATH = '/api/v7.1/customer_survey/';
const answer = { score: 9, main_use: 'routes', comment: '  More trail routes, please.\n' };

describe('customer survey', () => {
	test('a member in the rollout answers once; the answer is stored as sent', async () => {
		const asked = await addSignedInMember(made.deps, 'asked');
		const before = await callApi(made.app, 'GET', PATH, { token: asked.token });
		expect(before.status).toBe(200);
		expect(before.json).toEqual({ survey: 'customer-2026', eligible: true, answered: false });

		const sent = await callApi(made.app, 'POST', PATH, { token: asked.token, body: answer });
		expect(sent.status).toBe(201);
		expect(sent.json).toMatchObject({ eligible: true, answered: true });
		const rows = await made.deps.db
			.select()
			.from(surveyResponses)
			.where(eq(surveyResponses.userId, asked.viewer.id));
		expect(rows).toEqual([
			expect.objectContaining({
				survey: 'customer-2026',
				dismissed: false,
				score: 9,
				mainUse: 'routes',
				comment: 'More trail routes, please.',
			}),
		]);

		const again = await callApi(made.app, 'POST', PATH, { token: asked.token, body: { dismissed: true } });
		expect(again.status).toBe(409);
		expect(await made.deps.db.select().from(surveyResponses)).toHaveLength(1);
	});

	test('"not now" is kept, so the member is not asked again', async () => {
		const asked = await addSignedInMember(made.deps, 'asked');
		const later = await callApi(made.app, 'POST', PATH, { token: asked.token, body: { dismissed: true } });
		expect(later.status).toBe(201);
		const rows = await made.deps.db.select().from(surveyResponses);
		expect(rows).toEqual([expect.objectContaining({ dismissed: true, score: null, mainUse: null })]);
		expect((await callApi(made.app, 'GET', PATH, { token: asked.token })).json.answered).toBe(true);
	});

	test('members outside the rollout and visitors cannot answer', async () => {
		const other = await addSignedInMember(made.deps, 'other');
		expect((await callApi(made.app, 'GET', PATH, { token: other.token })).json).toMatchObject({
			eligible: false,
			answered: false,
		});
		const refused = await callApi(made.app, 'POST', PATH, { token: other.token, body: answer });
		expect(refused.status).toBe(403);
		expect((await callApi(made.app, 'POST', PATH, { body: answer })).status).toBe(401);
		expect((await callApi(made.app, 'GET', PATH)).status).toBe(401);
		expect(await made.deps.db.select().from(surveyResponses)).toEqual([]);
	});

	test('answers out of range, of unknown uses or with extra fields are refused', async () => {
		const asked = await addSignedInMember(made.deps, 'asked');
		for (const body of [
			{ ...answer, score: 11 },
			{ ...answer, score: 4.5 },
			{ ...answer, main_use: 'ads' },
			{ ...answer, comment: 'x'.repeat(1001) },
			{ ...answer, comment: 'bad\u0000text' },
			{ ...answer, user_id: 1 },
			{ dismissed: false },
			{},
		]) {
			const refused = await callApi(made.app, 'POST', PATH, { token: asked.token, body });
			expect(refused.status, JSON.stringify(body).slice(0, 60)).toBe(400);
		}
		expect(await made.deps.db.select().from(surveyResponses)).toEqual([]);
	});
});
