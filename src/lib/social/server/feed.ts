/** A member's home feed, or one member's stories, page by page and with their replies. */
import { and, asc, desc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, unionAll } from 'drizzle-orm/pg-core';
import { users } from '../../auth/server/tables';
import type { Db } from '../../core/server/deps';
import { canList as canListRoute } from '../../routes/policy';
import { routes } from '../../routes/server/tables';
import { canView as canViewWorkout } from '../../workouts/policy';
import { workouts } from '../../workouts/server/tables';
import {
	type CommentView,
	FEED_POSITION_PATTERN,
	MAX_POSITION_MICROS,
	PRIVATE_PROFILE_MESSAGE,
	type StoryObjectType,
	type StoryView,
} from '../contract';
import { getProfile, type Profile } from './profiles';
import { commentView, type LikeView, likeView, REPLIES_LISTED } from './reactions';
import { notBlockedWith } from './relations';
import { actorColumns, type Deps, notFound } from './social-shared';
import { entriesAt, representStories } from './story-cards';
import { memberStoryPrivacy, microsOf, type Position, positionText, storiesMatch } from './story-shared';
import { friendships, memberStories, removedStories, storyComments, storyLikes } from './tables';

export function parsePosition(text: string): Position {
	const [micros, type, id] = text.split('_');
	return { micros: BigInt(micros), type: type as StoryObjectType, id: Number(id) };
}

/** A page address's `before` when it is a feed position, else undefined (the first page). */
export function feedPositionOrUndefined(text: string | null): string | undefined {
	if (!text || !FEED_POSITION_PATTERN.test(text)) return undefined;
	return parsePosition(text).micros <= BigInt(MAX_POSITION_MICROS) ? text : undefined;
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

function notRemoved(type: StoryObjectType, idColumn: AnyPgColumn): SQL {
	return sql`not exists (select 1 from ${removedStories} where ${removedStories.objectType} = ${type} and ${removedStories.objectId} = ${idColumn})`;
}

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

type FeedOptions = {
	feedId: number;
	view: 'home' | 'own';
	limit: number;
	before?: string;
	after?: string;
	/** For `own`: the member's profile as getProfile just gave it to this viewer, so it is not read again. */
	profile?: Profile;
};

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
	options: FeedOptions,
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
		const profile =
			options.profile?.id === options.feedId
				? options.profile
				: await getProfile(deps, viewer, options.feedId);
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
	// Goal and challenge stories are one subquery: the feed order's type tie-break is a row comparison.
	const memberTop = (() => {
		// A goal or challenge story follows its member's workout privacy, read in the same query.
		const memberActors = actorsCondition(
			memberStories.actorId,
			memberStoryPrivacy,
			[0, 1, 3],
			actors,
			(actor, privacy) => canViewWorkout(viewer, { ownerId: actor.id, privacy }, actor),
		);
		const key = sql`(${memberStories.publishedAt}, ${memberStories.objectType} collate "C", ${memberStories.id})`;
		const bound = (position: Position) =>
			sql`(${epochPlus(position.micros)}, ${position.type} collate "C", ${position.id})`;
		const order = after ? asc : desc;
		return deps.db
			.select({ id: memberStories.id, type: memberStories.objectType, at: memberStories.publishedAt })
			.from(memberStories)
			.innerJoin(users, eq(users.id, memberStories.actorId))
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
	})();
	const keysOf = (top: typeof workoutTop | typeof routeTop, type: StoryObjectType) =>
		deps.db
			.select({
				type: sql<StoryObjectType>`${type}::text`.as('type'),
				id: top.id,
				micros: microsOf(top.at).as('micros'),
			})
			.from(top);
	// The three kinds' candidates in one query; the exact time is worked out only for the few rows
	// kept, not for every candidate.
	const keys = await unionAll(
		keysOf(workoutTop, 'workout'),
		keysOf(routeTop, 'route'),
		deps.db
			.select({
				type: sql<StoryObjectType>`${memberTop.type}`.as('type'),
				id: memberTop.id,
				micros: microsOf(memberTop.at).as('micros'),
			})
			.from(memberTop),
	);
	const positions: Position[] = keys.map((key) => ({
		micros: BigInt(key.micros),
		type: key.type,
		id: key.id,
	}));
	positions.sort(comparePositions);
	// Newer-than polling takes the oldest of the newer ones first, so none is skipped.
	const chosen = after ? positions.slice(-options.limit) : positions.slice(0, options.limit);
	const hasMore = after ? false : positions.length > options.limit;
	const entries = await entriesAt(deps, chosen);
	const stories = await representStories(deps, viewer, entries);
	const last = chosen.at(-1);
	return { stories, next: hasMore && last ? positionText(last) : null };
}

export type StoryWithReplies = { story: StoryView; comments: CommentView[]; likes: LikeView[] };

/** A feed page with each story's comments and likers, for the pages that render it whole. */
export async function feedPageWithReplies(
	deps: Deps,
	viewer: { id: number },
	options: FeedOptions,
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
