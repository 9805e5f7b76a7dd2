/**
 * Reactions to a story: likes, comments and replies, listed, made and deleted, and a member's own
 * story taken out of feeds.
 */
import { and, asc, eq, or } from 'drizzle-orm';
import { link } from '../../api/hal';
import { users } from '../../auth/server/tables';
import { formatApiDateTime } from '../../core/dates';
import { AppError } from '../../core/errors';
import {
	type CommentView,
	STORY_ID_PATTERN,
	STORY_OBJECT_TYPES,
	type StoryCreate,
	type StoryObjectType,
} from '../contract';
import { notBlockedWith } from './relations';
import { actorColumns, type Deps, displayNameOf, notFound } from './social-shared';
import { resolveStory, visibleObject } from './story-access';
import { removedStories, storyComments, storyLikes } from './tables';

/** Comments and replies on a story, oldest first, from members the viewer has not blocked. */
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
export function commentView(
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

export function likeView({ like, actor }: { like: typeof storyLikes.$inferSelect; actor: ActorRow }) {
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
export const REPLIES_LISTED = 500;

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

export type LikeView = Awaited<ReturnType<typeof listLikes>>[number];

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
