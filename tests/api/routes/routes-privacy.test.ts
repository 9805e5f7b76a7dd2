import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { callApi } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { addMember, befriend, createRoutesTestApp, linePayload, type Member } from './helpers';

/**
 * Security test 20: viewer × privacy × representation. Exactly the allowed cells return data; the
 * others answer 404 and leave the route out of lists, counts and search.
 */
let database: TestDatabase;
let app: ReturnType<typeof createRoutesTestApp>['app'];
let owner: Member;
let friend: Member;
let pendingFriend: Member;
let stranger: Member;
const routeIds: Record<number, number> = {};
const tokens: Record<number, string> = {};

const PRIVACIES = [0, 1, 3, 6] as const;
type ViewerKind = 'owner' | 'friend' | 'pending' | 'stranger' | 'anonymous' | 'linkHolder';
const VIEWERS: ViewerKind[] = ['owner', 'friend', 'pending', 'stranger', 'anonymous', 'linkHolder'];

/** The allowed cells of the matrix, written out rather than computed by the code under test. */
const MAY_VIEW: Record<ViewerKind, number[]> = {
	owner: [0, 1, 3, 6],
	friend: [1, 3],
	pending: [3],
	stranger: [3],
	anonymous: [3],
	linkHolder: [3, 6],
};
const MAY_LIST: Record<ViewerKind, number[]> = {
	owner: [0, 1, 3, 6],
	friend: [1, 3],
	pending: [3],
	stranger: [3],
	anonymous: [3],
	linkHolder: [3],
};

function tokenOf(kind: ViewerKind): string | undefined {
	return { owner, friend, pending: pendingFriend, stranger, anonymous: undefined, linkHolder: stranger }[kind]
		?.token;
}
const withLink = (kind: ViewerKind, privacy: number) =>
	kind === 'linkHolder' ? `?token=${encodeURIComponent(tokens[privacy])}` : '';

beforeAll(async () => {
	database = await openTestDb();
	const made = createRoutesTestApp(database);
	app = made.app;
	owner = await addMember(made.deps, 'owner');
	friend = await addMember(made.deps, 'friend');
	pendingFriend = await addMember(made.deps, 'pending');
	stranger = await addMember(made.deps, 'stranger');
	await befriend(made.deps, friend, owner, 'active');
	await befriend(made.deps, owner, pendingFriend, 'pending');
	for (const privacy of PRIVACIES) {
		const created = await callApi(app, 'POST', '/api/v7.1/route/', {
			token: owner.token,
			body: linePayload(`Matrix ${privacy}`, { privacy, lat: 40.3 }),
		});
		expect(created.status).toBe(201);
		routeIds[privacy] = created.json.id;
		tokens[privacy] = created.json.share_token;
	}
});
afterAll(() => database.close());

describe('canView matrix', () => {
	for (const kind of VIEWERS) {
		for (const privacy of PRIVACIES) {
			const allowed = MAY_VIEW[kind].includes(privacy);
			test(`${kind} ${allowed ? 'sees' : 'gets 404 for'} the detail and GPX of a privacy ${privacy} route`, async () => {
				const id = routeIds[privacy];
				const detail = await callApi(app, 'GET', `/api/v7.1/route/${id}/${withLink(kind, privacy)}`, {
					token: tokenOf(kind),
				});
				expect(detail.status).toBe(allowed ? 200 : 404);
				if (allowed) expect(detail.json.name).toBe(`Matrix ${privacy}`);
				else expect(detail.text).not.toContain('Matrix');

				const gpx = await callApi(app, 'GET', `/api/v7.1/route/${id}/gpx/${withLink(kind, privacy)}`, {
					token: tokenOf(kind),
				});
				expect(gpx.status).toBe(allowed ? 200 : 404);
				if (allowed) expect(gpx.text).toContain('<trkpt');
				else expect(gpx.text).not.toContain('<trkpt');
			});
		}

		test(`${kind} finds exactly the listable routes in list, search, count and batch`, async () => {
			const expected = MAY_LIST[kind].map((privacy) => routeIds[privacy]).sort();
			const token = tokenOf(kind);
			const list = await callApi(app, 'GET', `/api/v7.1/route/?user=${owner.id}`, { token });
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
				`/api/v7.1/route/${PRIVACIES.map((p) => routeIds[p]).join(',')}/`,
				{
					token,
				},
			);
			expect(batch.status).toBe(200);
			expect(batch.json._embedded.routes.map((r: { id: number }) => r.id).sort()).toEqual(expected);
		});

		test(`${kind} can bookmark only routes they can list`, async () => {
			const token = tokenOf(kind);
			for (const privacy of PRIVACIES) {
				const response = await callApi(app, 'POST', '/api/v7.1/route_bookmark/', {
					token,
					body: {
						_links: { route: [{ href: `/v7.1/route/${routeIds[privacy]}/`, id: String(routeIds[privacy]) }] },
					},
				});
				if (!token) expect(response.status).toBe(401);
				else expect([200, 201].includes(response.status)).toBe(MAY_LIST[kind].includes(privacy));
			}
		});
	}

	test('a linkable route answers 404 to its id without the token, and to a wrong or guessed token', async () => {
		const id = routeIds[6];
		expect(tokens[6]).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits of base64url
		for (const suffix of [
			'',
			'?token=',
			`?token=${tokens[3]}`,
			`?token=${tokens[6].slice(0, -1)}A`,
			`?token=${id}`,
		]) {
			const response = await callApi(app, 'GET', `/api/v7.1/route/${id}/${suffix}`, {
				token: stranger.token,
			});
			expect(response.status).toBe(404);
		}
	});

	test('only the owner sees the link token', async () => {
		const byOwner = await callApi(app, 'GET', `/api/v7.1/route/${routeIds[3]}/`, { token: owner.token });
		expect(byOwner.json.share_token).toBe(tokens[3]);
		const byFriend = await callApi(app, 'GET', `/api/v7.1/route/${routeIds[3]}/`, { token: friend.token });
		expect(byFriend.json.share_token).toBeUndefined();
		const list = await callApi(app, 'GET', '/api/v7.1/route/', { token: stranger.token });
		expect(list.text).not.toContain(tokens[3]);
		expect(list.text).not.toContain(tokens[6]);
	});

	test('writes are the owner’s alone: others get 404, anonymous callers 401', async () => {
		for (const privacy of PRIVACIES) {
			const id = routeIds[privacy];
			for (const member of [friend, stranger]) {
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
			const stillThere = await callApi(app, 'GET', `/api/v7.1/route/${id}/`, { token: owner.token });
			expect(stillThere.json.name).toBe(`Matrix ${privacy}`);
			expect(stillThere.json.privacy).toBe(privacy);
		}
	});
});
