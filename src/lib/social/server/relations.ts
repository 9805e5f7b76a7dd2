import { and, eq, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../core/server/deps';
import { friendships, memberBlocks } from './tables';

/**
 * Who is whose friend and who blocked whom: what every domain's visibility rules ask. Reads only
 * the social tables, so workouts, routes and stats can ask it without reading the feed.
 */

type Viewer = { id: number } | null;

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

/** True when either member blocked the other. */
export async function isBlockedEitherWay(db: Db, a: number, b: number): Promise<boolean> {
	const rows = await db
		.select({ a: memberBlocks.blockerId })
		.from(memberBlocks)
		.where(
			or(
				and(eq(memberBlocks.blockerId, a), eq(memberBlocks.blockedId, b)),
				and(eq(memberBlocks.blockerId, b), eq(memberBlocks.blockedId, a)),
			),
		)
		.limit(1);
	return rows.length > 0;
}

/**
 * What the privacy policies need to know about a signed-in viewer and an owner: whether they are
 * accepted friends, and whether either blocked the other.
 */
export async function relationBetween(
	db: Db,
	viewer: Viewer,
	ownerId: number,
): Promise<{ isFriend: boolean; blocked: boolean }> {
	if (!viewer || viewer.id === ownerId) return { isFriend: false, blocked: false };
	const blocked = await isBlockedEitherWay(db, viewer.id, ownerId);
	return { isFriend: !blocked && (await areFriends(db, viewer.id, ownerId)), blocked };
}

/** SQL: the member in `column` neither blocked nor was blocked by `viewerId`. */
export function notBlockedWith(viewerId: number, column: AnyPgColumn): SQL {
	// The viewer's few blocks are read once into a hashed set rather than looked for again on every row.
	return sql`${column} not in (select case when ${memberBlocks.blockerId} = ${viewerId} then ${memberBlocks.blockedId} else ${memberBlocks.blockerId} end from ${memberBlocks} where ${memberBlocks.blockerId} = ${viewerId} or ${memberBlocks.blockedId} = ${viewerId})`;
}
