/**
 * What every social use case shares: the world it takes, its not-found answer, and how two members
 * stand and are named.
 */
import { and, eq, or } from 'drizzle-orm';
import { users } from '../../auth/server/tables';
import { AppError } from '../../core/errors';
import type { AppDeps, Db } from '../../core/server/deps';
import { friendships } from './tables';

export type Deps = Pick<AppDeps, 'db' | 'clock'>;
export type UserRow = typeof users.$inferSelect;

export const notFound = (message = 'Not found.') =>
	new AppError('not_found', message, { detail: 'not_found' });

export type FriendshipRow = typeof friendships.$inferSelect;

/** The friendship row between two members in either direction, if any. */
export async function friendshipBetween(db: Db, a: number, b: number): Promise<FriendshipRow | null> {
	const [row] = await db
		.select()
		.from(friendships)
		.where(
			or(
				and(eq(friendships.fromUserId, a), eq(friendships.toUserId, b)),
				and(eq(friendships.fromUserId, b), eq(friendships.toUserId, a)),
			),
		)
		.limit(1);
	return row ?? null;
}

export type FriendStatus = 'self' | 'friend' | 'sent' | 'received' | 'none';

export function friendStatusOf(viewerId: number, otherId: number, row: FriendshipRow | null): FriendStatus {
	if (viewerId === otherId) return 'self';
	if (!row) return 'none';
	if (row.status === 'active') return 'friend';
	return row.fromUserId === viewerId ? 'sent' : 'received';
}

export async function findMember(db: Db, id: number): Promise<UserRow | null> {
	const [row] = await db.select().from(users).where(eq(users.id, id));
	return row ?? null;
}

export function displayNameOf(
	row: Pick<UserRow, 'displayName' | 'firstName' | 'lastName' | 'username'>,
): string {
	return (
		row.displayName ||
		`${row.firstName} ${row.lastName ? `${row.lastName.slice(0, 1)}.` : ''}`.trim() ||
		row.username
	);
}

export const actorColumns = {
	id: users.id,
	username: users.username,
	displayName: users.displayName,
	firstName: users.firstName,
	lastName: users.lastName,
};
