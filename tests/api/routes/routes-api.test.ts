import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { readWorkoutFile, readWorkoutFileSync, summariseWorkout } from '../../../src/lib/workout-files';
import { callApi } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { addMember, createRoutesTestApp, linePayload, type Member } from './helpers';

let database: TestDatabase;
let made: ReturnType<typeof createRoutesTestApp>;
let alice: Member;
let bob: Member;

beforeAll(async () => {
	database = await openTestDb();
	made = createRoutesTestApp(database);
});
beforeEach(async () => {
	await database.reset();
	alice = await addMember(made.deps, 'alice');
	bob = await addMember(made.deps, 'bob');
});
afterAll(() => database.close());

const api = (method: string, path: string, options: Parameters<typeof callApi>[3] = {}) =>
	callApi(made.app, method, path, options);

describe('saving a route (the save payload)', () => {
	test('measures the distance, parses the notes string and turns 2016 markers into custom notes', async () => {
		const body = {
			...linePayload('River Loop', { km: 2, climb: 30, privacy: 3 }),
			notes: 'Head north on Front St:40.27:-76.88:0~Turn left: onto Market St:40.279:-76.88:1000',
			markers: [
				{ lat: 40.2825, lng: -76.8801, text: 'Water fountain', icon_id: 2016 },
				{ lat: 40.28, lng: -76.88, text: 'Just a pin', icon_id: 7 },
			],
			city: 'Harrisburg',
			state: 'PA',
			country: 'us',
		};
		const created = await api('POST', '/api/v7.1/route/', { token: alice.token, body });
		expect(created.status).toBe(201);
		expect(created.headers.get('etag')).toBe('"1"');
		const route = created.json;
		expect(route.distance).toBeCloseTo(2000, -1);
		expect(route.total_ascent).toBe(30);
		expect(route.total_descent).toBe(0);
		expect(route.country).toBe('US');
		expect(route._links.user).toEqual([{ href: `/v7.1/user/${alice.id}/`, id: String(alice.id) }]);
		expect(route._links.self).toEqual([{ href: `/v7.1/route/${route.id}/`, id: String(route.id) }]);
		expect(route.created_datetime).toMatch(/\+00:00$/);
		expect(route.notes).toBe(body.notes);
		expect(route.cues).toEqual([
			{ instructions: 'Head north on Front St', lat: 40.27, lng: -76.88, distance: 0, isCustomNote: false },
			{
				instructions: 'Turn left: onto Market St',
				lat: 40.279,
				lng: -76.88,
				distance: 1000,
				isCustomNote: false,
			},
			expect.objectContaining({ instructions: 'Water fountain', isCustomNote: true }),
		]);
		// The note sits 1390 m along; it takes the distance of the nearest point of the line (every 200 m).
		expect(route.cues[2].distance).toBeCloseTo(1400, 0);
		expect(route.points[3]).toEqual({
			lat: Math.round((40.27 + (3 * 2) / 111.195 / 10) * 1e6) / 1e6,
			lng: -76.88,
			order: 3,
			travel_mode: 'WALKING',
			ele: 109,
		});

		const detailed = await api('GET', `/api/v7.1/route/${route.id}`, { token: alice.token });
		expect(detailed.json.points[10].dis).toBeCloseTo(2000, -1);
		expect(detailed.json.segments).toBeUndefined();
		const summary = await api('GET', `/api/v7.1/route/${route.id}/?field_set=summary`);
		expect(summary.json.points).toBeUndefined();
	});

	test('sorts points by their order and keeps each point’s travel mode', async () => {
		const body = linePayload('Mixed', { points: 4 });
		body.points[2].travel_mode = 'BICYCLING';
		body.points[3].travel_mode = 'BICYCLING';
		const shuffled = { ...body, points: [body.points[3], body.points[0], body.points[2], body.points[1]] };
		const created = await api('POST', '/api/v7.1/route/?field_set=detailed_internal', {
			token: alice.token,
			body: shuffled,
		});
		// Stored as polyline6: six decimals.
		expect(created.json.points.map((p: { lat: number }) => p.lat)).toEqual(
			body.points.map((p) => Math.round(p.lat * 1e6) / 1e6),
		);
		expect(created.json.points.map((p: { travel_mode: string }) => p.travel_mode)).toEqual([
			'WALKING',
			'WALKING',
			'BICYCLING',
			'BICYCLING',
		]);
	});

	test('refuses mass assignment of id, owner or links, and leaves ownership unchanged', async () => {
		for (const extra of [{ id: 99 }, { user: bob.id }, { owner_id: bob.id }]) {
			const response = await api('POST', '/api/v7.1/route/', {
				token: alice.token,
				body: { ...linePayload('Sneaky'), ...extra },
			});
			expect(response.status).toBe(400);
			expect(response.json._diagnostics.validation_failures.length).toBeGreaterThan(0);
		}
		const asBob = await api('POST', '/api/v7.1/route/', {
			token: alice.token,
			body: { ...linePayload('Sneaky'), _links: { user: [{ id: String(bob.id) }] } },
		});
		expect(asBob.status).toBe(403);
		expect(Object.keys(asBob.json._diagnostics.validation_failures[0])).toEqual(['_links.user']);
		const created = await api('POST', '/api/v7.1/route/', { token: alice.token, body: linePayload('Mine') });
		const put = await api('PUT', `/api/v7.1/route/${created.json.id}/`, {
			token: alice.token,
			body: { ...linePayload('Mine'), user: bob.id },
		});
		expect(put.status).toBe(400);
		const list = await api('GET', `/api/v7.1/route/?user=${bob.id}`, { token: bob.token });
		expect(list.json.total_count).toBe(0);
	});

	test('refuses invalid input with validation failures, never a 500', async () => {
		const cases: unknown[] = [
			{ ...linePayload('x'), points: [{ lat: 1, lng: 1 }] },
			{ ...linePayload('x'), name: '' },
			{ ...linePayload('x'), privacy: 2 },
			{
				...linePayload('x'),
				points: [
					{ lat: 91, lng: 0 },
					{ lat: 0, lng: 0 },
				],
			},
			{ ...linePayload('x'), notes: 'no colons here' },
			{ ...linePayload('x'), notes: 'Turn:abc:1:2' },
			{ ...linePayload('x'), markers: [{ lat: 1, lng: 1, text: 'x', icon_id: 'big' }] },
		];
		for (const body of cases) {
			const response = await api('POST', '/api/v7.1/route/', { token: alice.token, body });
			expect(response.status).toBe(400);
		}
		expect((await api('POST', '/api/v7.1/route/', { body: linePayload('anon') })).status).toBe(401);
		expect((await api('GET', '/api/v7.1/route/abc/')).status).toBe(400);
		expect((await api('GET', '/api/v7.1/route/?limit=1000')).status).toBe(400);
		expect((await api('GET', '/api/v7.1/route/?close_to_location=95,1')).status).toBe(400);
	});

	test('PUT replaces the route and DELETE removes it, both with and without the trailing slash', async () => {
		const created = await api('POST', '/api/v7.1/route/', {
			token: alice.token,
			body: linePayload('Before'),
		});
		const id = created.json.id;
		const put = await api('PUT', `/api/v7.1/route/${id}`, {
			token: alice.token,
			body: { ...linePayload('After', { km: 3 }), version: created.json.version },
		});
		expect(put.status).toBe(200);
		expect(put.json.name).toBe('After');
		expect(put.json.version).toBe(2);
		expect(put.json.distance).toBeCloseTo(3000, -1);
		expect((await api('DELETE', `/api/v7.1/route/${id}`, { token: alice.token })).status).toBe(204);
		expect((await api('GET', `/api/v7.1/route/${id}/`, { token: alice.token })).status).toBe(404);
		expect((await api('DELETE', `/api/v7.1/route/${id}/`, { token: alice.token })).status).toBe(404);
	});

	test('PUT keeps privacy and activity type when the body leaves them out', async () => {
		const created = await api('POST', '/api/v7.1/route/', {
			token: alice.token,
			body: linePayload('Keep', { privacy: 6, activity_type: 11 }),
		});
		const { privacy: _privacy, activity_type: _type, ...withoutBoth } = linePayload('Kept');
		const put = await api('PUT', `/api/v7.1/route/${created.json.id}/`, {
			token: alice.token,
			body: { ...withoutBoth, version: created.json.version },
		});
		expect(put.json.privacy).toBe(6);
		expect(put.json.activity_type).toBe(11);
		expect(put.json.share_token).toBe(created.json.share_token);
	});

	test('keeps markup in names as text, and describes every route endpoint in OpenAPI', async () => {
		const name = '<img src=x onerror=alert(1)>';
		const created = await api('POST', '/api/v7.1/route/', { token: alice.token, body: linePayload(name) });
		expect(created.json.name).toBe(name);
		expect(created.headers.get('content-type')).toContain('application/json');
		const spec = await api('GET', '/api/openapi.json');
		expect(Object.keys(spec.json.paths)).toEqual(
			expect.arrayContaining([
				'/api/v7.1/route/',
				'/api/v7.1/route/{id}/',
				'/api/v7.1/route/{id}/gpx/',
				'/api/v7.1/route/upload/',
				'/api/v7.1/route_bookmark/',
				'/api/v7.1/route_bookmark/{id}/',
				'/api/_api/social/privacy_toggle/',
			]),
		);
		const post = spec.json.paths['/api/v7.1/route/'].post.requestBody.content['application/json'].schema;
		expect(post.required).toEqual(expect.arrayContaining(['name', 'points']));
		expect(post.additionalProperties).toBe(false);
	});

	test('two tabs saving the same version: one 200, the other 412 with the server copy (security test 48)', async () => {
		const created = await api('POST', '/api/v7.1/route/', {
			token: alice.token,
			body: linePayload('Shared'),
		});
		const id = created.json.id;
		const [first, second] = await Promise.all([
			api('PUT', `/api/v7.1/route/${id}/`, {
				token: alice.token,
				headers: { 'if-match': '"1"' },
				body: linePayload('Tab one'),
			}),
			api('PUT', `/api/v7.1/route/${id}/`, {
				token: alice.token,
				body: { ...linePayload('Tab two'), version: 1 },
			}),
		]);
		expect([first.status, second.status].sort()).toEqual([200, 412]);
		const loser = first.status === 412 ? first : second;
		const winner = first.status === 200 ? first : second;
		expect(loser.json.error).toBe('precondition_failed');
		expect(loser.json.current.name).toBe(winner.json.name);
		expect(loser.json.current.version).toBe(2);
		expect(loser.json.sent_version).toBe(1);
		expect(loser.headers.get('etag')).toBe('"2"');
		const bad = await api('PUT', `/api/v7.1/route/${id}/`, {
			token: alice.token,
			headers: { 'if-match': 'nonsense' },
			body: linePayload('x'),
		});
		expect(bad.status).toBe(400);
	});

	test('a save that does not say which version it edited is refused, and changes nothing', async () => {
		const created = await api('POST', '/api/v7.1/route/', { token: alice.token, body: linePayload('Mine') });
		const blind = await api('PUT', `/api/v7.1/route/${created.json.id}/`, {
			token: alice.token,
			body: linePayload('Overwritten blindly'),
		});
		expect(blind.status).toBe(428);
		expect(blind.json.error).toBe('precondition_required');
		expect(blind.json._diagnostics.validation_failures).toEqual([
			{ version: ['The version of the route you edited is required.'] },
		]);
		const kept = await api('GET', `/api/v7.1/route/${created.json.id}/`, { token: alice.token });
		expect(kept.json).toMatchObject({ name: 'Mine', version: 1 });
	});

	test('a version too large for the database is a 400, not a 500', async () => {
		const created = await api('POST', '/api/v7.1/route/', { token: alice.token, body: linePayload('Huge') });
		const payload = JSON.stringify({ ...linePayload('Huge'), version: 1 });
		for (const huge of ['1e308', '18446744073709551616', '2147483648']) {
			const put = await api('PUT', `/api/v7.1/route/${created.json.id}/`, {
				token: alice.token,
				headers: { 'content-type': 'application/json' },
				body: payload.replace('"version":1', `"version":${huge}`),
			});
			expect(put.status, huge).toBe(400);
			expect(put.json._diagnostics.validation_failures).toEqual([
				{ version: ['version must be at most 2147483647.'] },
			]);
		}
		const saved = await api('GET', `/api/v7.1/route/${created.json.id}/`, { token: alice.token });
		expect(saved.json.version).toBe(1);
	});
});

describe('GPX export and import', () => {
	test('exports a GPX track as an attachment that reads back to the same line and heights', async () => {
		const created = await api('POST', '/api/v7.1/route/', {
			token: alice.token,
			body: {
				...linePayload('Hill <climb> & "more"', { climb: 50 }),
				markers: [{ lat: 40.3, lng: -76.88, text: 'Café', icon_id: 2016 }],
			},
		});
		const response = await made.app.request(`/api/v7.1/route/${created.json.id}/gpx/`, {
			headers: { authorization: `Bearer ${alice.token}` },
		});
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toContain('application/gpx+xml');
		expect(response.headers.get('content-disposition')).toBe(
			`attachment; filename="Hill-climb-more-${created.json.id}.gpx"; filename*=UTF-8''Hill%20climb%20%26%20more%20${created.json.id}.gpx`,
		);
		const bytes = new Uint8Array(await response.arrayBuffer());
		const workout = await readWorkoutFile(bytes);
		expect(workout.name).toBe('Hill <climb> & "more"');
		expect(workout.points).toHaveLength(11);
		expect(workout.points[10].elevation).toBe(150);
		expect(workout.points[0].lat).toBeCloseTo(40.27, 6);
		expect(workout.waypoints).toEqual([expect.objectContaining({ name: 'Café', lat: 40.3 })]);
	});

	test('imports a GPX file as a new private route of the caller, and a round trip keeps the line', async () => {
		const created = await api('POST', '/api/v7.1/route/', {
			token: alice.token,
			body: linePayload('Original', { climb: 20 }),
		});
		const gpx = await made.app.request(`/api/v7.1/route/${created.json.id}/gpx/`);
		const bytes = await gpx.arrayBuffer();
		const imported = await made.app.request('/api/v7.1/route/upload/?name=Copied%20in', {
			method: 'POST',
			headers: { authorization: `Bearer ${bob.token}`, 'content-type': 'application/octet-stream' },
			body: bytes,
		});
		expect(imported.status).toBe(201);
		const route = await imported.json();
		expect(route.name).toBe('Copied in');
		expect(route.privacy).toBe(0);
		expect(route._links.user[0].id).toBe(String(bob.id));
		expect(route.distance).toBeCloseTo(created.json.distance, 1);
		expect(route.total_ascent).toBe(20);
		expect(route.points).toHaveLength(11);
	});

	test('a file imported as a route shows the climb its workout and the CLI show, segments and all', async () => {
		// A real walk (660 points, thinned on import) and a real mountain track cut every 23 points, as an
		// auto-pause would: the route keeps the file's climb, not one of its thinned or joined-up points.
		const walk = readFileSync('tests/fixtures/workouts/tcx/walking_activity_1.tcx');
		const lines = readFileSync('tests/fixtures/workouts/gpx/Mojstrovka.gpx', 'utf8').split('\n');
		let trackpoints = 0;
		const cut = lines
			.map((line) =>
				line.includes('<trkpt') && trackpoints++ % 23 === 22 ? `</trkseg><trkseg>${line}` : line,
			)
			.join('\n');
		for (const bytes of [new Uint8Array(walk), new TextEncoder().encode(cut)]) {
			const file = readWorkoutFileSync(bytes);
			const summary = summariseWorkout(file);
			expect(summary.elevation_gain_m).toBeGreaterThan(200);
			const imported = await made.app.request('/api/v7.1/route/upload/', {
				method: 'POST',
				headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/octet-stream' },
				body: bytes,
			});
			expect(imported.status).toBe(201);
			const route = await imported.json();
			expect(route.total_ascent).toBe(summary.elevation_gain_m);
			expect(route.total_descent).toBe(summary.elevation_loss_m);
			const shown = await api('GET', `/api/v7.1/route/${route.id}/`, { token: alice.token });
			expect(shown.json.total_ascent).toBe(summary.elevation_gain_m);
		}
		expect(readWorkoutFileSync(new TextEncoder().encode(cut)).segmentStarts).toHaveLength(9);
	});

	test('refuses files that are not routes, with a reason, and anonymous imports', async () => {
		const post = (body: BodyInit, token?: string, type = 'application/octet-stream') =>
			made.app.request('/api/v7.1/route/upload/', {
				method: 'POST',
				headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': type },
				body,
			});
		expect((await post('<gpx></gpx>')).status).toBe(401);
		const doctype = await post(
			'<?xml version="1.0"?><!DOCTYPE gpx [<!ENTITY x "y">]><gpx><trk><trkseg><trkpt lat="1" lon="1"/></trkseg></trk></gpx>',
			alice.token,
		);
		expect(doctype.status).toBe(422);
		const onePoint = await post(
			'<?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg><trkpt lat="1" lon="1"/></trkseg></trk></gpx>',
			alice.token,
		);
		expect(onePoint.status).toBe(422);
		expect((await onePoint.json()).error).toBe('file_no_route');
		expect((await post('not a file', alice.token)).status).toBe(422);
		expect((await post('x', alice.token, 'text/plain')).status).toBe(415);
	});
});
