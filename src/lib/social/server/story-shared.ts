/**
 * What names a story and its place in the feed, and where a story leads: shared by the feed, its
 * cards, reactions, goal and challenge stories and notifications.
 */
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { users } from '../../auth/server/tables';
import { STORY_OBJECT_TYPES, type StoryObjectType } from '../contract';
import { memberStories } from './tables';

export type StoryKey = { type: StoryObjectType; id: number };
/** A position in the feed: microseconds since the epoch, then type and id, newest first. */
export type Position = { micros: bigint; type: StoryObjectType; id: number };

export function positionText(position: Position): string {
	return `${position.micros}_${position.type}_${position.id}`;
}

export const microsOf = (column: AnyPgColumn) =>
	sql<string>`(extract(epoch from ${column}) * 1000000)::bigint::text`;

export type MemberStoryType = 'goal' | 'challenge';
const MEMBER_STORY_TYPES: readonly MemberStoryType[] = ['goal', 'challenge'];
export const isMemberStoryType = (type: string): type is MemberStoryType =>
	(MEMBER_STORY_TYPES as readonly string[]).includes(type);

/**
 * A member story's privacy level: the member's workout privacy, never more open than its cap. The
 * levels are ordered (0 only me, 1 friends, 3 everyone), so the lower of the two is the stricter.
 */
export const memberStoryPrivacy = sql<number>`least(${users.workoutPrivacy}, ${memberStories.privacyCap})`;

/** Where a story leads: its workout or route, the member's goals, or the challenge. */
export function storyHref(story: {
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
export function storiesMatch(keys: readonly StoryKey[], typeColumn: AnyPgColumn, idColumn: AnyPgColumn) {
	return or(
		...STORY_OBJECT_TYPES.map((type) => {
			const ids = keys.filter((key) => key.type === type).map((key) => key.id);
			return ids.length > 0 ? and(eq(typeColumn, type), inArray(idColumn, ids)) : undefined;
		}).filter((condition): condition is NonNullable<typeof condition> => condition !== undefined),
	);
}
