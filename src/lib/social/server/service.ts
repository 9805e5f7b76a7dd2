import { and, asc, desc, eq, getTableColumns, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { canView as canViewProfile, PRIVACY } from '../../account/privacy';
import { locationPrivacyOfMany } from '../../account/server/location-privacy';
import { pictureHref } from '../../account/server/presenter';
import { link } from '../../api/hal';
import { users } from '../../auth/server/tables';
import { formatApiDateTime } from '../../core/dates';
import { AppError } from '../../core/errors';
import type { AppDeps, Db } from '../../core/server/deps';
import { queueMailJob } from '../../mail/server/service';
import { canList as canListRoute } from '../../routes/policy';
import { decodePath, getVisibleRoute, type RouteWithOwner } from '../../routes/server/access';
import { routes } from '../../routes/server/tables';
import { hideRouteInZones } from '../../routes/zones';
import { canView as canViewWorkout } from '../../workouts/policy';
import { photosOfWorkouts } from '../../workouts/server/photos';
import { recordingForViewer } from '../../workouts/server/recording';
import {
	getVisibleWorkout,
	getWorkoutSeriesMany,
	type WorkoutWithOwner,
} from '../../workouts/server/service';
import { workouts } from '../../workouts/server/tables';
import {
	type CommentView,
	FEED_POSITION_PATTERN,
	FRIENDS_PAGE_SIZE,
	type FriendshipStatus,
	MAX_POSITION_MICROS,
	type PersonView,
	PRIVATE_PROFILE_MESSAGE,
	SEARCH_PAGE_SIZE,
	STORY_ID_PATTERN,
	STORY_OBJECT_TYPES,
	STORY_PHOTOS_SHOWN,
	type StoryCreate,
	type StoryDetails,
	type StoryObjectType,
	type StoryView,
	SUGGESTED_PAGE_SIZE,
} from '../contract';
import { areFriends, isBlockedEitherWay, notBlockedWith, relationBetween } from './relations';
import {
	friendships,
	memberBlocks,
	memberStories,
	notificationReads,
	removedStories,
	storyComments,
	storyLikes,
} from './tables';

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

// ---------------------------------------------------------------- members, blocks, friendships

type Deps = Pick<AppDeps, 'db' | 'clock'>;
type Viewer = { id: number } | null;
type UserRow = typeof users.$inferSelect;

const notFound = (message = 'Not found.') => new AppError('not_found', message, { detail: 'not_found' });

type FriendshipRow = typeof friendships.$inferSelect;

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

async function findMember(db: Db, id: number): Promise<UserRow | null> {
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

// ---------------------------------------------------------------- people lists

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

// ---------------------------------------------------------------- profiles

export type Profile = {
	id: number;
	username: string;
	displayName: string;
	locality: string;
	region: string;
	memberSince: number;
	status: FriendStatus;
};

/**
 * A member's profile header as the viewer may see it, or null — for a missing member, a private
 * profile or a block alike, so the answer never tells whether the member exists.
 */
export async function getProfile(deps: Deps, viewer: Viewer, id: number): Promise<Profile | null> {
	const row = await findMember(deps.db, id);
	if (!row) return null;
	let status: FriendStatus = 'none';
	if (viewer) {
		if (viewer.id !== id && (await isBlockedEitherWay(deps.db, viewer.id, id))) return null;
		status = friendStatusOf(viewer.id, id, await friendshipBetween(deps.db, viewer.id, id));
	}
	// A block returned above, before the friendship was read.
	if (!canViewProfile(viewer?.id, id, row.profilePrivacy, { isFriend: status === 'friend', blocked: false }))
		return null;
	return {
		id: row.id,
		username: row.username,
		displayName: displayNameOf(row),
		locality: row.locality,
		region: row.region,
		memberSince: row.createdAt.getUTCFullYear(),
		status,
	};
}

// ---------------------------------------------------------------- stories

type StoryKey = { type: StoryObjectType; id: number };
/** A position in the feed: microseconds since the epoch, then type and id, newest first. */
type Position = { micros: bigint; type: StoryObjectType; id: number };

export function parsePosition(text: string): Position {
	const [micros, type, id] = text.split('_');
	return { micros: BigInt(micros), type: type as StoryObjectType, id: Number(id) };
}

/** A page address's `before` when it is a feed position, else undefined (the first page). */
export function feedPositionOrUndefined(text: string | null): string | undefined {
	if (!text || !FEED_POSITION_PATTERN.test(text)) return undefined;
	return parsePosition(text).micros <= BigInt(MAX_POSITION_MICROS) ? text : undefined;
}

function positionText(position: Position): string {
	return `${position.micros}_${position.type}_${position.id}`;
}

/** -1 when `a` comes before `b` in the feed (newer first). */
function comparePositions(a: Position, b: Position): number {
	if (a.micros !== b.micros) return a.micros > b.micros ? -1 : 1;
	if (a.type !== b.type) return a.type > b.type ? -1 : 1;
	return b.id - a.id;
}

const epochPlus = (micros: bigint) =>
	sql`(timestamp with time zone 'epoch' + ${micros.toString()}::bigint * interval '1 microsecond')`;

/**
 * SQL for the rows of one object type strictly after (older than) `before` or strictly before
 * (newer than) `after` in feed order. The plain bound on the time lets the index start there.
 */
function positionCondition(
	type: StoryObjectType,
	time: AnyPgColumn,
	idColumn: AnyPgColumn,
	before: Position | null,
	after: Position | null,
): SQL[] {
	const out: SQL[] = [];
	if (before) {
		const at = epochPlus(before.micros);
		if (type < before.type) out.push(sql`${time} <= ${at}`);
		else if (type > before.type) out.push(sql`${time} < ${at}`);
		else out.push(sql`${time} <= ${at} and (${time} < ${at} or ${idColumn} < ${before.id})`);
	}
	if (after) {
		const at = epochPlus(after.micros);
		if (type > after.type) out.push(sql`${time} >= ${at}`);
		else if (type < after.type) out.push(sql`${time} > ${at}`);
		else out.push(sql`${time} >= ${at} and (${time} > ${at} or ${idColumn} > ${after.id})`);
	}
	return out;
}

const microsOf = (column: AnyPgColumn) =>
	sql<string>`(extract(epoch from ${column}) * 1000000)::bigint::text`;

function notRemoved(type: StoryObjectType, idColumn: AnyPgColumn): SQL {
	return sql`not exists (select 1 from ${removedStories} where ${removedStories.objectType} = ${type} and ${removedStories.objectId} = ${idColumn})`;
}

type MemberStoryType = 'goal' | 'challenge';
const MEMBER_STORY_TYPES: readonly MemberStoryType[] = ['goal', 'challenge'];
const isMemberStoryType = (type: string): type is MemberStoryType =>
	(MEMBER_STORY_TYPES as readonly string[]).includes(type);

/**
 * A member story's privacy level: the member's workout privacy, never more open than its cap. The
 * levels are ordered (0 only me, 1 friends, 3 everyone), so the lower of the two is the stricter.
 */
const memberStoryPrivacy = sql<number>`least(${users.workoutPrivacy}, ${memberStories.privacyCap})`;

type WorkoutStoryRow = WorkoutWithOwner;
type RouteStoryRow = RouteWithOwner;
type MemberStoryRow = typeof memberStories.$inferSelect & {
	ownerId: number;
	ownerDisplayName: string | null;
	ownerUsername: string;
	privacy: number;
};
type FeedEntry =
	| { type: 'workout'; position: Position; row: WorkoutStoryRow }
	| { type: 'route'; position: Position; row: RouteStoryRow }
	| { type: 'goal'; position: Position; row: MemberStoryRow }
	| { type: 'challenge'; position: Position; row: MemberStoryRow };

export type FeedPage = { stories: StoryView[]; next: string | null };

/** The ids of a member's active friends. */
async function friendIdsOf(db: Db, memberId: number): Promise<number[]> {
	const rows = await db
		.select({ from: friendships.fromUserId, to: friendships.toUserId })
		.from(friendships)
		.where(
			and(
				eq(friendships.status, 'active'),
				or(eq(friendships.fromUserId, memberId), eq(friendships.toUserId, memberId)),
			),
		);
	return rows.map((row) => (row.from === memberId ? row.to : row.from));
}

/** Each member's workout privacy, which their goal and challenge stories follow. */
async function workoutPrivacyOf(db: Db, ids: number[]): Promise<Map<number, number>> {
	if (ids.length === 0) return new Map();
	const rows = await db
		.select({ id: users.id, privacy: users.workoutPrivacy })
		.from(users)
		.where(inArray(users.id, ids));
	return new Map(rows.map((row) => [row.id, row.privacy]));
}

/** A member whose stories a feed shows, with what the privacy policies need to know about them. */
type FeedActor = { id: number; isFriend: boolean; blocked: boolean };

/**
 * SQL for "owned by one of these actors, at a privacy level the viewer may see": the actors are
 * grouped by what the policy allows each (the viewer, friends, others), so the query can use the
 * owner index. The policy itself decides each group's levels.
 */
function actorsCondition(
	ownerColumn: AnyPgColumn,
	privacy: SQL,
	levels: readonly number[],
	actors: FeedActor[],
	allowed: (actor: FeedActor, privacy: number) => boolean,
): SQL {
	const groups = new Map<string, number[]>();
	for (const actor of actors) {
		const visible = levels.filter((privacy) => allowed(actor, privacy));
		if (visible.length === 0) continue;
		const key = visible.join(',');
		groups.set(key, [...(groups.get(key) ?? []), actor.id]);
	}
	if (groups.size === 0) return sql`false`;
	return or(
		...[...groups].map(([key, ids]) =>
			and(inArray(ownerColumn, ids), inArray(privacy, key.split(',').map(Number))),
		),
	) as SQL;
}

/**
 * A feed page. `home` is the viewer's own feed: their stories and their friends'. `own` is one
 * member's stories, for a viewer allowed to see that member's profile. Each story is a workout, a
 * route, a goal met or a challenge joined the viewer may see now: workouts and routes as their privacy
 * policies decide, goal and challenge stories as the workouts policy decides for the member's workout
 * privacy (goals follow it too).
 */
export async function listStories(
	deps: Deps,
	viewer: { id: number },
	options: { feedId: number; view: 'home' | 'own'; limit: number; before?: string; after?: string },
): Promise<FeedPage> {
	if (options.view === 'home' && options.feedId !== viewer.id) throw notFound('No such feed.');
	// No actor is blocked either way: a block ends a friendship, and getProfile hides a blocked member.
	let actors: FeedActor[];
	if (options.view === 'home') {
		actors = [
			{ id: viewer.id, isFriend: false, blocked: false },
			...(await friendIdsOf(deps.db, viewer.id)).map((id) => ({ id, isFriend: true, blocked: false })),
		];
	} else {
		const profile = await getProfile(deps, viewer, options.feedId);
		if (!profile) throw notFound(PRIVATE_PROFILE_MESSAGE);
		actors = [{ id: profile.id, isFriend: profile.status === 'friend', blocked: false }];
	}
	const before = options.before ? parsePosition(options.before) : null;
	const after = options.after ? parsePosition(options.after) : null;
	const take = options.limit + 1;
	const workoutActors = actorsCondition(
		workouts.ownerId,
		sql`${workouts.privacy}`,
		[0, 1, 3],
		actors,
		(actor, privacy) => canViewWorkout(viewer, { ownerId: actor.id, privacy }, actor),
	);
	const routeActors = actorsCondition(
		routes.ownerId,
		sql`${routes.privacy}`,
		[0, 1, 3, 6],
		actors,
		(actor, privacy) => canListRoute(viewer, { ownerId: actor.id, privacy, linkToken: '' }, actor),
	);
	// Only ids and times are sorted; the chosen stories' rows and owners are read afterwards.
	const workoutTop = deps.db
		.select({ id: workouts.id, at: workouts.startDatetime })
		.from(workouts)
		.where(
			and(
				workoutActors,
				notRemoved('workout', workouts.id),
				...positionCondition('workout', workouts.startDatetime, workouts.id, before, after),
			),
		)
		.orderBy(
			after ? asc(workouts.startDatetime) : desc(workouts.startDatetime),
			after ? asc(workouts.id) : desc(workouts.id),
		)
		.limit(take)
		.as('workout_top');
	const routeTop = deps.db
		.select({ id: routes.id, at: routes.createdAt })
		.from(routes)
		.where(
			and(
				routeActors,
				notRemoved('route', routes.id),
				...positionCondition('route', routes.createdAt, routes.id, before, after),
			),
		)
		.orderBy(after ? asc(routes.createdAt) : desc(routes.createdAt), after ? asc(routes.id) : desc(routes.id))
		.limit(take)
		.as('route_top');
	// Goal and challenge stories are one query: the feed order's type tie-break is a row comparison.
	const memberKeys = async (): Promise<Position[]> => {
		const levels = await workoutPrivacyOf(
			deps.db,
			actors.map((actor) => actor.id),
		);
		const memberActors = actorsCondition(
			memberStories.actorId,
			sql`${memberStories.privacyCap}`,
			[1, 3],
			actors,
			(actor, cap) =>
				canViewWorkout(
					viewer,
					{ ownerId: actor.id, privacy: Math.min(levels.get(actor.id) ?? 0, cap) },
					actor,
				),
		);
		const key = sql`(${memberStories.publishedAt}, ${memberStories.objectType} collate "C", ${memberStories.id})`;
		const bound = (position: Position) =>
			sql`(${epochPlus(position.micros)}, ${position.type} collate "C", ${position.id})`;
		const order = after ? asc : desc;
		const top = deps.db
			.select({ id: memberStories.id, type: memberStories.objectType, at: memberStories.publishedAt })
			.from(memberStories)
			.where(
				and(
					eq(memberStories.live, true),
					memberActors,
					sql`not exists (select 1 from ${removedStories} where ${removedStories.objectType} = ${memberStories.objectType} and ${removedStories.objectId} = ${memberStories.id})`,
					before ? sql`${memberStories.publishedAt} <= ${epochPlus(before.micros)}` : undefined,
					before ? sql`${key} < ${bound(before)}` : undefined,
					after ? sql`${memberStories.publishedAt} >= ${epochPlus(after.micros)}` : undefined,
					after ? sql`${key} > ${bound(after)}` : undefined,
				),
			)
			.orderBy(
				order(memberStories.publishedAt),
				order(sql`${memberStories.objectType} collate "C"`),
				order(memberStories.id),
			)
			.limit(take)
			.as('member_top');
		const rows = await deps.db.select({ id: top.id, type: top.type, micros: microsOf(top.at) }).from(top);
		return rows.map((row) => ({ micros: BigInt(row.micros), type: row.type, id: row.id }));
	};
	const keysOf = async (
		type: StoryObjectType,
		top: typeof workoutTop | typeof routeTop,
	): Promise<Position[]> =>
		(await deps.db.select({ id: top.id, micros: microsOf(top.at) }).from(top)).map((key) => ({
			micros: BigInt(key.micros),
			type,
			id: key.id,
		}));
	// The exact time is worked out only for the few rows kept, not for every candidate.
	const positions = (
		await Promise.all([keysOf('workout', workoutTop), keysOf('route', routeTop), memberKeys()])
	).flat();
	positions.sort(comparePositions);
	// Newer-than polling takes the oldest of the newer ones first, so none is skipped.
	const chosen = after ? positions.slice(-options.limit) : positions.slice(0, options.limit);
	const hasMore = after ? false : positions.length > options.limit;
	const entries = await entriesAt(deps, chosen);
	const stories = await representStories(deps, viewer, entries);
	const last = chosen.at(-1);
	return { stories, next: hasMore && last ? positionText(last) : null };
}

/** The stories at these feed positions, with their owners, in the same order. */
async function entriesAt(deps: Deps, positions: Position[]): Promise<FeedEntry[]> {
	const workoutIds = positions
		.filter((position) => position.type === 'workout')
		.map((position) => position.id);
	const routeIds = positions.filter((position) => position.type === 'route').map((position) => position.id);
	const memberIds = positions
		.filter((position) => isMemberStoryType(position.type))
		.map((position) => position.id);
	const [workoutRows, routeRows, memberRows] = await Promise.all([
		workoutIds.length === 0
			? []
			: deps.db
					.select({
						...getTableColumns(workouts),
						ownerDisplayName: users.displayName,
						ownerUsername: users.username,
					})
					.from(workouts)
					.innerJoin(users, eq(users.id, workouts.ownerId))
					.where(inArray(workouts.id, workoutIds)),
		routeIds.length === 0
			? []
			: deps.db
					.select({
						...getTableColumns(routes),
						ownerDisplayName: users.displayName,
						ownerUsername: users.username,
					})
					.from(routes)
					.innerJoin(users, eq(users.id, routes.ownerId))
					.where(inArray(routes.id, routeIds)),
		memberIds.length === 0
			? []
			: deps.db
					.select({
						...getTableColumns(memberStories),
						ownerId: memberStories.actorId,
						ownerDisplayName: users.displayName,
						ownerUsername: users.username,
						privacy: memberStoryPrivacy,
					})
					.from(memberStories)
					.innerJoin(users, eq(users.id, memberStories.actorId))
					.where(inArray(memberStories.id, memberIds)),
	]);
	const workoutById = new Map(workoutRows.map((row) => [row.id, row]));
	const routeById = new Map(routeRows.map((row) => [row.id, row]));
	const memberById = new Map(memberRows.map((row) => [row.id, row]));
	const entries: FeedEntry[] = [];
	for (const position of positions) {
		const type = position.type;
		if (type === 'workout') {
			const row = workoutById.get(position.id);
			if (row) entries.push({ type, row, position });
		} else if (type === 'route') {
			const row = routeById.get(position.id);
			if (row) entries.push({ type, row, position });
		} else {
			const row = memberById.get(position.id);
			if (row?.objectType === 'goal' && type === 'goal') entries.push({ type, row, position });
			if (row?.objectType === 'challenge' && type === 'challenge') entries.push({ type, row, position });
		}
	}
	return entries;
}

/** Where a story leads: its workout or route, the member's goals, or the challenge. */
function storyHref(story: {
	type: StoryObjectType;
	id: number;
	actorId: number;
	subjectId?: number;
}): string {
	switch (story.type) {
		case 'workout':
			return `/workout/${story.id}`;
		case 'route':
			return `/routes/view/${story.id}`;
		case 'goal':
			return `/profile/${story.actorId}/goals/`;
		case 'challenge':
			return `/challenges/${story.subjectId}`;
	}
}

/** Rows that belong to one of a set of stories, by their object type and id columns. */
function storiesMatch(keys: readonly StoryKey[], typeColumn: AnyPgColumn, idColumn: AnyPgColumn) {
	return or(
		...STORY_OBJECT_TYPES.map((type) => {
			const ids = keys.filter((key) => key.type === type).map((key) => key.id);
			return ids.length > 0 ? and(eq(typeColumn, type), inArray(idColumn, ids)) : undefined;
		}).filter((condition): condition is NonNullable<typeof condition> => condition !== undefined),
	);
}

/** Likes and comments counted for a set of stories. */
async function countsFor(deps: Deps, viewer: { id: number }, keys: StoryKey[]) {
	const likes = new Map<string, { count: number; mine: number | null }>();
	const comments = new Map<string, number>();
	if (keys.length === 0) return { likes, comments };
	const match = (typeColumn: AnyPgColumn, idColumn: AnyPgColumn) => storiesMatch(keys, typeColumn, idColumn);
	// Likes and comments in one query: a row per story and kind, the viewer's own like with it.
	const rows = await deps.db
		.select({
			kind: sql<'like' | 'comment'>`'like'`,
			type: storyLikes.objectType,
			id: storyLikes.objectId,
			count: sql<number>`count(*)::int`,
			mine: sql<number | null>`max(case when ${storyLikes.userId} = ${viewer.id} then ${storyLikes.id} end)`,
		})
		.from(storyLikes)
		.where(
			and(match(storyLikes.objectType, storyLikes.objectId), notBlockedWith(viewer.id, storyLikes.userId)),
		)
		.groupBy(storyLikes.objectType, storyLikes.objectId)
		.unionAll(
			deps.db
				.select({
					kind: sql<'like' | 'comment'>`'comment'`,
					type: storyComments.objectType,
					id: storyComments.objectId,
					count: sql<number>`count(*)::int`,
					mine: sql<number | null>`null::integer`,
				})
				.from(storyComments)
				.where(
					and(
						match(storyComments.objectType, storyComments.objectId),
						notBlockedWith(viewer.id, storyComments.authorId),
					),
				)
				.groupBy(storyComments.objectType, storyComments.objectId),
		);
	for (const row of rows) {
		const key = `${row.type}_${row.id}`;
		if (row.kind === 'like') likes.set(key, { count: row.count, mine: row.mine });
		else comments.set(key, row.count);
	}
	return { likes, comments };
}

/** At most this many points draw a card's thumbnail. */
const THUMBNAIL_POINTS = 64;

function thin(points: [number, number][]): [number, number][] {
	if (points.length <= THUMBNAIL_POINTS) return points;
	const step = (points.length - 1) / (THUMBNAIL_POINTS - 1);
	return Array.from({ length: THUMBNAIL_POINTS }, (_, index) => points[Math.round(index * step)]);
}

const round5 = (value: number) => Math.round(value * 1e5) / 1e5;

function storyPhotos(
	found: { total: number; first: { id: number; uri: string; thumbnail_uri: string }[] } | undefined,
): StoryView['photos'] {
	if (!found) return { total: 0, first: [] };
	const first = found.first.map(({ id, uri, thumbnail_uri }) => ({ id, uri, thumbnail_uri }));
	return { total: found.total, first };
}

async function representStories(
	deps: Deps,
	viewer: { id: number },
	entries: FeedEntry[],
): Promise<StoryView[]> {
	const { likes, comments } = await countsFor(
		deps,
		viewer,
		entries.map((entry) => ({ type: entry.type, id: entry.row.id })),
	);
	const workouts = entries.flatMap((entry) => (entry.type === 'workout' ? [entry.row] : []));
	// Read once for the whole page, not once per story: photos, recordings, and each owner's privacy.
	const [photos, recordings, privacy] = await Promise.all([
		photosOfWorkouts(
			deps,
			workouts.map((workout) => workout.id),
			STORY_PHOTOS_SHOWN,
		),
		// Thumbnails come from each workout's stored preview; only one stored before previews were kept
		// is read whole.
		getWorkoutSeriesMany(
			deps,
			workouts
				.filter((workout) => workout.sampleCount > 0 && workout.previewSeries === null)
				.map((workout) => workout.id),
		),
		locationPrivacyOfMany(
			deps,
			entries.filter((entry) => entry.row.ownerId !== viewer.id).map((entry) => entry.row.ownerId),
		),
	]);
	return Promise.all(
		entries.map(async (entry): Promise<StoryView> => {
			const key = `${entry.type}_${entry.row.id}`;
			const like = likes.get(key);
			const common = {
				id: key,
				object_id: entry.row.id,
				position: positionText(entry.position),
				actor: {
					id: entry.row.ownerId,
					title: entry.row.ownerDisplayName || entry.row.ownerUsername,
					username: entry.row.ownerUsername,
				},
				privacy: entry.row.privacy,
				likes: {
					count: like?.count ?? 0,
					liked_by_me: like?.mine != null,
					like_id: like?.mine != null ? `like_${like.mine}` : null,
				},
				comments: { count: comments.get(key) ?? 0 },
				can_delete: entry.row.ownerId === viewer.id,
			};
			const none = { total: 0, first: [] };
			if (entry.type === 'goal' || entry.type === 'challenge') {
				const story = entry.row;
				return {
					...common,
					object_type: entry.type,
					title: story.title,
					activity_type: null,
					published: formatApiDateTime(story.publishedAt),
					figures: { distance_m: null, duration_s: null, ascent_m: null, energy_j: null },
					thumbnail: [],
					photos: none,
					details: story.details,
					href: storyHref({
						type: entry.type,
						id: story.id,
						actorId: story.actorId,
						subjectId: story.subjectId,
					}),
				};
			}
			if (entry.type === 'workout') {
				const workout = entry.row;
				let thumbnail: [number, number][] = [];
				const stored = workout.previewSeries
					? { series: workout.previewSeries, laps: [] }
					: recordings.get(workout.id);
				if (stored && stored.series.t.length > 0) {
					// Every non-owner view goes through the trimmed recording: privacy zones and hidden ends apply.
					const recording = await recordingForViewer(
						deps,
						workout,
						stored,
						viewer,
						privacy.get(workout.ownerId),
					);
					thumbnail = thin(
						recording.samples
							.filter(
								(sample, index) =>
									!recording.hidden[index] && sample.lat !== undefined && sample.lng !== undefined,
							)
							.map((sample) => [round5(sample.lat as number), round5(sample.lng as number)]),
					);
				}
				return {
					...common,
					object_type: 'workout',
					title: workout.name,
					activity_type: workout.activityTypeId,
					details: null,
					published: formatApiDateTime(workout.startDatetime),
					figures: {
						distance_m: workout.distanceTotal,
						duration_s: workout.activeTimeTotal ?? workout.elapsedTimeTotal,
						ascent_m: null,
						energy_j: workout.metabolicEnergyTotal,
					},
					thumbnail,
					photos: storyPhotos(photos.get(workout.id)),
					href: storyHref({ type: 'workout', id: workout.id, actorId: workout.ownerId }),
				};
			}
			const route = entry.row;
			// Others see the line without what lies in the owner's privacy zones, as on the route's own page.
			const seen =
				route.ownerId === viewer.id
					? route
					: hideRouteInZones(route, privacy.get(route.ownerId)?.zones ?? []);
			return {
				...common,
				object_type: 'route',
				title: route.name,
				activity_type: route.activityTypeId,
				details: null,
				published: formatApiDateTime(route.createdAt),
				figures: { distance_m: route.distanceM, duration_s: null, ascent_m: route.ascentM, energy_j: null },
				thumbnail: seen ? thin(decodePath(seen).map(([lat, lng]) => [round5(lat), round5(lng)])) : [],
				photos: none,
				href: storyHref({ type: 'route', id: route.id, actorId: route.ownerId }),
			};
		}),
	);
}

/** A live goal or challenge story the viewer may see now, as the workouts policy decides. */
async function visibleMemberStory(
	deps: Deps,
	viewer: { id: number },
	key: StoryKey,
): Promise<{ ownerId: number }> {
	const [row] = await deps.db
		.select({ ownerId: memberStories.actorId, privacy: memberStoryPrivacy })
		.from(memberStories)
		.innerJoin(users, eq(users.id, memberStories.actorId))
		.where(
			and(
				eq(memberStories.id, key.id),
				eq(memberStories.objectType, key.type as MemberStoryType),
				eq(memberStories.live, true),
			),
		);
	if (!row) throw notFound('No such story.');
	if (!canViewWorkout(viewer, row, await relationBetween(deps.db, viewer, row.ownerId)))
		throw notFound('No such story.');
	return row;
}

/** The object behind a story, if the viewer may see it now and its owner has not removed it. */
async function visibleObject(
	deps: Deps,
	viewer: { id: number },
	key: StoryKey,
): Promise<{ ownerId: number }> {
	try {
		const object =
			key.type === 'workout'
				? await getVisibleWorkout(deps, viewer, key.id)
				: key.type === 'route'
					? await getVisibleRoute(deps, viewer, key.id)
					: await visibleMemberStory(deps, viewer, key);
		if (object.ownerId !== viewer.id && (await isBlockedEitherWay(deps.db, viewer.id, object.ownerId)))
			throw notFound('No such story.');
		const [removed] = await deps.db
			.select({ id: removedStories.objectId })
			.from(removedStories)
			.where(and(eq(removedStories.objectType, key.type), eq(removedStories.objectId, key.id)));
		if (removed) throw notFound('No such story.');
		return object;
	} catch (error) {
		if (error instanceof AppError && error.code === 'not_found') throw notFound('No such story.');
		throw error;
	}
}

/** What a story id names; comments and likes lead to the story they belong to. */
async function resolveStory(
	deps: Deps,
	id: string,
): Promise<{ story: StoryKey; comment: typeof storyComments.$inferSelect | null } | null> {
	const match = STORY_ID_PATTERN.exec(id);
	if (!match) return null;
	const kind = match[1];
	const number = Number(match[2]);
	if ((STORY_OBJECT_TYPES as readonly string[]).includes(kind))
		return { story: { type: kind as StoryObjectType, id: number }, comment: null };
	if (kind === 'comment') {
		const [comment] = await deps.db.select().from(storyComments).where(eq(storyComments.id, number));
		return comment ? { story: { type: comment.objectType, id: comment.objectId }, comment } : null;
	}
	const [like] = await deps.db.select().from(storyLikes).where(eq(storyLikes.id, number));
	return like ? { story: { type: like.objectType, id: like.objectId }, comment: null } : null;
}

/** One story by its object, for GET activity_story/?object_type=&object_id=. */
export async function getStory(deps: Deps, viewer: { id: number }, key: StoryKey): Promise<StoryView> {
	await visibleObject(deps, viewer, key);
	const [time, table] =
		key.type === 'workout'
			? [workouts.startDatetime, workouts]
			: key.type === 'route'
				? [routes.createdAt, routes]
				: [memberStories.publishedAt, memberStories];
	const [row] = await deps.db
		.select({ micros: microsOf(time) })
		.from(table)
		.where(eq(table.id, key.id));
	const entries = row
		? await entriesAt(deps, [{ micros: BigInt(row.micros), type: key.type, id: key.id }])
		: [];
	if (entries.length === 0) throw notFound('No such story.');
	const [story] = await representStories(deps, viewer, entries);
	return story;
}

const actorColumns = {
	id: users.id,
	username: users.username,
	displayName: users.displayName,
	firstName: users.firstName,
	lastName: users.lastName,
};

/** Comments and replies on a story, oldest first, from members the viewer has not blocked. */
/** Every comment and reply a member wrote, oldest first: what their data export holds. */
export async function listOwnComments(deps: Deps, authorId: number) {
	return deps.db
		.select({
			id: storyComments.id,
			objectType: storyComments.objectType,
			objectId: storyComments.objectId,
			parentCommentId: storyComments.parentCommentId,
			text: storyComments.text,
			createdAt: storyComments.createdAt,
		})
		.from(storyComments)
		.where(eq(storyComments.authorId, authorId))
		.orderBy(asc(storyComments.id));
}

/**
 * What the member did in the feed besides commenting, for their data export: what they liked and
 * when, the goal and challenge stories published as theirs, the members they blocked and the
 * stories they took out of feeds.
 */
export async function listOwnFeedActivity(deps: Deps, userId: number) {
	const likes = await deps.db
		.select({
			objectType: storyLikes.objectType,
			objectId: storyLikes.objectId,
			createdAt: storyLikes.createdAt,
		})
		.from(storyLikes)
		.where(eq(storyLikes.userId, userId))
		.orderBy(asc(storyLikes.id));
	const stories = await deps.db
		.select()
		.from(memberStories)
		.where(eq(memberStories.actorId, userId))
		.orderBy(asc(memberStories.id));
	const blocks = await deps.db
		.select({ blockedId: memberBlocks.blockedId, createdAt: memberBlocks.createdAt })
		.from(memberBlocks)
		.where(eq(memberBlocks.blockerId, userId))
		.orderBy(asc(memberBlocks.createdAt));
	const removed = await deps.db
		.select({ objectType: removedStories.objectType, objectId: removedStories.objectId })
		.from(removedStories)
		.where(eq(removedStories.ownerId, userId));
	return { likes, stories, blocks, removed };
}

export async function listComments(
	deps: Deps,
	viewer: { id: number },
	parentStoryId: string,
): Promise<CommentView[]> {
	const resolved = await resolveStory(deps, parentStoryId);
	if (!resolved) throw notFound('No such story.');
	const owner = await visibleObject(deps, viewer, resolved.story);
	const rows = await deps.db
		.select({ comment: storyComments, actor: actorColumns })
		.from(storyComments)
		.innerJoin(users, eq(users.id, storyComments.authorId))
		.where(
			and(
				eq(storyComments.objectType, resolved.story.type),
				eq(storyComments.objectId, resolved.story.id),
				notBlockedWith(viewer.id, storyComments.authorId),
				resolved.comment ? eq(storyComments.parentCommentId, resolved.comment.id) : undefined,
			),
		)
		.orderBy(asc(storyComments.id))
		.limit(REPLIES_LISTED);
	return rows.map((row) => commentView(row, viewer, owner.ownerId));
}

type ActorRow = Pick<typeof users.$inferSelect, keyof typeof actorColumns>;

/** A comment as the API and the feed pages show it; its author or the story's owner may delete it. */
function commentView(
	{ comment, actor }: { comment: typeof storyComments.$inferSelect; actor: ActorRow },
	viewer: { id: number },
	storyOwnerId: number,
): CommentView {
	return {
		id: `comment_${comment.id}`,
		parent_story_id: `${comment.objectType}_${comment.objectId}`,
		reply_to: comment.parentCommentId === null ? null : `comment_${comment.parentCommentId}`,
		actor: { id: actor.id, title: displayNameOf(actor), username: actor.username },
		text: comment.text,
		published: formatApiDateTime(comment.createdAt),
		can_delete: comment.authorId === viewer.id || storyOwnerId === viewer.id,
		_links: replyLinks(`comment_${comment.id}`, actor.id),
	};
}

function likeView({ like, actor }: { like: typeof storyLikes.$inferSelect; actor: ActorRow }) {
	return {
		id: `like_${like.id}`,
		verb: 'like' as const,
		actor: { id: actor.id, title: displayNameOf(actor), username: actor.username },
		published: formatApiDateTime(like.createdAt),
		_links: replyLinks(`like_${like.id}`, actor.id),
	};
}

/** A like's or comment's own link and its author's, as MapMyFitness clients read them. */
function replyLinks(storyId: string, actorId: number) {
	return {
		self: [{ href: `/v7.1/activity_story/${storyId}/`, id: storyId }],
		user: link('user', actorId),
	};
}

/** Comments or likes listed for one story at most. */
const REPLIES_LISTED = 500;

/** Who liked a story. */
export async function listLikes(deps: Deps, viewer: { id: number }, parentStoryId: string) {
	const resolved = await resolveStory(deps, parentStoryId);
	if (!resolved) throw notFound('No such story.');
	await visibleObject(deps, viewer, resolved.story);
	const rows = await deps.db
		.select({ like: storyLikes, actor: actorColumns })
		.from(storyLikes)
		.innerJoin(users, eq(users.id, storyLikes.userId))
		.where(
			and(
				eq(storyLikes.objectType, resolved.story.type),
				eq(storyLikes.objectId, resolved.story.id),
				notBlockedWith(viewer.id, storyLikes.userId),
			),
		)
		.orderBy(asc(storyLikes.id))
		.limit(REPLIES_LISTED);
	return rows.map(likeView);
}

/** Likes a story (once; liking again answers the same like) or comments on it or on a comment. */
export async function createReaction(deps: Deps, viewer: { id: number }, input: StoryCreate) {
	const resolved = await resolveStory(deps, input.parent_story_id);
	if (!resolved) throw notFound('No such story.');
	await visibleObject(deps, viewer, resolved.story);
	if (input.verb === 'like') {
		if (resolved.comment)
			throw new AppError('bad_request', 'Only stories can be liked.', { detail: 'like_comment' });
		await deps.db
			.insert(storyLikes)
			.values({
				objectType: resolved.story.type,
				objectId: resolved.story.id,
				userId: viewer.id,
				createdAt: deps.clock(),
			})
			.onConflictDoNothing();
		const [like] = await deps.db
			.select()
			.from(storyLikes)
			.where(
				and(
					eq(storyLikes.objectType, resolved.story.type),
					eq(storyLikes.objectId, resolved.story.id),
					eq(storyLikes.userId, viewer.id),
				),
			);
		return {
			id: `like_${like.id}`,
			verb: 'like' as const,
			parent_story_id: `${resolved.story.type}_${resolved.story.id}`,
			published: formatApiDateTime(like.createdAt),
			_links: replyLinks(`like_${like.id}`, viewer.id),
		};
	}
	if (!input.text)
		throw new AppError('validation_failed', 'A comment needs some text.', {
			failures: [{ field: 'text', message: 'A comment needs some text.' }],
		});
	const [comment] = await deps.db
		.insert(storyComments)
		.values({
			objectType: resolved.story.type,
			objectId: resolved.story.id,
			parentCommentId: resolved.comment?.id ?? null,
			authorId: viewer.id,
			text: input.text,
			createdAt: deps.clock(),
		})
		.returning();
	return {
		id: `comment_${comment.id}`,
		verb: 'comment' as const,
		parent_story_id: `${resolved.story.type}_${resolved.story.id}`,
		reply_to: resolved.comment ? `comment_${resolved.comment.id}` : null,
		text: comment.text,
		published: formatApiDateTime(comment.createdAt),
		_links: replyLinks(`comment_${comment.id}`, viewer.id),
	};
}

/**
 * Deletes what the id names: one's own story (it leaves every feed; the workout or route stays), one's
 * own like (unlike), one's own comment, or any comment on one's own story. Replies go with their comment.
 */
export async function deleteStory(deps: Deps, viewer: { id: number }, id: string): Promise<void> {
	const match = STORY_ID_PATTERN.exec(id);
	if (!match) throw notFound('No such story.');
	const kind = match[1];
	const number = Number(match[2]);
	if ((STORY_OBJECT_TYPES as readonly string[]).includes(kind)) {
		const type = kind as StoryObjectType;
		const owner = await visibleObject(deps, viewer, { type, id: number });
		if (owner.ownerId !== viewer.id) throw notFound('No such story.');
		await deps.db
			.insert(removedStories)
			.values({ objectType: type, objectId: number, ownerId: viewer.id })
			.onConflictDoNothing();
		return;
	}
	if (kind === 'like') {
		const removed = await deps.db
			.delete(storyLikes)
			.where(and(eq(storyLikes.id, number), eq(storyLikes.userId, viewer.id)))
			.returning({ id: storyLikes.id });
		if (removed.length === 0) throw notFound('No such like.');
		return;
	}
	const [comment] = await deps.db.select().from(storyComments).where(eq(storyComments.id, number));
	if (!comment) throw notFound('No such comment.');
	let mayDelete = comment.authorId === viewer.id;
	if (!mayDelete) {
		try {
			const owner = await visibleObject(deps, viewer, { type: comment.objectType, id: comment.objectId });
			mayDelete = owner.ownerId === viewer.id;
		} catch {
			mayDelete = false;
		}
	}
	if (!mayDelete) throw notFound('No such comment.');
	await deps.db
		.delete(storyComments)
		.where(or(eq(storyComments.id, comment.id), eq(storyComments.parentCommentId, comment.id)));
}

// ---------------------------------------------------------------- goal and challenge stories

export type MemberStoryInput = {
	/** The goal's week (YYYY-MM-DD of its first day); none for a challenge. */
	period?: string;
	publishedAt: Date;
	title: string;
	details: StoryDetails;
	/** The most open privacy level the story may have: 3 everyone, 1 friends. */
	privacyCap?: 1 | 3;
};

/** A flat object as text with its keys in order: jsonb hands keys back in an order of its own. */
const flatJson = (value: object) =>
	JSON.stringify(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/**
 * Makes a member's live stories about one goal or one challenge exactly `stories`, one per period,
 * so calling it again after any change is safe. A story already live keeps its time, place and
 * reactions; one that is not listed is withdrawn, and comes back with its likes and comments when
 * it is listed again. Only periods from `fromPeriod` on are withdrawn: older ones were not looked at.
 */
export async function syncMemberStories(
	deps: Pick<AppDeps, 'db'>,
	subject: { actorId: number; type: MemberStoryType; subjectId: number; fromPeriod?: string },
	stories: MemberStoryInput[],
): Promise<void> {
	const existing = await deps.db
		.select()
		.from(memberStories)
		.where(
			and(
				eq(memberStories.actorId, subject.actorId),
				eq(memberStories.objectType, subject.type),
				eq(memberStories.subjectId, subject.subjectId),
			),
		);
	const wanted = new Map(stories.map((story) => [story.period ?? '', story]));
	const withdrawn = existing
		.filter(
			(row) =>
				row.live && !wanted.has(row.period) && (!subject.fromPeriod || row.period >= subject.fromPeriod),
		)
		.map((row) => row.id);
	if (withdrawn.length > 0)
		await deps.db.update(memberStories).set({ live: false }).where(inArray(memberStories.id, withdrawn));
	const byPeriod = new Map(existing.map((row) => [row.period, row]));
	const changed = [...wanted].filter(([period, story]) => {
		const row = byPeriod.get(period);
		return (
			!row?.live ||
			row.title !== story.title ||
			row.privacyCap !== (story.privacyCap ?? 3) ||
			flatJson(row.details) !== flatJson(story.details)
		);
	});
	if (changed.length === 0) return;
	await deps.db
		.insert(memberStories)
		.values(
			changed.map(([period, story]) => ({
				actorId: subject.actorId,
				objectType: subject.type,
				subjectId: subject.subjectId,
				period,
				publishedAt: story.publishedAt,
				title: story.title,
				details: story.details,
				privacyCap: story.privacyCap ?? 3,
				live: true,
			})),
		)
		.onConflictDoUpdate({
			target: [
				memberStories.objectType,
				memberStories.subjectId,
				memberStories.actorId,
				memberStories.period,
			],
			set: {
				title: sql`excluded.title`,
				details: sql`excluded.details`,
				privacyCap: sql`excluded.privacy_cap`,
				// A story coming back is news again; one still live keeps its place in the feed.
				publishedAt: sql`case when ${memberStories.live} then ${memberStories.publishedAt} else excluded.published_at end`,
				live: true,
			},
		});
}

/** A challenge renamed: every member's story about it carries the new name. */
export async function retitleMemberStories(
	deps: Pick<AppDeps, 'db'>,
	subject: { type: MemberStoryType; subjectId: number },
	title: string,
): Promise<void> {
	await deps.db
		.update(memberStories)
		.set({ title })
		.where(and(eq(memberStories.objectType, subject.type), eq(memberStories.subjectId, subject.subjectId)));
}

// ---------------------------------------------------------------- notifications

export type NotificationView = {
	kind: 'friend_request' | 'like' | 'comment';
	actor: { id: number; title: string; username: string };
	href: string;
	published: string;
	unread: boolean;
};

/**
 * Friend requests received, and likes and comments others left on the member's workouts and routes,
 * newest first; those after the member last opened the list are unread.
 */
export async function listNotifications(deps: Deps, viewer: { id: number }, limit = 20) {
	const [read] = await deps.db
		.select()
		.from(notificationReads)
		.where(eq(notificationReads.userId, viewer.id));
	const readAt = read?.readAt ?? new Date(0);
	const ownsObject = (typeColumn: AnyPgColumn, idColumn: AnyPgColumn) =>
		sql`((${typeColumn} = 'workout' and exists (select 1 from ${workouts} where ${workouts.id} = ${idColumn} and ${workouts.ownerId} = ${viewer.id})) or (${typeColumn} = 'route' and exists (select 1 from ${routes} where ${routes.id} = ${idColumn} and ${routes.ownerId} = ${viewer.id})) or (${typeColumn} in ('goal', 'challenge') and exists (select 1 from ${memberStories} where ${memberStories.id} = ${idColumn} and ${memberStories.objectType} = ${typeColumn} and ${memberStories.actorId} = ${viewer.id} and ${memberStories.live})))`;
	const [requests, likes, comments] = await Promise.all([
		deps.db
			.select({ at: friendships.createdAt, actor: actorColumns })
			.from(friendships)
			.innerJoin(users, eq(users.id, friendships.fromUserId))
			.where(and(eq(friendships.toUserId, viewer.id), eq(friendships.status, 'pending')))
			.orderBy(desc(friendships.createdAt))
			.limit(limit),
		deps.db
			.select({
				at: storyLikes.createdAt,
				type: storyLikes.objectType,
				id: storyLikes.objectId,
				actor: actorColumns,
			})
			.from(storyLikes)
			.innerJoin(users, eq(users.id, storyLikes.userId))
			.where(
				and(
					ne(storyLikes.userId, viewer.id),
					ownsObject(storyLikes.objectType, storyLikes.objectId),
					notBlockedWith(viewer.id, storyLikes.userId),
				),
			)
			.orderBy(desc(storyLikes.createdAt))
			.limit(limit),
		deps.db
			.select({
				at: storyComments.createdAt,
				type: storyComments.objectType,
				id: storyComments.objectId,
				actor: actorColumns,
			})
			.from(storyComments)
			.innerJoin(users, eq(users.id, storyComments.authorId))
			.where(
				and(
					ne(storyComments.authorId, viewer.id),
					ownsObject(storyComments.objectType, storyComments.objectId),
					notBlockedWith(viewer.id, storyComments.authorId),
				),
			)
			.orderBy(desc(storyComments.createdAt))
			.limit(limit),
	]);
	// A challenge story leads to its challenge, so the challenges behind the reactions are looked up.
	const memberStoryIds = [...likes, ...comments]
		.filter((row) => isMemberStoryType(row.type))
		.map((row) => row.id);
	const subjects = new Map(
		memberStoryIds.length === 0
			? []
			: (
					await deps.db
						.select({ id: memberStories.id, subjectId: memberStories.subjectId })
						.from(memberStories)
						.where(inArray(memberStories.id, memberStoryIds))
				).map((row) => [row.id, row.subjectId]),
	);
	const hrefOf = (type: StoryObjectType, id: number) =>
		storyHref({ type, id, actorId: viewer.id, subjectId: subjects.get(id) });
	const actorOf = (actor: (typeof requests)[number]['actor']) => ({
		id: actor.id,
		title: displayNameOf(actor),
		username: actor.username,
	});
	const items = [
		...requests.map((row) => ({
			kind: 'friend_request' as const,
			at: row.at,
			actor: actorOf(row.actor),
			href: '/people/friends/',
		})),
		...likes.map((row) => ({
			kind: 'like' as const,
			at: row.at,
			actor: actorOf(row.actor),
			href: hrefOf(row.type, row.id),
		})),
		...comments.map((row) => ({
			kind: 'comment' as const,
			at: row.at,
			actor: actorOf(row.actor),
			href: hrefOf(row.type, row.id),
		})),
	]
		.sort((a, b) => b.at.getTime() - a.at.getTime())
		.slice(0, limit);
	const notifications: NotificationView[] = items.map((item) => ({
		kind: item.kind,
		actor: item.actor,
		href: item.href,
		published: formatApiDateTime(item.at),
		unread: item.at > readAt,
	}));
	return { notifications, unread: notifications.filter((item) => item.unread).length };
}

export async function markNotificationsRead(deps: Deps, viewer: { id: number }): Promise<void> {
	const now = deps.clock();
	await deps.db
		.insert(notificationReads)
		.values({ userId: viewer.id, readAt: now })
		.onConflictDoUpdate({ target: notificationReads.userId, set: { readAt: now } });
}

export type LikeView = Awaited<ReturnType<typeof listLikes>>[number];
export type StoryWithReplies = { story: StoryView; comments: CommentView[]; likes: LikeView[] };

/** A feed page with each story's comments and likers, for the pages that render it whole. */
export async function feedPageWithReplies(
	deps: Deps,
	viewer: { id: number },
	options: { feedId: number; view: 'home' | 'own'; limit: number; before?: string; after?: string },
): Promise<{ items: StoryWithReplies[]; next: string | null }> {
	const page = await listStories(deps, viewer, options);
	return { items: await repliesOfListed(deps, viewer, page.stories), next: page.next };
}

/**
 * The comments and likers of stories just listed for the viewer, so ones they may see, read for the whole
 * page at once: asking story by story cost two visibility checks and two reads each, 200 queries a page.
 */
async function repliesOfListed(
	deps: Deps,
	viewer: { id: number },
	stories: readonly StoryView[],
): Promise<StoryWithReplies[]> {
	if (stories.length === 0) return [];
	const keys = stories.map((story) => ({ type: story.object_type, id: story.object_id }));
	const [commentRows, likeRows] = await Promise.all([
		deps.db
			.select({ comment: storyComments, actor: actorColumns })
			.from(storyComments)
			.innerJoin(users, eq(users.id, storyComments.authorId))
			.where(
				and(
					storiesMatch(keys, storyComments.objectType, storyComments.objectId),
					notBlockedWith(viewer.id, storyComments.authorId),
				),
			)
			.orderBy(asc(storyComments.id))
			.limit(REPLIES_LISTED * stories.length),
		deps.db
			.select({ like: storyLikes, actor: actorColumns })
			.from(storyLikes)
			.innerJoin(users, eq(users.id, storyLikes.userId))
			.where(
				and(
					storiesMatch(keys, storyLikes.objectType, storyLikes.objectId),
					notBlockedWith(viewer.id, storyLikes.userId),
				),
			)
			.orderBy(asc(storyLikes.id))
			.limit(REPLIES_LISTED * stories.length),
	]);
	const byStory = <Row>(rows: Row[], keyOf: (row: Row) => string) => {
		const grouped = new Map<string, Row[]>();
		for (const row of rows) {
			const list = grouped.get(keyOf(row)) ?? [];
			if (list.length < REPLIES_LISTED) list.push(row);
			grouped.set(keyOf(row), list);
		}
		return grouped;
	};
	const comments = byStory(commentRows, ({ comment }) => `${comment.objectType}_${comment.objectId}`);
	const likes = byStory(likeRows, ({ like }) => `${like.objectType}_${like.objectId}`);
	return stories.map((story) => ({
		story,
		// The story's owner is its actor.
		comments: (comments.get(story.id) ?? []).map((row) => commentView(row, viewer, story.actor.id)),
		likes: (likes.get(story.id) ?? []).map(likeView),
	}));
}
