import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createAuthApi } from '../../../src/lib/auth/server/api';
import { setPremiumMembership } from '../../../src/lib/auth/server/service';
import {
	PremiumRequiredResponseSchema,
	RoundTripResponseSchema,
	RouteResponseSchema,
} from '../../../src/lib/routing/contract';
import type { RoutingEngine } from '../../../src/lib/routing/engine';
import { createRoutingApi } from '../../../src/lib/routing/server/api';
import { loadEngine } from '../../../src/lib/routing/server/regions';
import { callApi, createTestApi, createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { REGIONS_DIR, TEST_CACHE_DIR } from '../../unit/routing/region-cache';
import { PASSWORD, signupBody } from '../auth/helpers';

/**
 * The round-trip generator is an MVP feature: the house API plans loops for MVP members only, and tells
 * everyone else which feature it is and where to get it, without touching the routing engine first.
 */

const ANDORRA_LA_VELLA = { lat: 42.5063, lon: 1.5218 };
const ESCALDES = { lat: 42.5097, lon: 1.5385 };
const LOOP = { location: ANDORRA_LA_VELLA, costing: 'pedestrian', distance: 4000 };

let database: TestDatabase;
let app: ReturnType<typeof createTestApi>;
/** How often the engine was reached for: a refused request must not reach for it at all. */
let engineTouches = 0;
let freeToken: string;
let mvpToken: string;

async function signUp(email: string): Promise<{ id: number; token: string }> {
	const answer = await callApi(app, 'POST', '/api/auth/signup', {
		body: signupBody({ email, consents: { terms_of_use: true, privacy_policy: true } }),
	});
	expect(answer.status, answer.text).toBe(201);
	return { id: answer.json.user.id, token: answer.json.access_token };
}

beforeAll(async () => {
	database = await openTestDb();
	const engine = await loadEngine({
		regionsDir: REGIONS_DIR,
		cacheDir: TEST_CACHE_DIR,
		only: ['andorra.osm.pbf'],
	});
	const watched = new Proxy(engine, {
		get(target, property, receiver) {
			engineTouches++;
			return Reflect.get(target, property, receiver);
		},
	}) as RoutingEngine;
	const deps = createTestDeps(database.db);
	app = createTestApi(deps, { routes: [createAuthApi(), createRoutingApi({ engine: watched })] });

	freeToken = (await signUp('free@example.test')).token;
	const mvp = await signUp('mvp@example.test');
	await setPremiumMembership(database.db, mvp.id, true);
	// A sign-in after the membership started carries it.
	const login = await callApi(app, 'POST', '/api/auth/login', {
		body: { email: 'mvp@example.test', password: PASSWORD },
	});
	expect(login.status, login.text).toBe(200);
	mvpToken = login.json.access_token;
}, 120_000);

afterAll(async () => {
	await database?.close();
});

describe('round trips are MVP', () => {
	test.each([
		['a member without MVP', () => freeToken],
		['a visitor', () => undefined],
	])('%s is refused with the feature and the checkout named, before any routing', async (_, token) => {
		const before = engineTouches;
		for (const call of [
			() => callApi(app, 'POST', '/api/routing/round_trip', { token: token(), body: LOOP }),
			() =>
				callApi(app, 'GET', `/api/routing/round_trip?json=${encodeURIComponent(JSON.stringify(LOOP))}`, {
					token: token(),
				}),
		]) {
			const answer = await call();
			expect(answer.status).toBe(403);
			const body = v.parse(PremiumRequiredResponseSchema, answer.json);
			expect(body).toMatchObject({
				status_code: 403,
				status: 'Forbidden',
				feature: 'round_trip_routes',
				checkout_path: '/premium/checkout',
			});
			expect(body.error).toBe('Round-trip route generator is part of MVP. Get MVP at /premium/checkout.');
		}
		expect(engineTouches).toBe(before);
	});

	test('an MVP member gets loops near the distance asked for', async () => {
		const answer = await callApi(app, 'POST', '/api/routing/round_trip', { token: mvpToken, body: LOOP });
		expect(answer.status, answer.text).toBe(200);
		const body = v.parse(RoundTripResponseSchema, answer.json);
		expect(body.trips.length).toBeGreaterThan(0);
		for (const trip of body.trips) expect(Math.abs(trip.length - 4000)).toBeLessThanOrEqual(400);
		expect(engineTouches).toBeGreaterThan(0);
	});

	test('a member without MVP still gets the route answer the planner draws with', async () => {
		const answer = await callApi(app, 'POST', '/api/routing/route', {
			token: freeToken,
			body: { locations: [ANDORRA_LA_VELLA, ESCALDES], costing: 'pedestrian' },
		});
		expect(answer.status, answer.text).toBe(200);
		expect(v.parse(RouteResponseSchema, answer.json).trip.legs).toHaveLength(1);
	});

	test('/api/openapi.json documents the refusal', async () => {
		const spec = await callApi(app, 'GET', '/api/openapi.json');
		for (const method of ['post', 'get']) {
			const operation = spec.json.paths['/api/routing/round_trip'][method];
			expect(operation.responses[403].content['application/json'].schema.required).toEqual(
				expect.arrayContaining(['feature', 'checkout_path', 'error']),
			);
			expect(operation.responses[200]).toBeDefined();
		}
	});
});
