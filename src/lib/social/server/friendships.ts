/** Friend requests and friendships: asking, accepting, declining, unfriending and listing them. */
import { and, desc, eq, or, type SQL, sql } from 'drizzle-orm';
import { AppError } from '../../core/errors';
import type { AppDeps, Db } from '../../core/server/deps';
import { queueMailJob } from '../../mail/server/service';
import { FRIENDS_PAGE_SIZE, type FriendshipStatus } from '../contract';
import { isBlockedEitherWay } from './relations';
import {
	type Deps,
	displayNameOf,
	type FriendshipRow,
	findMember,
	friendshipBetween,
	notFound,
	type UserRow,
} from './social-shared';
import { friendships } from './tables';

/** Records a friendship; used by the demo seed and tests until the social issue adds requests. */
export async function addFriendship(
	db: Db,
	fromUserId: number,
	toUserId: number,
	status: 'pending' | 'active',
): Promise<void> {
	await db
		.insert(friendships)
		.values({ fromUserId, toUserId, status })
		.onConflictDoUpdate({ target: [friendships.fromUserId, friendships.toUserId], set: { status } });
}

/**
 * Asks `toId` to be friends. Asking someone who already asked the viewer accepts their request; asking
 * again answers the existing request. A blocked or missing member is "not found" either way.
 */
export async function requestFriendship(
	deps: Pick<AppDeps, 'db' | 'clock' | 'config' | 'logger'>,
	viewer: { id: number },
	toId: number,
): Promise<FriendshipRow> {
	if (toId === viewer.id)
		throw new AppError('bad_request', 'You cannot befriend yourself.', { detail: 'self' });
	const target = await findMember(deps.db, toId);
	if (!target || (await isBlockedEitherWay(deps.db, viewer.id, toId))) throw notFound('No such member.');
	const existing = await friendshipBetween(deps.db, viewer.id, toId);
	if (existing) {
		if (existing.status === 'pending' && existing.toUserId === viewer.id) {
			const [accepted] = await deps.db
				.update(friendships)
				.set({ status: 'active' })
				.where(eq(friendships.id, existing.id))
				.returning();
			return accepted;
		}
		return existing;
	}
	const [created] = await deps.db
		.insert(friendships)
		.values({ fromUserId: viewer.id, toUserId: toId, status: 'pending', createdAt: deps.clock() })
		.onConflictDoNothing()
		.returning();
	if (created) mailFriendRequest(deps, viewer.id, target);
	return created ?? ((await friendshipBetween(deps.db, viewer.id, toId)) as FriendshipRow);
}

/** Tells the member asked, unless they turned friend-request e-mails off; the request never waits on it. */
function mailFriendRequest(
	deps: Pick<AppDeps, 'db' | 'clock' | 'config' | 'logger'>,
	fromId: number,
	to: UserRow,
) {
	queueMailJob(deps, async () => {
		const from = await findMember(deps.db, fromId);
		if (!from) return null;
		const name = displayNameOf(from);
		return {
			to: to.email,
			userId: to.id,
			category: 'friend_requests',
			subject: `${name} wants to be your friend on Mapstride`,
			text: `Hi ${to.firstName || to.username},\n\n${name} asked to be your friend on Mapstride. Friends see each other's workouts and can cheer each other on.\n\nAccept or decline the request here:\n${deps.config.publicUrl}/people/friends/\n`,
		};
	});
}

/** The friendship `fromId`→`toId` as one of the two members sees it; anyone else gets 404. */
export async function getFriendship(
	deps: Deps,
	viewer: { id: number },
	fromId: number,
	toId: number,
): Promise<FriendshipRow> {
	if (viewer.id !== fromId && viewer.id !== toId) throw notFound('No such friendship.');
	const [row] = await deps.db
		.select()
		.from(friendships)
		.where(and(eq(friendships.fromUserId, fromId), eq(friendships.toUserId, toId)));
	if (!row) throw notFound('No such friendship.');
	return row;
}

/** Only the member asked accepts a request. */
export async function acceptFriendship(
	deps: Deps,
	viewer: { id: number },
	fromId: number,
	toId: number,
): Promise<FriendshipRow> {
	const row = await getFriendship(deps, viewer, fromId, toId);
	if (row.status === 'active') return row;
	if (viewer.id !== toId)
		throw new AppError('forbidden', 'Only the member asked can accept a request.', { detail: 'forbidden' });
	const [accepted] = await deps.db
		.update(friendships)
		.set({ status: 'active' })
		.where(eq(friendships.id, row.id))
		.returning();
	return accepted;
}

/** Denying, withdrawing a request and unfriending are the same: the row goes. */
export async function removeFriendship(
	deps: Deps,
	viewer: { id: number },
	fromId: number,
	toId: number,
): Promise<void> {
	const row = await getFriendship(deps, viewer, fromId, toId);
	await deps.db.delete(friendships).where(eq(friendships.id, row.id));
}

/** Unfriends whoever the viewer is friends with or has a request with, whichever direction. */
export async function endFriendshipWith(
	deps: Deps,
	viewer: { id: number },
	otherId: number,
): Promise<boolean> {
	const row = await friendshipBetween(deps.db, viewer.id, otherId);
	if (!row) return false;
	await deps.db.delete(friendships).where(eq(friendships.id, row.id));
	return true;
}

/** The viewer's friendship rows, optionally narrowed; never anyone else's. */
export async function listFriendships(
	deps: Deps,
	viewer: { id: number },
	query: { from_user?: number; to_user?: number; status?: FriendshipStatus; limit?: number; offset?: number },
) {
	if (
		(query.from_user !== undefined && query.from_user !== viewer.id && query.to_user !== viewer.id) ||
		(query.to_user !== undefined && query.to_user !== viewer.id && query.from_user !== viewer.id)
	)
		throw new AppError('forbidden', 'You can only list your own friendships.', { detail: 'forbidden' });
	const conditions: SQL[] = [
		or(eq(friendships.fromUserId, viewer.id), eq(friendships.toUserId, viewer.id)) as SQL,
	];
	if (query.from_user !== undefined) conditions.push(eq(friendships.fromUserId, query.from_user));
	if (query.to_user !== undefined) conditions.push(eq(friendships.toUserId, query.to_user));
	if (query.status) conditions.push(eq(friendships.status, query.status));
	const where = and(...conditions);
	const limit = query.limit ?? FRIENDS_PAGE_SIZE;
	const offset = query.offset ?? 0;
	const [rows, [{ count }]] = await Promise.all([
		deps.db
			.select()
			.from(friendships)
			.where(where)
			.orderBy(desc(friendships.createdAt), desc(friendships.id))
			.limit(limit)
			.offset(offset),
		deps.db.select({ count: sql<number>`count(*)::int` }).from(friendships).where(where),
	]);
	return { rows, totalCount: count, limit, offset };
}
