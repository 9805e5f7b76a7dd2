import { and, eq, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { friendships } from './tables';

/** True when the two members have an accepted friendship, whoever asked first. */
export async function areFriends(db: Db, a: number, b: number): Promise<boolean> {
	if (a === b) return false;
	const rows = await db
		.select({ id: friendships.id })
		.from(friendships)
		.where(
			and(
				eq(friendships.status, 'active'),
				or(
					and(eq(friendships.fromUserId, a), eq(friendships.toUserId, b)),
					and(eq(friendships.fromUserId, b), eq(friendships.toUserId, a)),
				),
			),
		)
		.limit(1);
	return rows.length > 0;
}

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
