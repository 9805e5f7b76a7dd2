/**
 * Which story an id names, and whether the viewer may see it now: what reading and reacting to a
 * story ask first.
 */
import { and, eq } from 'drizzle-orm';
import { users } from '../../auth/server/tables';
import { AppError } from '../../core/errors';
import { getVisibleRoute } from '../../routes/server/access';
import { canView as canViewWorkout } from '../../workouts/policy';
import { getVisibleWorkout } from '../../workouts/server/service';
import { STORY_ID_PATTERN, STORY_OBJECT_TYPES, type StoryObjectType } from '../contract';
import { isBlockedEitherWay, relationBetween } from './relations';
import { type Deps, notFound } from './social-shared';
import { type MemberStoryType, memberStoryPrivacy, type StoryKey } from './story-shared';
import { memberStories, removedStories, storyComments, storyLikes } from './tables';

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
export async function visibleObject(
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
export async function resolveStory(
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
