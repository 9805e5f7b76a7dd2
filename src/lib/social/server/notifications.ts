/** A member's notifications: friend requests, and likes and comments on their stories, read or not. */
import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import { type AnyPgColumn, unionAll } from 'drizzle-orm/pg-core';
import { users } from '../../auth/server/tables';
import { formatApiDateTime } from '../../core/dates';
import { routes } from '../../routes/server/tables';
import { workouts } from '../../workouts/server/tables';
import type { StoryObjectType } from '../contract';
import { notBlockedWith } from './relations';
import { actorColumns, type Deps, displayNameOf } from './social-shared';
import { isMemberStoryType, storyHref } from './story-shared';
import { friendships, memberStories, notificationReads, storyComments, storyLikes } from './tables';

type ReactionKey = { type: StoryObjectType; id: number };

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
	const ownsObject = (typeColumn: AnyPgColumn, idColumn: AnyPgColumn) =>
		sql`((${typeColumn} = 'workout' and exists (select 1 from ${workouts} where ${workouts.id} = ${idColumn} and ${workouts.ownerId} = ${viewer.id})) or (${typeColumn} = 'route' and exists (select 1 from ${routes} where ${routes.id} = ${idColumn} and ${routes.ownerId} = ${viewer.id})) or (${typeColumn} in ('goal', 'challenge') and exists (select 1 from ${memberStories} where ${memberStories.id} = ${idColumn} and ${memberStories.objectType} = ${typeColumn} and ${memberStories.actorId} = ${viewer.id} and ${memberStories.live})))`;
	// When the member last opened the list, beside every row: the whole list is one query.
	const readAt =
		sql<Date | null>`(select ${notificationReads.readAt} from ${notificationReads} where ${notificationReads.userId} = ${viewer.id})`.mapWith(
			notificationReads.readAt,
		);
	const rows = await unionAll(
		deps.db
			.select({
				kind: sql<NotificationView['kind']>`'friend_request'`.as('kind'),
				at: friendships.createdAt,
				type: sql<StoryObjectType | null>`null::text`.as('type'),
				id: sql<number | null>`null::integer`.as('object_id'),
				actor: actorColumns,
				readAt: readAt.as('read_at'),
			})
			.from(friendships)
			.innerJoin(users, eq(users.id, friendships.fromUserId))
			.where(and(eq(friendships.toUserId, viewer.id), eq(friendships.status, 'pending')))
			.orderBy(desc(friendships.createdAt))
			.limit(limit),
		deps.db
			.select({
				kind: sql<NotificationView['kind']>`'like'`.as('kind'),
				at: storyLikes.createdAt,
				type: sql<StoryObjectType | null>`${storyLikes.objectType}`.as('type'),
				id: sql<number | null>`${storyLikes.objectId}`.as('object_id'),
				actor: actorColumns,
				readAt: readAt.as('read_at'),
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
				kind: sql<NotificationView['kind']>`'comment'`.as('kind'),
				at: storyComments.createdAt,
				type: sql<StoryObjectType | null>`${storyComments.objectType}`.as('type'),
				id: sql<number | null>`${storyComments.objectId}`.as('object_id'),
				actor: actorColumns,
				readAt: readAt.as('read_at'),
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
	);
	const lastRead = rows[0]?.readAt ?? new Date(0);
	const requests = rows.filter((row) => row.kind === 'friend_request');
	const likes = rows.filter((row) => row.kind === 'like') as ((typeof rows)[number] & ReactionKey)[];
	const comments = rows.filter((row) => row.kind === 'comment') as ((typeof rows)[number] & ReactionKey)[];
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
		unread: item.at > lastRead,
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
