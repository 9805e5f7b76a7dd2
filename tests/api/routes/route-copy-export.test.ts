import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { users } from '../../../src/lib/auth/server/tables';
import { openRouteForPlanner } from '../../../src/lib/routes/server/planner-page';
import { readWorkoutFileSync } from '../../../src/lib/workout-files';
import { callApi } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import {
	createRoutesTestApp,
	linePayload,
	MAY_VIEW,
	type Member,
	PRIVACIES,
	setUpPrivacyMatrix,
	VIEWERS,
} from './helpers';

/**
 * Copying a route and downloading it as a FIT course, across the privacy matrix (security test 20)
 * and against mass assignment (security test 22).
 */
let database: TestDatabase;
let made: ReturnType<typeof createRoutesTestApp>;
let matrix: Awaited<ReturnType<typeof setUpPrivacyMatrix>>;
let owner: Member;
let friend: Member;
let stranger: Member;

const NOTES = 'Head north on Front St:40.31:-76.88:0~Turn left onto Market St:40.32:-76.88:1100';

const api = (method: string, path: string, options: Parameters<typeof callApi>[3] = {}) =>
	callApi(made.app, method, path, options);

async function routesOf(who: Member): Promise<{ id: number; name: string; privacy: number }[]> {
	const list = await api('GET', `/api/v7.1/route/?user=${who.id}&limit=100`, { token: who.token });
	return list.json._embedded.routes;
}

async function download(path: string, token?: string) {
	const response = await made.app.request(path, {
		headers: token ? { authorization: `Bearer ${token}` } : {},
	});
	return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

beforeAll(async () => {
	database = await openTestDb();
	made = createRoutesTestApp(database);
	matrix = await setUpPrivacyMatrix(made, (privacy) => ({
		...linePayload(`Matrix ${privacy}`, { privacy, lat: 40.31, km: 3, climb: 40 }),
		description: 'Along the river',
		notes: NOTES,
		markers: [{ lat: 40.325, lng: -76.88, text: 'Water fountain', icon_id: 2016 }],
		city: 'Harrisburg',
		state: 'PA',
		country: 'US',
	}));
	({ owner, friend, stranger } = matrix);
});
afterAll(() => database.close());

describe('FIT course export', () => {
	for (const kind of VIEWERS) {
		for (const privacy of PRIVACIES) {
			const allowed = MAY_VIEW[kind].includes(privacy);
			test(`${kind} ${allowed ? 'downloads' : 'gets 404 for'} the FIT course of a privacy ${privacy} route`, async () => {
				const id = matrix.routeIds[privacy];
				const { response, bytes } = await download(
					`/api/v7.1/route/${id}/fit/${matrix.withLink(kind, privacy)}`,
					matrix.memberOf(kind)?.token,
				);
				expect(response.status).toBe(allowed ? 200 : 404);
				if (!allowed) {
					expect(new TextDecoder().decode(bytes)).not.toContain('Matrix');
					expect(new TextDecoder().decode(bytes)).not.toContain('.FIT');
					return;
				}
				expect(response.headers.get('content-type')).toBe('application/vnd.ant.fit');
				expect(response.headers.get('cache-control')).toBe('private, no-store');
				expect(response.headers.get('content-disposition')).toBe(
					`attachment; filename="Matrix-${privacy}-${id}.fit"; filename*=UTF-8''Matrix%20${privacy}%20${id}.fit`,
				);
				const course = readWorkoutFileSync(bytes);
				expect(course.name).toBe(`Matrix ${privacy}`);
				expect(course.activityType).toBe(16);
				expect(course.points).toHaveLength(11);
				expect(course.points[10].elevation).toBeCloseTo(140, 0);
				expect(course.points[10].distance).toBeCloseTo(3000, -1);
				expect(course.waypoints.map((w) => w.name)).toEqual([
					'Head north on Front St',
					'Turn left onto Market St',
					'Water fountain',
				]);
			});
		}
	}

	test('the GPX and FIT downloads share one path: same rules, same file name, different format', async () => {
		const id = matrix.routeIds[6];
		const query = `?token=${encodeURIComponent(matrix.tokens[6])}`;
		const gpx = await download(`/api/v7.1/route/${id}/gpx/${query}`);
		const fit = await download(`/api/v7.1/route/${id}/fit${query}`);
		expect(gpx.response.status).toBe(200);
		expect(fit.response.status).toBe(200);
		expect(gpx.response.headers.get('content-type')).toBe('application/gpx+xml; charset=utf-8');
		expect(gpx.response.headers.get('content-disposition')).toContain(`filename="Matrix-6-${id}.gpx"`);
		expect(readWorkoutFileSync(gpx.bytes).points.length).toBe(readWorkoutFileSync(fit.bytes).points.length);
		// A wrong token is a 404 for both.
		for (const format of ['gpx', 'fit']) {
			const wrong = await download(`/api/v7.1/route/${id}/${format}/?token=${matrix.tokens[3]}`);
			expect(wrong.response.status).toBe(404);
		}
	});

	test('a route name cannot reach the download header or a path: an ASCII slug, and the words encoded', async () => {
		const created = await api('POST', '/api/v7.1/route/', {
			token: owner.token,
			body: linePayload('../..\\evil "quoted"; filename=x.exe ☕ ünïcode', { privacy: 3 }),
		});
		const { response } = await download(`/api/v7.1/route/${created.json.id}/fit/`);
		expect(response.headers.get('content-disposition')).toBe(
			`attachment; filename="evil-quoted-filename-x.exe-unicode-${created.json.id}.fit"; filename*=UTF-8''evil%20quoted%20%3B%20filename%3Dx.exe%20%E2%98%95%20%C3%BCn%C3%AFcode%20${created.json.id}.fit`,
		);
		const { response: missing } = await download('/api/v7.1/route/999999/fit/');
		expect(missing.status).toBe(404);
		const { response: bad } = await download('/api/v7.1/route/1x/fit/');
		expect([400, 404]).toContain(bad.status);
	});
});

describe('copying a route', () => {
	for (const kind of VIEWERS) {
		for (const privacy of PRIVACIES) {
			const allowed = kind !== 'anonymous' && MAY_VIEW[kind].includes(privacy);
			const expected = kind === 'anonymous' ? 401 : allowed ? 201 : 404;
			test(`${kind} gets ${expected} copying a privacy ${privacy} route`, async () => {
				const copier = matrix.memberOf(kind);
				const before = copier ? await routesOf(copier) : [];
				const response = await api(
					'POST',
					`/api/v7.1/route/${matrix.routeIds[privacy]}/copy/${matrix.withLink(kind, privacy)}`,
					{
						token: copier?.token,
					},
				);
				expect(response.status).toBe(expected);
				if (!copier) return;
				const after = await routesOf(copier);
				if (!allowed) {
					expect(response.text).not.toContain('Matrix');
					expect(after).toHaveLength(before.length);
					return;
				}
				expect(after).toHaveLength(before.length + 1);
				const copy = response.json;
				expect(response.headers.get('location')).toBe(`/api/v7.1/route/${copy.id}/`);
				expect(copy.id).not.toBe(matrix.routeIds[privacy]);
				expect(copy.name).toBe(`Copy of Matrix ${privacy}`);
				expect(copy.privacy).toBe(0);
				expect(copy.version).toBe(1);
				expect(copy._links.user[0].id).toBe(String(copier.id));
				expect(copy.share_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
				expect(copy.share_token).not.toBe(matrix.tokens[privacy]);

				// Same line, heights, notes, segments and totals as the original.
				const original = await api(
					'GET',
					`/api/v7.1/route/${matrix.routeIds[privacy]}/?field_set=detailed_internal`,
					{
						token: owner.token,
					},
				);
				for (const field of [
					'points',
					'notes',
					'cues',
					'markers',
					'segments',
					'distance',
					'total_ascent',
					'total_descent',
					'description',
					'activity_type',
					'city',
					'state',
					'country',
				]) {
					expect(copy[field], field).toEqual(original.json[field]);
				}
				// The original is untouched and still its owner's.
				expect(original.json.name).toBe(`Matrix ${privacy}`);
				expect(original.json.privacy).toBe(privacy);
				expect(original.json.share_token).toBe(matrix.tokens[privacy]);
				expect(original.json._links.user[0].id).toBe(String(owner.id));

				// The copy is private: nobody else sees it, not even with the original's link token.
				for (const other of [owner, friend, stranger].filter((m) => m.id !== copier.id)) {
					const peek = await api('GET', `/api/v7.1/route/${copy.id}/?token=${matrix.tokens[privacy]}`, {
						token: other.token,
					});
					expect(peek.status).toBe(404);
				}
				const mine = await api('GET', `/api/v7.1/route/${copy.id}/`, { token: copier.token });
				expect(mine.status).toBe(200);
			});
		}
	}

	test('fields sent with a copy are refused: no owner, privacy, token or name from the caller (mass assignment)', async () => {
		const before = await routesOf(stranger);
		for (const body of [
			{ owner_id: owner.id },
			{ privacy: 3 },
			{ share_token: matrix.tokens[3], link_token: matrix.tokens[3] },
			{ name: 'Mine now', _links: { user: [{ id: String(owner.id) }] } },
			{ id: matrix.routeIds[3], version: 9 },
		]) {
			const response = await api('POST', `/api/v7.1/route/${matrix.routeIds[3]}/copy/`, {
				token: stranger.token,
				body,
			});
			expect(response.status).toBe(400);
			expect(response.json.error).toBe('validation_failed');
		}
		expect(await routesOf(stranger)).toHaveLength(before.length);

		// Query fields other than the token and field set change nothing either.
		const viaQuery = await api(
			'POST',
			`/api/v7.1/route/${matrix.routeIds[3]}/copy/?privacy=3&user=${owner.id}&owner=${owner.id}`,
			{
				token: stranger.token,
				body: {},
			},
		);
		expect(viaQuery.status).toBe(201);
		expect(viaQuery.json.privacy).toBe(0);
		expect(viaQuery.json._links.user[0].id).toBe(String(stranger.id));
		const ownersRoutes = await routesOf(owner);
		expect(ownersRoutes.map((r) => r.id)).not.toContain(viaQuery.json.id);
	});

	test('a copy keeps a long name within the 100 characters a route name may have', async () => {
		const long = await api('POST', '/api/v7.1/route/', {
			token: owner.token,
			body: linePayload('x'.repeat(100), { privacy: 3 }),
		});
		const copy = await api('POST', `/api/v7.1/route/${long.json.id}/copy/`, { token: friend.token });
		expect(copy.status).toBe(201);
		expect(copy.json.name).toBe(`Copy of ${'x'.repeat(92)}`);
		// The copy can be saved again unchanged: it is a valid route.
		const saved = await api('PUT', `/api/v7.1/route/${copy.json.id}/`, {
			token: friend.token,
			body: { ...linePayload(copy.json.name, { privacy: 0 }), version: copy.json.version },
		});
		expect(saved.status).toBe(200);
	});

	test('copy and FIT export are in the OpenAPI document', async () => {
		const spec = await api('GET', '/api/openapi.json');
		expect(Object.keys(spec.json.paths)).toEqual(
			expect.arrayContaining([
				'/api/v7.1/route/{id}/copy/',
				'/api/v7.1/route/{id}/fit/',
				'/api/v7.1/route/{id}/gpx/',
			]),
		);
		expect(spec.json.paths['/api/v7.1/route/{id}/copy/'].post).toBeDefined();
		expect(spec.json.paths['/api/v7.1/route/{id}/fit/'].get).toBeDefined();
	});
});

describe('opening a route in the planner to edit or copy it (the edit and copy pages)', () => {
	for (const kind of VIEWERS.filter((viewer) => viewer !== 'anonymous')) {
		for (const privacy of PRIVACIES) {
			const mayCopy = MAY_VIEW[kind].includes(privacy);
			const mayEdit = kind === 'owner';
			test(`${kind} ${mayEdit ? 'edits' : 'may not edit'} and ${mayCopy ? 'copies' : 'may not copy'} a privacy ${privacy} route`, async () => {
				const viewer = matrix.memberOf(kind) as Member;
				const id = matrix.routeIds[privacy];
				const url = new URL(`http://test/routes/x/${id}${matrix.withLink(kind, privacy)}`);
				const edit = await openRouteForPlanner(made.deps, viewer, 'edit', String(id), url);
				const copy = await openRouteForPlanner(made.deps, viewer, 'copy', String(id), url);
				expect(edit === null).toBe(!mayEdit);
				expect(copy === null).toBe(!mayCopy);
				if (edit) {
					expect(edit.opened.route.name).toBe(`Matrix ${privacy}`);
					expect(edit.opened.route.privacy).toBe(privacy);
					expect(edit.opened.route.version).toBeGreaterThanOrEqual(1);
					expect(edit.opened.route.points).toHaveLength(11);
				}
				if (copy) {
					expect(copy.opened.route.name).toBe(`Copy of Matrix ${privacy}`);
					expect(copy.opened.route.points).toHaveLength(11);
					expect(copy.opened).not.toHaveProperty('route.share_token');
				}
			});
		}
	}

	test("a copy starts with the copier's default privacy for routes, and a bad id opens nothing", async () => {
		await made.deps.db.update(users).set({ routePrivacy: 1 }).where(eq(users.id, stranger.id));
		const id = matrix.routeIds[3];
		const url = new URL(`http://test/routes/copy/${id}`);
		const copy = await openRouteForPlanner(made.deps, stranger, 'copy', String(id), url);
		expect(copy?.opened.route.privacy).toBe(1);
		await made.deps.db.update(users).set({ routePrivacy: 0 }).where(eq(users.id, stranger.id));
		expect(await openRouteForPlanner(made.deps, stranger, 'copy', '12x', url)).toBeNull();
		expect(await openRouteForPlanner(made.deps, owner, 'edit', '999999', url)).toBeNull();
	});
});
