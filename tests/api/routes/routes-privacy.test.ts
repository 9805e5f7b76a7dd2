import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { callApi } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import {
	createRoutesTestApp,
	linePayload,
	MAY_VIEW,
	PRIVACIES,
	setUpPrivacyMatrix,
	VIEWERS,
	type ViewerKind,
} from './helpers';

/**
 * Security test 20: viewer × privacy × representation. Exactly the allowed cells return data; the
 * others answer 404 and leave the route out of lists, counts and search.
 */
let database: TestDatabase;
let app: ReturnType<typeof createRoutesTestApp>['app'];
let matrix: Awaited<ReturnType<typeof setUpPrivacyMatrix>>;

/** Lists, counts, search and bookmarks leave out linkable routes even for a link holder. */
const MAY_LIST: Record<ViewerKind, number[]> = { ...MAY_VIEW, linkHolder: [3] };

beforeAll(async () => {
	database = await openTestDb();
	const made = createRoutesTestApp(database);
	app = made.app;
	matrix = await setUpPrivacyMatrix(made, (privacy) =>
		linePayload(`Matrix ${privacy}`, { privacy, lat: 40.3 }),
	);
});
afterAll(() => database.close());

describe('canView matrix', () => {
	for (const kind of VIEWERS) {
		for (const privacy of PRIVACIES) {
			const allowed = MAY_VIEW[kind].includes(privacy);
			test(`${kind} ${allowed ? 'sees' : 'gets 404 for'} the detail and GPX of a privacy ${privacy} route`, async () => {
				const id = matrix.routeIds[privacy];
				const detail = await callApi(app, 'GET', `/api/v7.1/route/${id}/${matrix.withLink(kind, privacy)}`, {
					token: matrix.memberOf(kind)?.token,
				});
				expect(detail.status).toBe(allowed ? 200 : 404);
				if (allowed) expect(detail.json.name).toBe(`Matrix ${privacy}`);
				else expect(detail.text).not.toContain('Matrix');

				const gpx = await callApi(app, 'GET', `/api/v7.1/route/${id}/gpx/${matrix.withLink(kind, privacy)}`, {
					token: matrix.memberOf(kind)?.token,
				});
				expect(gpx.status).toBe(allowed ? 200 : 404);
				if (allowed) expect(gpx.text).toContain('<trkpt');
				else expect(gpx.text).not.toContain('<trkpt');
			});
		}

		test(`${kind} finds exactly the listable routes in list, search, count and batch`, async () => {
			const expected = MAY_LIST[kind].map((privacy) => matrix.routeIds[privacy]).sort();
			const token = matrix.memberOf(kind)?.token;
			const list = await callApi(app, 'GET', `/api/v7.1/route/?user=${matrix.owner.id}`, { token });
			expect(list.json._embedded.routes.map((r: { id: number }) => r.id).sort()).toEqual(expected);
			expect(list.json.total_count).toBe(expected.length);

			const search = await callApi(
				app,
				'GET',
				'/api/v7.1/route/?close_to_location=40.3,-76.88&search_radius=5000&text_search=Matrix',
				{ token },
			);
			expect(search.json._embedded.routes.map((r: { id: number }) => r.id).sort()).toEqual(expected);
			expect(search.json.total_count).toBe(expected.length);

			const batch = await callApi(
				app,
				'GET',
				`/api/v7.1/route/${PRIVACIES.map((p) => matrix.routeIds[p]).join(',')}/`,
				{
					token,
				},
			);
			expect(batch.status).toBe(200);
			expect(batch.json._embedded.routes.map((r: { id: number }) => r.id).sort()).toEqual(expected);
		});

		test(`${kind} can bookmark only routes they can list`, async () => {
			const token = matrix.memberOf(kind)?.token;
			for (const privacy of PRIVACIES) {
				const response = await callApi(app, 'POST', '/api/v7.1/route_bookmark/', {
					token,
					body: {
						_links: {
							route: [
								{ href: `/v7.1/route/${matrix.routeIds[privacy]}/`, id: String(matrix.routeIds[privacy]) },
							],
						},
					},
				});
				if (!token) expect(response.status).toBe(401);
				else expect([200, 201].includes(response.status)).toBe(MAY_LIST[kind].includes(privacy));
			}
		});
	}

	test('a linkable route answers 404 to its id without the token, and to a wrong or guessed token', async () => {
		const id = matrix.routeIds[6];
		expect(matrix.tokens[6]).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits of base64url
		// The real token with its last character changed: always a different token, whatever it ends in.
		const nearMiss = `${matrix.tokens[6].slice(0, -1)}${matrix.tokens[6].endsWith('A') ? 'B' : 'A'}`;
		for (const suffix of [
			'',
			'?token=',
			`?token=${matrix.tokens[3]}`,
			`?token=${nearMiss}`,
			`?token=${id}`,
		]) {
			const response = await callApi(app, 'GET', `/api/v7.1/route/${id}/${suffix}`, {
				token: matrix.stranger.token,
			});
			expect(response.status).toBe(404);
		}
	});

	test('only the owner sees the link token', async () => {
		const byOwner = await callApi(app, 'GET', `/api/v7.1/route/${matrix.routeIds[3]}/`, {
			token: matrix.owner.token,
		});
		expect(byOwner.json.share_token).toBe(matrix.tokens[3]);
		const byFriend = await callApi(app, 'GET', `/api/v7.1/route/${matrix.routeIds[3]}/`, {
			token: matrix.friend.token,
		});
		expect(byFriend.json.share_token).toBeUndefined();
		const list = await callApi(app, 'GET', '/api/v7.1/route/', { token: matrix.stranger.token });
		expect(list.text).not.toContain(matrix.tokens[3]);
		expect(list.text).not.toContain(matrix.tokens[6]);
	});

	test('writes are the owner’s alone: others get 404, anonymous callers 401', async () => {
		for (const privacy of PRIVACIES) {
			const id = matrix.routeIds[privacy];
			for (const member of [matrix.friend, matrix.stranger]) {
				const put = await callApi(app, 'PUT', `/api/v7.1/route/${id}/`, {
					token: member.token,
					body: linePayload('Hijacked'),
				});
				expect(put.status).toBe(404);
				expect((await callApi(app, 'DELETE', `/api/v7.1/route/${id}/`, { token: member.token })).status).toBe(
					404,
				);
				const toggle = await callApi(
					app,
					'GET',
					`/api/_api/social/privacy_toggle/?content_type_id=1&object_id=${id}&set_privacy_to=3`,
					{ token: member.token },
				);
				expect(toggle.status).toBe(404);
			}
			expect(
				(await callApi(app, 'PUT', `/api/v7.1/route/${id}/`, { body: linePayload('Anon') })).status,
			).toBe(401);
			expect((await callApi(app, 'DELETE', `/api/v7.1/route/${id}/`)).status).toBe(401);
			const stillThere = await callApi(app, 'GET', `/api/v7.1/route/${id}/`, { token: matrix.owner.token });
			expect(stillThere.json.name).toBe(`Matrix ${privacy}`);
			expect(stillThere.json.privacy).toBe(privacy);
		}
	});
});
