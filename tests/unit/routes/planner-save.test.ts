import { ofetch } from 'ofetch';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { drainEvents } from '../../../src/lib/analytics/queue';
import {
	addWaypoint,
	type LegOptions,
	type OpenedRoute,
	type SavedRoute,
} from '../../../src/lib/routes/planner';
import type { DraftStorage } from '../../../src/lib/routes/planner-draft';
import { createPlannerSave, type SaveRequest } from '../../../src/lib/routes/planner-save';
import { createPlannerStore } from '../../../src/lib/routes/planner-store';
import { createRoutesApi } from '../../../src/lib/routes/server/api';
import type { RoutingEngine } from '../../../src/lib/routing/engine';
import { createHeightLookup } from '../../../src/lib/routing/server/heights';
import { loadEngine } from '../../../src/lib/routing/server/regions';
import { addMember, type Member } from '../../api/routes/helpers';
import { callApi, createTestApi, createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { REGIONS_DIR, TEST_CACHE_DIR } from '../routing/region-cache';

// The save runs against the real routes API, in process, as the member who signed in.
let database: TestDatabase;
let engine: RoutingEngine;
let deps: ReturnType<typeof createTestDeps>;
let app: ReturnType<typeof createTestApi>;
let alice: Member;
/** Every body the planner sent, in order. */
let sent: { method: string; path: string; body: Record<string, unknown> }[];

beforeAll(async () => {
	database = await openTestDb();
	engine = await loadEngine({ regionsDir: REGIONS_DIR, cacheDir: TEST_CACHE_DIR, only: ['andorra.osm.pbf'] });
	deps = createTestDeps(database.db);
	app = createTestApi(deps, { routes: [createRoutesApi({ heights: createHeightLookup({ engine }) })] });
});
beforeEach(async () => {
	await database.reset();
	alice = await addMember(deps, 'alice');
	sent = [];
	drainEvents();
});
afterAll(() => database.close());

/** The API as the island's `api()` reaches it: ofetch with the member's bearer token. */
function requestAs(member: Member): SaveRequest {
	const $fetch = ofetch.create(
		{ baseURL: 'http://mapstride.test/api', headers: { authorization: `Bearer ${member.token}` } },
		{ fetch: (input, init) => Promise.resolve(app.request(String(input), init)) },
	);
	return (path, options) => {
		sent.push({ method: options.method ?? 'GET', path, body: options.body as Record<string, unknown> });
		return $fetch(path, { method: options.method, body: options.body });
	};
}

/** A Map standing in for the browser's local storage. */
function memoryStorage(): DraftStorage & { entries: Map<string, string> } {
	const entries = new Map<string, string>();
	return {
		entries,
		getItem: (key) => entries.get(key) ?? null,
		setItem: (key, value) => void entries.set(key, value),
		removeItem: (key) => void entries.delete(key),
	};
}

const STRAIGHT: LegOptions = { mode: 'WALKING', followRoads: false, avoidHighways: true };
// Andorra la Vella towards Escaldes, where the server has heights.
const A = { lat: 42.5063, lng: 1.5218 };
const B = { lat: 42.508, lng: 1.53 };
const C = { lat: 42.5097, lng: 1.5385 };

function planner(opened?: OpenedRoute, storage = memoryStorage()) {
	const store = createPlannerStore({ opened: opened?.route });
	const saved: number[] = [];
	const saver = createPlannerSave({
		store,
		opened,
		storage,
		request: requestAs(alice),
		onSaved: (id) => saved.push(id),
	});
	const draw = async (...points: { lat: number; lng: number }[]) => {
		for (const point of points) await store.edit((state) => addWaypoint(state, point, STRAIGHT));
	};
	return { store, saver, saved, storage, draw };
}

/** A route of Alice's, saved through the API, as the edit page opens it. */
async function aliceRoute(name: string): Promise<SavedRoute & { id: number }> {
	const created = await callApi(app, 'POST', '/api/v7.1/route/', {
		token: alice.token,
		body: {
			name,
			privacy: 0,
			points: [A, C].map((point, order) => ({ ...point, order, travel_mode: 'WALKING' })),
		},
	});
	expect(created.status).toBe(201);
	return created.json as SavedRoute & { id: number };
}

const routeOf = async (id: number) =>
	(await callApi(app, 'GET', `/api/v7.1/route/${id}/?field_set=detailed_internal`, { token: alice.token }))
		.json;

describe('saving a new route', () => {
	test('posts the route as the member’s without heights, which the server fills; the draft goes and the page opens the route', async () => {
		const { saver, saved, storage, draw } = planner();
		await draw(A, B, C);
		saver.setDetails({ name: 'To Escaldes', description: 'Along the river' });
		saver.draft.write();
		expect(storage.entries.size).toBe(1);

		await saver.save();

		expect(saver.$saveError.get()).toBe('');
		expect(saved).toHaveLength(1);
		expect(sent.map(({ method, path }) => [method, path])).toEqual([['POST', '/v7.1/route/']]);
		const points = sent[0].body.points as { ele?: number }[];
		expect(points.length).toBeGreaterThanOrEqual(3);
		expect(points.every((point) => point.ele === undefined)).toBe(true);
		const route = await routeOf(saved[0]);
		expect(route.name).toBe('To Escaldes');
		expect(route.description).toBe('Along the river');
		for (const point of route.points) expect(point.ele).toBeGreaterThan(900);
		expect(storage.entries.size).toBe(0);
		// Left after the save, the page writes no draft back.
		saver.draft.write();
		expect(storage.entries.size).toBe(0);
		expect(drainEvents().map((event) => [event.name, event.properties])).toContainEqual([
			'route_created',
			{ route_id: saved[0], points: points.length },
		]);
	});

	test('asks nothing of the API without a name or without two points, and says what is missing', async () => {
		const { saver, saved, draw } = planner();
		await draw(A);
		await saver.save();
		expect(saver.$fieldErrors.get()).toEqual({ name: ['Name is required.'] });
		saver.setDetails({ name: 'One point' });
		await saver.save();
		expect(saver.$fieldErrors.get()).toEqual({});
		expect(saver.$saveError.get()).toBe('A route needs at least two points.');
		expect(sent).toEqual([]);
		expect(saved).toEqual([]);
		expect(saver.$saving.get()).toBe(false);
	});

	test('shows the API’s refusal beside the field it names, and may be saved again', async () => {
		const { saver, saved, draw } = planner();
		await draw(A, C);
		saver.setDetails({ name: 'x'.repeat(101) });
		await saver.save();
		expect(saver.$fieldErrors.get().name?.length).toBeGreaterThan(0);
		expect(saver.$saveError.get()).not.toBe('');
		expect(saver.$saving.get()).toBe(false);
		expect(saved).toEqual([]);
		saver.setDetails({ name: 'Short enough' });
		await saver.save();
		expect(saved).toHaveLength(1);
	});

	test('a copy is saved as a new route of the member’s and counted as a copy', async () => {
		const source = await aliceRoute('Original');
		const { saver, saved } = planner({ kind: 'copy', routeId: source.id, token: null, route: source });
		saver.setDetails({ name: 'Copy of Original' });
		await saver.save();
		expect(saved).toHaveLength(1);
		expect(saved[0]).not.toBe(source.id);
		expect(sent[0].method).toBe('POST');
		expect(drainEvents().map((event) => [event.name, event.properties])).toContainEqual([
			'route_copied',
			{ route_id: saved[0], source_route_id: source.id },
		]);
		expect((await routeOf(source.id)).name).toBe('Original');
	});
});

describe('saving an edit', () => {
	test('replaces the route at the version it opened with, and the next save follows the new version', async () => {
		const opened = await aliceRoute('Morning loop');
		const { saver, saved, draw } = planner({ kind: 'edit', routeId: opened.id, token: null, route: opened });
		await draw(B);
		await saver.save();
		expect(saved).toEqual([opened.id]);
		expect(sent[0]).toMatchObject({ method: 'PUT', path: `/v7.1/route/${opened.id}/`, body: { version: 1 } });
		await saver.save();
		expect(sent[1].body.version).toBe(2);
		expect(saver.$conflict.get()).toBeNull();
	});

	test('a save that lost to one made elsewhere offers the choice; keeping mine saves over theirs', async () => {
		const opened = await aliceRoute('Morning loop');
		const { saver, saved, draw } = planner({ kind: 'edit', routeId: opened.id, token: null, route: opened });
		// Another tab saves the route first.
		const elsewhere = await callApi(app, 'PUT', `/api/v7.1/route/${opened.id}/`, {
			token: alice.token,
			body: { name: 'Renamed in another tab', points: opened.points, version: 1 },
		});
		expect(elsewhere.status).toBe(200);
		await draw(B);
		saver.setDetails({ name: 'Mine' });

		await saver.save();
		expect(saver.$conflict.get()).toEqual({
			sentVersion: 1,
			savedVersion: 2,
			savedName: 'Renamed in another tab',
		});
		expect(saver.$saving.get()).toBe(false);
		expect(saved).toEqual([]);

		await saver.keepMine();
		expect(saver.$conflict.get()).toBeNull();
		expect(saved).toEqual([opened.id]);
		expect(sent.at(-1)?.body.version).toBe(2);
		const route = await routeOf(opened.id);
		expect(route.name).toBe('Mine');
		expect(route.version).toBe(3);
	});

	test('taking theirs puts the newer route and its details in the planner, and saves from its version', async () => {
		const opened = await aliceRoute('Morning loop');
		const { store, saver, saved, draw } = planner({
			kind: 'edit',
			routeId: opened.id,
			token: null,
			route: opened,
		});
		const theirPoints = [A, B, C].map((point, order) => ({ ...point, order, travel_mode: 'WALKING' }));
		await callApi(app, 'PUT', `/api/v7.1/route/${opened.id}/`, {
			token: alice.token,
			body: { name: 'Theirs', description: 'From the phone', points: theirPoints, version: 1 },
		});
		await draw(B, C);
		await saver.save();
		expect(saver.$conflict.get()?.savedName).toBe('Theirs');

		const framed = saver.takeTheirs();
		expect(framed?.length).toBeGreaterThanOrEqual(2);
		expect(saver.$conflict.get()).toBeNull();
		expect(saver.$details.get()).toMatchObject({ name: 'Theirs', description: 'From the phone' });
		expect(store.$history.get().past).toHaveLength(0);
		expect(store.$history.get().present.waypoints).toEqual(framed);
		// Taken as it is, the route has nothing unsaved.
		expect(saver.$details.get()).toBe(saver.$initialDetails.get());

		await saver.save();
		expect(sent.at(-1)?.body.version).toBe(2);
		expect(saved).toEqual([opened.id]);
		expect((await routeOf(opened.id)).name).toBe('Theirs');
	});
});
