import { afterAll, beforeAll, expect, test } from 'vitest';
import { seedDemoRoutes } from '../../../src/lib/routes/server/demo';
import { callApi } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { addMember, createRoutesTestApp } from './helpers';

let database: TestDatabase;
beforeAll(async () => {
	database = await openTestDb();
});
afterAll(() => database.close());

test('seeds routed demo routes once, public ones findable around Harrisburg and Andorra, private ones hidden', async () => {
	const { deps, app } = createRoutesTestApp(database);
	const owner = await addMember(deps, 'demo');
	const ids = await seedDemoRoutes(deps, owner.id);
	expect(ids).toHaveLength(7);
	expect(await seedDemoRoutes(deps, owner.id)).toEqual(ids);

	const harrisburg = await callApi(
		app,
		'GET',
		'/api/v7.1/route/?close_to_location=40.27,-76.84&search_radius=20000',
	);
	expect(harrisburg.json.total_count).toBe(3);
	const andorra = await callApi(
		app,
		'GET',
		'/api/v7.1/route/?close_to_location=42.5063,1.5218&search_radius=20000&order_by=-total_ascent',
	);
	expect(andorra.json.total_count).toBe(2);
	const climb = andorra.json._embedded.routes[0];
	expect(climb.name).toBe('Sant Julià to Andorra la Vella climb');
	expect(climb.total_ascent).toBeGreaterThan(100);
	expect(climb.distance).toBeGreaterThan(5000);

	const own = await callApi(app, 'GET', `/api/v7.1/route/?user=${owner.id}`, { token: owner.token });
	expect(own.json.total_count).toBe(7);
	const detail = await callApi(app, 'GET', `/api/v7.1/route/${ids[0]}/`);
	expect(detail.json.notes.length).toBeGreaterThan(5);
	expect(detail.json.notes[0].instructions).toMatch(/^Walk/);
});
