import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createConnectedAppsApi } from '../../../src/lib/connected-apps/server/api';
import { decodePolyline } from '../../../src/lib/routing/polyline';
import type { TrackHeatmap } from '../../../src/lib/stats/contract';
import { createStatsApi } from '../../../src/lib/stats/server/api';
import { createWorkoutsApi } from '../../../src/lib/workouts/server/api';
import { callApi, createTestApi } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import {
	addMember as addAppMember,
	appHeaders,
	authorizeCode,
	exchangeCode,
	registerTestApp,
} from '../connected-apps/helpers';
import { addMember, createStatsTestApp, type Member, setMember, workoutPayload } from './helpers';

let database: TestDatabase;
let made: ReturnType<typeof createStatsTestApp>;
let alice: Member;
let bob: Member;

beforeAll(async () => {
	database = await openTestDb();
});
beforeEach(async () => {
	await database.reset();
	made = createStatsTestApp(database, new Date('2026-11-24T15:00:00Z'));
	alice = await addMember(made.deps, 'alice');
	bob = await addMember(made.deps, 'bob');
	await setMember(made.deps, alice.id, { timeZone: 'America/New_York', workoutPrivacy: 3 });
});
afterAll(async () => {
	await database.close();
});

/** A public workout heading east along a parallel from `lng`: 41 positions 0.001° (about 80 m) apart. */
async function logTrack(start: string, lat: number, lng: number, activity_type = 16) {
	const position = Array.from(
		{ length: 41 },
		(_, i) => [i * 10, { lat, lng: lng + i * 0.001 }] as [number, { lat: number; lng: number }],
	);
	const answer = await callApi(made.app, 'POST', '/api/v7.1/workout/', {
		token: alice.token,
		body: { ...workoutPayload(start, { activity_type, privacy: 3 }), time_series: { position } },
	});
	expect(answer.status).toBe(201);
}

const heatmapOf = (token: string | undefined, query = '') =>
	callApi(made.app, 'GET', `/api/v7.1/workout_heatmap/${query}`, { token });

describe('the track heatmap', () => {
	test('draws the owner’s tracks, filtered by activity group and by year in the member’s time zone', async () => {
		await logTrack('2026-03-01T12:00:00Z', 42.5, 1.5, 16); // a run
		await logTrack('2026-04-01T12:00:00Z', 42.51, 1.5, 11); // a ride
		// 31 December 2025 in New York, though 2026 in UTC.
		await logTrack('2026-01-01T03:00:00Z', 42.52, 1.5, 16);
		// Logged by hand without a track: nothing to draw.
		expect(
			(
				await callApi(made.app, 'POST', '/api/v7.1/workout/', {
					token: alice.token,
					body: workoutPayload('2026-05-01T12:00:00Z'),
				})
			).status,
		).toBe(201);

		const all = await heatmapOf(alice.token);
		expect(all.status).toBe(200);
		const everything = all.json as TrackHeatmap;
		expect(everything.workout_count).toBe(3);
		expect(everything.lines).toHaveLength(3);
		expect(everything.years).toEqual([2026, 2025]);
		expect(everything.groups).toEqual(['ride', 'run']);
		const first = decodePolyline(everything.lines[0], 5);
		expect(first).toHaveLength(41);
		expect(first[0][0]).toBeCloseTo(42.52, 5);
		expect(first[40][1]).toBeCloseTo(1.54, 5);

		const runs2026 = (await heatmapOf(alice.token, '?activity_groups=run&year=2026')).json as TrackHeatmap;
		expect(runs2026).toMatchObject({ activity_groups: ['run'], year: 2026, workout_count: 1 });
		expect(decodePolyline(runs2026.lines[0], 5)[0][0]).toBeCloseTo(42.5, 5);

		const rides = (await heatmapOf(alice.token, '?activity_groups=ride,run&year=2025')).json as TrackHeatmap;
		expect(rides.workout_count).toBe(1);
		expect(decodePolyline(rides.lines[0], 5)[0][0]).toBeCloseTo(42.52, 5);

		const none = (await heatmapOf(alice.token, '?activity_groups=swim')).json as TrackHeatmap;
		expect(none).toMatchObject({ workout_count: 0, lines: [] });
	});

	test('shows each member only their own tracks, and nobody signed out anything', async () => {
		await logTrack('2026-03-01T12:00:00Z', 42.5, 1.5);
		const visitor = await heatmapOf(undefined);
		expect(visitor.status).toBe(401);
		expect(JSON.stringify(visitor.json)).not.toContain('42.5');
		// Alice's workouts are public, yet Bob's heatmap holds his own workouts only, and no filter names her.
		const other = await heatmapOf(bob.token, `?user=${alice.id}`);
		expect(other.status).toBe(200);
		expect(other.json).toMatchObject({ workout_count: 0, lines: [], years: [] });
	});

	test('cuts the member’s own privacy zones out of their own heatmap', async () => {
		await logTrack('2026-03-01T12:00:00Z', 42.5, 1.5);
		const zone = await callApi(made.app, 'POST', '/api/v7.1/privacy_zone/', {
			token: alice.token,
			body: { name: 'Home', lat: 42.5, lng: 1.52, radius: 200 },
		});
		expect(zone.status).toBe(201);
		const hidden = (zone.json as { hidden_area: { lat: number; lng: number; radius: number } }).hidden_area;

		const answer = (await heatmapOf(alice.token)).json as TrackHeatmap;
		expect(answer.workout_count).toBe(1);
		const points = answer.lines.flatMap((line) => decodePolyline(line, 5));
		expect(points.length).toBeGreaterThan(0);
		expect(points.length).toBeLessThan(41);
		// No drawn position lies in the stored circle, nor within the radius the member chose of their home.
		const metres = (a: [number, number], b: [number, number]) => {
			const rad = Math.PI / 180;
			const x = (b[1] - a[1]) * rad * Math.cos(((a[0] + b[0]) / 2) * rad);
			return Math.hypot(x, (b[0] - a[0]) * rad) * 6371000;
		};
		for (const point of points) {
			expect(metres(point, [hidden.lat, hidden.lng])).toBeGreaterThan(hidden.radius - 1);
			expect(metres(point, [42.5, 1.52])).toBeGreaterThan(200);
		}
		// The zone breaks the track: no line jumps across it.
		for (const line of answer.lines) {
			const decoded = decodePolyline(line, 5);
			for (let i = 1; i < decoded.length; i++) expect(metres(decoded[i - 1], decoded[i])).toBeLessThan(100);
		}
	});

	test('breaks a straight stretch between two far-apart positions where it crosses a privacy zone', async () => {
		// Two positions 1.6 km apart, the member's home halfway between them.
		const answer = await callApi(made.app, 'POST', '/api/v7.1/workout/', {
			token: alice.token,
			body: {
				...workoutPayload('2026-03-01T12:00:00Z', { privacy: 3 }),
				time_series: {
					position: [
						[0, { lat: 42.5, lng: 1.5 }],
						[600, { lat: 42.5, lng: 1.5196 }],
					],
				},
			},
		});
		expect(answer.status).toBe(201);
		const home: [number, number] = [42.5, 1.5098];
		expect(
			(
				await callApi(made.app, 'POST', '/api/v7.1/privacy_zone/', {
					token: alice.token,
					body: { lat: home[0], lng: home[1], radius: 200 },
				})
			).status,
		).toBe(201);

		const heatmap = (await heatmapOf(alice.token)).json as TrackHeatmap;
		expect(heatmap.workout_count).toBe(1);
		expect(heatmap.lines).toHaveLength(2);
		const rad = Math.PI / 180;
		// Metres from home to the stretch a–b, on a local flat projection.
		const fromHome = (a: [number, number], b: [number, number]) => {
			const k = Math.cos(home[0] * rad) * rad * 6371000;
			const [ax, ay, bx, by] = [
				(a[1] - home[1]) * k,
				(a[0] - home[0]) * rad * 6371000,
				(b[1] - home[1]) * k,
				(b[0] - home[0]) * rad * 6371000,
			];
			const [dx, dy] = [bx - ax, by - ay];
			const t = Math.max(0, Math.min(1, -(ax * dx + ay * dy) / (dx * dx + dy * dy || 1)));
			return Math.hypot(ax + t * dx, ay + t * dy);
		};
		for (const line of heatmap.lines) {
			const points = decodePolyline(line, 5);
			for (let i = 1; i < points.length; i++) expect(fromHome(points[i - 1], points[i])).toBeGreaterThan(200);
		}
		// Each stretch still runs from its recorded end to the zone's edge.
		const ends = heatmap.lines.map((line) => decodePolyline(line, 5));
		expect(ends.flat().some(([, lng]) => Math.abs(lng - 1.5) < 1e-5)).toBe(true);
		expect(ends.flat().some(([, lng]) => Math.abs(lng - 1.5196) < 1e-5)).toBe(true);
	});

	test('refuses filters it does not know with the failures named', async () => {
		for (const query of ['?year=26', '?year=1800', '?activity_groups=flying', '?year=2026x']) {
			const answer = await heatmapOf(alice.token, query);
			expect(answer.status).toBe(400);
			expect(JSON.stringify(answer.json)).toMatch(/year|activity_groups/);
		}
	});
});

describe('the track heatmap for connected apps', () => {
	async function connectApp(appApi: ReturnType<typeof createTestApi>, developer: Member, scope: string) {
		const client = await registerTestApp(made.deps, developer, {
			scopes: ['profile:read', 'workouts:read', 'workouts:read:nolocation'],
		});
		const grant = await authorizeCode(made.deps, alice, client.clientId, { scope });
		const tokens = await exchangeCode(appApi, client, grant);
		expect(tokens.status).toBe(200);
		return appHeaders(client.clientId, tokens.json.access_token);
	}

	test('answers an app only with the full workout reading scope, and is described in /api/openapi.json', async () => {
		const appApi = createTestApi(made.deps, {
			routes: [createWorkoutsApi(), createStatsApi(), createConnectedAppsApi()],
		});
		await logTrack('2026-03-01T12:00:00Z', 42.5, 1.5);
		const developer = await addAppMember(made.deps, 'dev');
		const noLocation = await connectApp(appApi, developer, 'workouts:read:nolocation');
		expect((await callApi(appApi, 'GET', '/api/v7.1/workout_heatmap/', { headers: noLocation })).status).toBe(
			403,
		);
		const reader = await connectApp(appApi, developer, 'workouts:read');
		const answer = await callApi(appApi, 'GET', '/api/v7.1/workout_heatmap/', { headers: reader });
		expect(answer.status).toBe(200);
		expect(answer.json.workout_count).toBe(1);

		const spec = (await callApi(appApi, 'GET', '/api/openapi.json')).json;
		const operation = spec.paths['/api/v7.1/workout_heatmap/']?.get;
		expect(operation).toBeDefined();
		expect(operation.parameters.map((parameter: { name: string }) => parameter.name).sort()).toEqual([
			'activity_groups',
			'year',
		]);
	});
});
