/** Blocking and unblocking a member, and the list of members one has blocked. */
import { and, asc, eq, or } from 'drizzle-orm';
import { users } from '../../auth/server/tables';
import { AppError } from '../../core/errors';
import { type Deps, findMember, notFound } from './social-shared';
import { friendships, memberBlocks } from './tables';

export async function blockMember(deps: Deps, viewer: { id: number }, otherId: number): Promise<void> {
	if (otherId === viewer.id)
		throw new AppError('bad_request', 'You cannot block yourself.', { detail: 'self' });
	if (!(await findMember(deps.db, otherId))) throw notFound('No such member.');
	await deps.db.transaction(async (tx) => {
		await tx
			.insert(memberBlocks)
			.values({ blockerId: viewer.id, blockedId: otherId, createdAt: deps.clock() })
			.onConflictDoNothing();
		await tx
			.delete(friendships)
			.where(
				or(
					and(eq(friendships.fromUserId, viewer.id), eq(friendships.toUserId, otherId)),
					and(eq(friendships.fromUserId, otherId), eq(friendships.toUserId, viewer.id)),
				),
			);
	});
}

export async function unblockMember(deps: Deps, viewer: { id: number }, otherId: number): Promise<void> {
	const removed = await deps.db
		.delete(memberBlocks)
		.where(and(eq(memberBlocks.blockerId, viewer.id), eq(memberBlocks.blockedId, otherId)))
		.returning({ id: memberBlocks.blockedId });
	if (removed.length === 0) throw notFound('You have not blocked this member.');
}

export async function listBlocked(deps: Deps, viewer: { id: number }) {
	return deps.db
		.select({
			id: users.id,
			username: users.username,
			displayName: users.displayName,
			firstName: users.firstName,
			lastName: users.lastName,
		})
		.from(memberBlocks)
		.innerJoin(users, eq(users.id, memberBlocks.blockedId))
		.where(eq(memberBlocks.blockerId, viewer.id))
		.orderBy(asc(users.id));
}
