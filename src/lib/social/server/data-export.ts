/** What the feed gives a member's data export: comments, likes, stories, blocks, removed stories. */
import { asc, eq } from 'drizzle-orm';
import type { Deps } from './social-shared';
import { memberBlocks, memberStories, removedStories, storyComments, storyLikes } from './tables';

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
