/**
 * The lists of people a member looks through: their friends and requests, members found by name or
 * email, and members suggested to them.
 */
import { and, asc, desc, eq, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import { PRIVACY } from '../../account/privacy';
import { pictureHref } from '../../account/server/presenter';
import { users } from '../../auth/server/tables';
import type { Db } from '../../core/server/deps';
import { FRIENDS_PAGE_SIZE, type PersonView, SEARCH_PAGE_SIZE, SUGGESTED_PAGE_SIZE } from '../contract';
import { notBlockedWith } from './relations';
import {
	type Deps,
	displayNameOf,
	type FriendStatus,
	type FriendshipRow,
	findMember,
	friendStatusOf,
	notFound,
	type UserRow,
} from './social-shared';
import { friendships } from './tables';

export type Person = {
	row: Pick<
		UserRow,
		'id' | 'username' | 'displayName' | 'firstName' | 'lastName' | 'locality' | 'region' | 'profilePrivacy'
	>;
	status: FriendStatus;
};

const personColumns = {
	id: users.id,
	username: users.username,
	displayName: users.displayName,
	firstName: users.firstName,
	lastName: users.lastName,
	locality: users.locality,
	region: users.region,
	profilePrivacy: users.profilePrivacy,
};

/** A person as a list shows them; where they live only when the viewer may see their profile. */
export function representPerson(person: Person): PersonView {
	const { row, status } = person;
	const showsProfile =
		status === 'self' || row.profilePrivacy === 3 || (status === 'friend' && row.profilePrivacy === 1);
	return {
		id: row.id,
		username: row.username,
		display_name: displayNameOf(row),
		...(showsProfile ? { location: { locality: row.locality, region: row.region } } : {}),
		friend_status: status,
		_links: {
			self: [{ href: `/v7.1/user/${row.id}/` }],
			image: [
				{ href: pictureHref(row.username, 'Small'), name: 'small' },
				{ href: pictureHref(row.username, 'Medium'), name: 'medium' },
			],
		},
	};
}

export type PeoplePage = { people: Person[]; totalCount: number; limit: number; offset: number };

/**
 * The viewer's friends (`active`), the people they asked (`pending`, sent) or the people who asked
 * them (`received`), newest first.
 */
export async function listConnections(
	deps: Deps,
	viewer: { id: number },
	kind: 'active' | 'sent' | 'received',
	page: { limit?: number; offset?: number },
): Promise<PeoplePage> {
	const limit = page.limit ?? FRIENDS_PAGE_SIZE;
	const offset = page.offset ?? 0;
	const other = sql`case when ${friendships.fromUserId} = ${viewer.id} then ${friendships.toUserId} else ${friendships.fromUserId} end`;
	const where =
		kind === 'active'
			? and(
					eq(friendships.status, 'active'),
					or(eq(friendships.fromUserId, viewer.id), eq(friendships.toUserId, viewer.id)),
				)
			: kind === 'sent'
				? and(eq(friendships.status, 'pending'), eq(friendships.fromUserId, viewer.id))
				: and(eq(friendships.status, 'pending'), eq(friendships.toUserId, viewer.id));
	const [rows, [{ count }]] = await Promise.all([
		deps.db
			.select(personColumns)
			.from(friendships)
			.innerJoin(users, eq(users.id, other))
			.where(where)
			.orderBy(
				kind === 'active' ? asc(sql`lower(${users.displayName})`) : desc(friendships.createdAt),
				asc(users.id),
			)
			.limit(limit)
			.offset(offset),
		deps.db.select({ count: sql<number>`count(*)::int` }).from(friendships).where(where),
	]);
	const status: FriendStatus = kind === 'active' ? 'friend' : kind;
	return { people: rows.map((row) => ({ row, status })), totalCount: count, limit, offset };
}

function escapeLike(text: string): string {
	return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * SQL: no request either way between the viewer and the member in `users.id`. The viewer's pending
 * requests are read once into a hashed set: probing friendships for each of 11,000 members matching a
 * short name took most of a search's time on PostgreSQL.
 */
function noPendingWith(viewerId: number): SQL {
	return sql`${users.id} not in (select case when ${friendships.fromUserId} = ${viewerId} then ${friendships.toUserId} else ${friendships.fromUserId} end from ${friendships} where ${friendships.status} = 'pending' and (${friendships.fromUserId} = ${viewerId} or ${friendships.toUserId} = ${viewerId}))`;
}

async function statusesFor(db: Db, viewerId: number, ids: number[]): Promise<Map<number, FriendshipRow>> {
	if (ids.length === 0) return new Map();
	const rows = await db
		.select()
		.from(friendships)
		.where(
			or(
				and(eq(friendships.fromUserId, viewerId), inArray(friendships.toUserId, ids)),
				and(eq(friendships.toUserId, viewerId), inArray(friendships.fromUserId, ids)),
			),
		);
	return new Map(rows.map((row) => [row.fromUserId === viewerId ? row.toUserId : row.fromUserId, row]));
}

/**
 * Finds members by the start of their name, first or last name or username, or by exact email for members who let
 * themselves be found that way. Leaves out the viewer, anyone with a request pending either way,
 * blocked members and private profiles.
 */
export async function searchMembers(
	deps: Deps,
	viewer: { id: number },
	text: string,
	page: { limit?: number; offset?: number },
): Promise<PeoplePage> {
	const limit = page.limit ?? SEARCH_PAGE_SIZE;
	const offset = page.offset ?? 0;
	const term = text.trim().toLowerCase();
	if (term.length === 0) return { people: [], totalCount: 0, limit, offset };
	const like = `${escapeLike(term)}%`;
	// Each is the start of an indexed name: display name, first name, last name or username.
	const nameMatch = or(
		sql`lower(${users.displayName}) like ${like}`,
		sql`lower(${users.firstName}) like ${like}`,
		sql`lower(${users.lastName}) like ${like}`,
		sql`lower(${users.username}) like ${like}`,
	) as SQL;
	const emailMatch = term.includes('@')
		? and(sql`lower(${users.email}) = ${term}`, sql`${users.emailSearchPrivacy} <> 0`)
		: undefined;
	const where = and(
		ne(users.id, viewer.id),
		ne(users.profilePrivacy, 0),
		emailMatch ? (or(nameMatch, emailMatch) as SQL) : nameMatch,
		noPendingWith(viewer.id),
		notBlockedWith(viewer.id, users.id),
	);
	const [rows, [{ count }]] = await Promise.all([
		deps.db
			.select(personColumns)
			.from(users)
			.where(where)
			.orderBy(asc(sql`lower(${users.displayName})`), asc(users.id))
			.limit(limit)
			.offset(offset),
		deps.db.select({ count: sql<number>`count(*)::int` }).from(users).where(where),
	]);
	const statuses = await statusesFor(
		deps.db,
		viewer.id,
		rows.map((row) => row.id),
	);
	return {
		people: rows.map((row) => ({
			row,
			status: friendStatusOf(viewer.id, row.id, statuses.get(row.id) ?? null),
		})),
		totalCount: count,
		limit,
		offset,
	};
}

/**
 * People the viewer may know: friends of friends first (most friends in common), then people in the
 * same town, then the same region, then the newest members. Only public profiles, since a suggestion
 * is never a friend and a friends-only profile would open on the not-found page; never operators,
 * the viewer, anyone with a pending request either way or blocked members.
 */
export async function suggestFriends(
	deps: Deps,
	viewer: { id: number },
	page: { limit?: number; offset?: number },
): Promise<PeoplePage> {
	const limit = page.limit ?? SUGGESTED_PAGE_SIZE;
	const offset = page.offset ?? 0;
	const me = await findMember(deps.db, viewer.id);
	if (!me) throw notFound();
	const myFriends = sql`(select case when f.from_user_id = ${viewer.id} then f.to_user_id else f.from_user_id end from ${friendships} f where f.status = 'active' and (f.from_user_id = ${viewer.id} or f.to_user_id = ${viewer.id}))`;
	const mutual = sql<number>`(select count(*)::int from ${friendships} g where g.status = 'active' and ((g.from_user_id = ${users.id} and g.to_user_id in ${myFriends}) or (g.to_user_id = ${users.id} and g.from_user_id in ${myFriends})))`;
	const sameTown = sql<number>`case when ${me.locality} <> '' and lower(${users.locality}) = ${me.locality.toLowerCase()} and lower(${users.region}) = ${me.region.toLowerCase()} then 1 else 0 end`;
	const sameRegion = sql<number>`case when ${me.region} <> '' and lower(${users.region}) = ${me.region.toLowerCase()} and lower(${users.country}) = ${me.country.toLowerCase()} then 1 else 0 end`;
	const where = and(
		ne(users.id, viewer.id),
		eq(users.profilePrivacy, PRIVACY.public),
		eq(users.isAdmin, false),
		sql`not exists (select 1 from ${friendships} h where (h.from_user_id = ${viewer.id} and h.to_user_id = ${users.id}) or (h.to_user_id = ${viewer.id} and h.from_user_id = ${users.id}))`,
		notBlockedWith(viewer.id, users.id),
	);
	const rows = await deps.db
		.select(personColumns)
		.from(users)
		.where(where)
		.orderBy(desc(mutual), desc(sameTown), desc(sameRegion), desc(users.createdAt), desc(users.id))
		.limit(limit)
		.offset(offset);
	return {
		people: rows.map((row) => ({ row, status: 'none' as const })),
		totalCount: offset + rows.length,
		limit,
		offset,
	};
}
