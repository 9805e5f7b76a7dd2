import { users } from '../../../src/lib/auth/server/tables';
import type { AppDeps } from '../../../src/lib/core/server/deps';
import { createRoutesApi } from '../../../src/lib/routes/server/api';
import { addFriendship } from '../../../src/lib/social/server/friendships';
import { allowRecordedData, callApi, createTestApi, createTestDeps, signInAs } from '../../helpers/app';
import type { TestDatabase } from '../../helpers/db';

export type Member = { id: number; username: string; token: string };

export function createRoutesTestApp(database: TestDatabase) {
	const deps = createTestDeps(database.db);
	const app = createTestApi(deps, { routes: [createRoutesApi()] });
	return { deps, app };
}

export async function addMember(deps: AppDeps, username: string): Promise<Member> {
	const [row] = await deps.db
		.insert(users)
		.values({ username, email: `${username}@example.test`, passwordHash: 'x', displayName: `${username} D.` })
		.returning({ id: users.id });
	await allowRecordedData(deps.db, row.id);
	const token = await signInAs(deps, { id: row.id, username, displayName: username, isPremium: false });
	return { id: row.id, username, token };
}

export async function befriend(deps: AppDeps, a: Member, b: Member, status: 'pending' | 'active' = 'active') {
	await addFriendship(deps.db, a.id, b.id, status);
}

/** A straight line north from a start, `km` long, with heights rising `climb` metres. */
export function linePayload(
	name: string,
	options: {
		lat?: number;
		lng?: number;
		km?: number;
		privacy?: 0 | 1 | 3 | 6;
		activity_type?: number;
		climb?: number;
		points?: number;
	} = {},
) {
	const lat = options.lat ?? 40.27;
	const lng = options.lng ?? -76.88;
	const km = options.km ?? 5;
	const count = options.points ?? 11;
	const step = km / 111.195 / (count - 1);
	const climb = options.climb ?? 0;
	return {
		name,
		privacy: options.privacy ?? 3,
		activity_type: options.activity_type ?? 16,
		points: Array.from({ length: count }, (_, i) => ({
			lat: lat + step * i,
			lng,
			order: i,
			travel_mode: 'WALKING',
			ele: 100 + (climb * i) / (count - 1),
		})),
	};
}

export const PRIVACIES = [0, 1, 3, 6] as const;
export type ViewerKind = 'owner' | 'friend' | 'pending' | 'stranger' | 'anonymous' | 'linkHolder';
export const VIEWERS: ViewerKind[] = ['owner', 'friend', 'pending', 'stranger', 'anonymous', 'linkHolder'];

/** Who may see each privacy level, written out rather than computed by the code under test. */
export const MAY_VIEW: Record<ViewerKind, number[]> = {
	owner: [0, 1, 3, 6],
	friend: [1, 3],
	pending: [3],
	stranger: [3],
	anonymous: [3],
	linkHolder: [3, 6],
};

/**
 * Security test 20's cast: an owner with one route per privacy level, an accepted friend, a
 * pending friend and a stranger (who is also the link holder when given a route's token).
 */
export async function setUpPrivacyMatrix(
	made: ReturnType<typeof createRoutesTestApp>,
	routeBody: (privacy: (typeof PRIVACIES)[number]) => Record<string, unknown>,
) {
	const owner = await addMember(made.deps, 'owner');
	const friend = await addMember(made.deps, 'friend');
	const pendingFriend = await addMember(made.deps, 'pending');
	const stranger = await addMember(made.deps, 'stranger');
	await befriend(made.deps, friend, owner, 'active');
	await befriend(made.deps, owner, pendingFriend, 'pending');
	const routeIds: Record<number, number> = {};
	const tokens: Record<number, string> = {};
	for (const privacy of PRIVACIES) {
		const created = await callApi(made.app, 'POST', '/api/v7.1/route/', {
			token: owner.token,
			body: routeBody(privacy),
		});
		if (created.status !== 201)
			throw new Error(`Could not create the privacy ${privacy} route: ${created.text}`);
		routeIds[privacy] = created.json.id;
		tokens[privacy] = created.json.share_token;
	}
	const memberOf = (kind: ViewerKind): Member | undefined =>
		({ owner, friend, pending: pendingFriend, stranger, anonymous: undefined, linkHolder: stranger })[kind];
	/** The query a link holder adds to reach a route; nobody else has it. */
	const withLink = (kind: ViewerKind, privacy: number) =>
		kind === 'linkHolder' ? `?token=${encodeURIComponent(tokens[privacy])}` : '';
	return { owner, friend, pendingFriend, stranger, routeIds, tokens, memberOf, withLink };
}
