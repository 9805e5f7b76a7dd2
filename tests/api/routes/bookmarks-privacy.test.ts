import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { callApi } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { addMember, createRoutesTestApp, linePayload, type Member } from './helpers';

let database: TestDatabase;
let made: ReturnType<typeof createRoutesTestApp>;
let alice: Member;
let bob: Member;
let carol: Member;

const api = (method: string, path: string, token?: string, body?: unknown) =>
	callApi(made.app, method, path, { token, body });
const bookmarkBody = (routeId: number, userId?: number) => ({
	_links: {
		route: [{ href: `/v7.1/route/${routeId}/`, id: String(routeId) }],
		...(userId ? { user: [{ href: `/v7.1/user/${userId}/`, id: String(userId) }] } : {}),
	},
});
const toggle = (id: number, to: number) =>
	`/api/_api/social/privacy_toggle/?content_type_id=1&object_id=${id}&set_privacy_to=${to}`;

beforeAll(async () => {
	database = await openTestDb();
	made = createRoutesTestApp(database);
});
beforeEach(async () => {
	await database.reset();
	alice = await addMember(made.deps, 'alice');
	bob = await addMember(made.deps, 'bob');
	carol = await addMember(made.deps, 'carol');
});
afterAll(() => database.close());

async function aliceRoute(name: string, privacy: 0 | 1 | 3 | 6 = 3): Promise<number> {
	const response = await api('POST', '/api/v7.1/route/', alice.token, linePayload(name, { privacy }));
	return response.json.id;
}

describe('route bookmarks', () => {
	test('creates with HAL links, is idempotent, lists only the member’s own, deletes only their own', async () => {
		const id = await aliceRoute('Bookmarked');
		const created = await api('POST', '/api/v7.1/route_bookmark/', bob.token, bookmarkBody(id, bob.id));
		expect(created.status).toBe(201);
		expect(created.json._links.route).toEqual([{ href: `/v7.1/route/${id}/`, id: String(id) }]);
		expect(created.json._links.user).toEqual([{ href: `/v7.1/user/${bob.id}/`, id: String(bob.id) }]);
		const again = await api('POST', '/api/v7.1/route_bookmark/', bob.token, bookmarkBody(id));
		expect(again.status).toBe(200);
		expect(again.json.id).toBe(created.json.id);

		const list = await api('GET', '/api/v7.1/route_bookmark/', bob.token);
		expect(list.json.total_count).toBe(1);
		expect(list.json._embedded.route_bookmarks[0].route.name).toBe('Bookmarked');
		expect((await api('GET', '/api/v7.1/route_bookmark/', carol.token)).json.total_count).toBe(0);
		expect((await api('GET', `/api/v7.1/route_bookmark/?user=${bob.id}`, carol.token)).status).toBe(403);
		expect((await api('GET', '/api/v7.1/route_bookmark/')).status).toBe(401);

		expect((await api('DELETE', `/api/v7.1/route_bookmark/${created.json.id}/`, carol.token)).status).toBe(
			404,
		);
		expect((await api('DELETE', `/api/v7.1/route_bookmark/${created.json.id}`, bob.token)).status).toBe(204);
		expect((await api('GET', '/api/v7.1/route_bookmark/', bob.token)).json.total_count).toBe(0);
	});

	test('refuses bookmarking for someone else, unknown fields and hidden routes', async () => {
		const id = await aliceRoute('Public');
		expect(
			(await api('POST', '/api/v7.1/route_bookmark/', bob.token, bookmarkBody(id, carol.id))).status,
		).toBe(403);
		expect(
			(await api('POST', '/api/v7.1/route_bookmark/', bob.token, { ...bookmarkBody(id), user_id: carol.id }))
				.status,
		).toBe(400);
		const hidden = await aliceRoute('Private', 0);
		expect((await api('POST', '/api/v7.1/route_bookmark/', bob.token, bookmarkBody(hidden))).status).toBe(
			404,
		);
		expect((await api('POST', '/api/v7.1/route_bookmark/', bob.token, bookmarkBody(999999))).status).toBe(
			404,
		);
	});

	test('a bookmarked route that turns private leaves the list and the count, and comes back when public again', async () => {
		const id = await aliceRoute('Changing');
		await api('POST', '/api/v7.1/route_bookmark/', bob.token, bookmarkBody(id));
		expect((await api('GET', toggle(id, 0), alice.token)).status).toBe(200);
		const hidden = await api('GET', '/api/v7.1/route_bookmark/', bob.token);
		expect(hidden.json.total_count).toBe(0);
		expect(hidden.text).not.toContain('Changing');
		await api('GET', toggle(id, 3), alice.token);
		expect((await api('GET', '/api/v7.1/route_bookmark/', bob.token)).json.total_count).toBe(1);
	});

	test('pages bookmarks with next links', async () => {
		for (let i = 0; i < 5; i++) {
			const id = await aliceRoute(`R${i}`);
			await api('POST', '/api/v7.1/route_bookmark/', bob.token, bookmarkBody(id));
		}
		const page = await api('GET', '/api/v7.1/route_bookmark/?limit=2', bob.token);
		expect(page.json.total_count).toBe(5);
		expect(page.json._embedded.route_bookmarks).toHaveLength(2);
		expect(page.json._links.next[0].href).toBe('/v7.1/route_bookmark/?limit=2&offset=2');
	});
});

describe('privacy toggle', () => {
	test('the owner moves a route between levels; the answer carries the new level', async () => {
		const id = await aliceRoute('Toggle', 0);
		for (const level of [1, 3, 6, 0]) {
			const response = await api('GET', toggle(id, level), alice.token);
			expect(response.status).toBe(200);
			expect(response.json).toMatchObject({ content_type_id: 1, object_id: id, privacy: level });
			expect((await api('GET', `/api/v7.1/route/${id}/`, alice.token)).json.privacy).toBe(level);
		}
	});

	test('others get 404, anonymous 401, bad values 400', async () => {
		const id = await aliceRoute('Mine', 0);
		expect((await api('GET', toggle(id, 3), bob.token)).status).toBe(404);
		expect((await api('GET', toggle(id, 3))).status).toBe(401);
		expect((await api('GET', toggle(id, 2), alice.token)).status).toBe(400);
		expect(
			(
				await api(
					'GET',
					`/api/_api/social/privacy_toggle/?content_type_id=2&object_id=${id}&set_privacy_to=3`,
					alice.token,
				)
			).status,
		).toBe(400);
		expect((await api('GET', `/api/v7.1/route/${id}/`, bob.token)).status).toBe(404);
	});

	test('leaving link-only retires the old link, and rotating the link kills the old token (security test 21)', async () => {
		const id = await aliceRoute('Linked', 6);
		const first = (await api('GET', `/api/v7.1/route/${id}/`, alice.token)).json.share_token as string;
		expect((await api('GET', `/api/v7.1/route/${id}/?token=${first}`)).status).toBe(200);
		await api('GET', toggle(id, 0), alice.token);
		const back = await api('GET', toggle(id, 6), alice.token);
		expect(back.json.share_token).not.toBe(first);
		expect((await api('GET', `/api/v7.1/route/${id}/?token=${first}`)).status).toBe(404);
		expect((await api('GET', `/api/v7.1/route/${id}/?token=${back.json.share_token}`)).status).toBe(200);

		expect((await api('POST', `/api/v7.1/route/${id}/rotate_link/`, bob.token)).status).toBe(404);
		const rotated = await api('POST', `/api/v7.1/route/${id}/rotate_link/`, alice.token);
		expect(rotated.json.share_token).not.toBe(back.json.share_token);
		expect((await api('GET', `/api/v7.1/route/${id}/?token=${back.json.share_token}`)).status).toBe(404);
		expect((await api('GET', `/api/v7.1/route/${id}/gpx/?token=${rotated.json.share_token}`)).status).toBe(
			200,
		);
	});
});
