import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { callApi } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { addMember, createRoutesTestApp, linePayload, type Member } from './helpers';

let database: TestDatabase;
let made: ReturnType<typeof createRoutesTestApp>;
let owner: Member;
let stranger: Member;

beforeAll(async () => {
	database = await openTestDb();
	made = createRoutesTestApp(database);
});
beforeEach(async () => {
	await database.reset();
	owner = await addMember(made.deps, 'owner');
	stranger = await addMember(made.deps, 'stranger');
});
afterAll(() => database.close());

/** What a link holder who is not the owner sees at the route's link. */
const openLink = (id: number, token: string) =>
	callApi(made.app, 'GET', `/api/v7.1/route/${id}/?token=${encodeURIComponent(token)}`, {
		token: stranger.token,
	});

async function createLinkOnlyRoute(): Promise<{ id: number; token: string }> {
	const created = await callApi(made.app, 'POST', '/api/v7.1/route/', {
		token: owner.token,
		body: linePayload('Shared loop', { privacy: 6 }),
	});
	expect(created.status).toBe(201);
	return { id: created.json.id, token: created.json.share_token };
}

/** Saves the route again through PUT with only its privacy changed; answers the share token. */
async function saveWithPrivacy(id: number, privacy: 0 | 1 | 3 | 6): Promise<string> {
	const current = await callApi(made.app, 'GET', `/api/v7.1/route/${id}/`, { token: owner.token });
	const saved = await callApi(made.app, 'PUT', `/api/v7.1/route/${id}/`, {
		token: owner.token,
		body: { ...linePayload('Shared loop', { privacy }), version: current.json.version },
	});
	expect(saved.status, saved.text).toBe(200);
	expect(saved.json.privacy).toBe(privacy);
	return saved.json.share_token;
}

async function toggleTo(id: number, privacy: 0 | 1 | 3 | 6): Promise<string> {
	const toggled = await callApi(
		made.app,
		'GET',
		`/api/_api/social/privacy_toggle/?content_type_id=1&object_id=${id}&set_privacy_to=${privacy}`,
		{ token: owner.token },
	);
	expect(toggled.status, toggled.text).toBe(200);
	expect(toggled.json.privacy).toBe(privacy);
	return toggled.json.share_token;
}

describe('a link-only route that leaves link-only and comes back has a new link', () => {
	test.each([
		['a save (PUT)', saveWithPrivacy],
		['the privacy toggle', toggleTo],
	] as const)('through %s: the old link stays dead, the new one works', async (_path, change) => {
		const route = await createLinkOnlyRoute();
		expect((await openLink(route.id, route.token)).status).toBe(200);

		await change(route.id, 0);
		expect((await openLink(route.id, route.token)).status).toBe(404);
		const newToken = await change(route.id, 6);

		expect(newToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
		expect(newToken).not.toBe(route.token);
		expect((await openLink(route.id, route.token)).status).toBe(404);
		expect((await openLink(route.id, newToken)).status).toBe(200);
	});

	test.each([
		['a save (PUT)', saveWithPrivacy],
		['the privacy toggle', toggleTo],
	] as const)('through %s: staying link-only keeps the link that was handed out', async (_path, change) => {
		const route = await createLinkOnlyRoute();
		expect(await change(route.id, 6)).toBe(route.token);
		expect((await openLink(route.id, route.token)).status).toBe(200);
	});

	test('a PUT that leaves privacy out keeps a link-only route’s link', async () => {
		const route = await createLinkOnlyRoute();
		const { privacy: _left, ...body } = linePayload('Renamed loop', { privacy: 6 });
		const saved = await callApi(made.app, 'PUT', `/api/v7.1/route/${route.id}/`, {
			token: owner.token,
			body: { ...body, version: 1 },
		});
		expect(saved.status).toBe(200);
		expect(saved.json.share_token).toBe(route.token);
		expect((await openLink(route.id, route.token)).json.name).toBe('Renamed loop');
	});

	test('mixing both paths: toggled away and saved back to link-only, the first link stays dead', async () => {
		const route = await createLinkOnlyRoute();
		await toggleTo(route.id, 3);
		const newToken = await saveWithPrivacy(route.id, 6);
		expect(newToken).not.toBe(route.token);
		expect((await openLink(route.id, route.token)).status).toBe(404);
		expect((await openLink(route.id, newToken)).status).toBe(200);
	});
});
