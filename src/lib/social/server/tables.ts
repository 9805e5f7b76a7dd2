import { sql } from 'drizzle-orm';
import {
	boolean,
	check,
	index,
	integer,
	jsonb,
	pgTable,
	serial,
	text,
	timestamp,
	uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from '../../auth/server/tables';
import type { StoryDetails, StoryObjectType } from '../contract';

/**
 * A friendship request from one member to another: `pending` until the other accepts,
 * then `active`. One row per pair and direction; privacy checks look both ways.
 */
export const friendships = pgTable(
	'friendships',
	{
		id: serial('id').primaryKey(),
		fromUserId: integer('from_user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		toUserId: integer('to_user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		status: text('status').$type<'pending' | 'active'>().notNull().default('pending'),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(t) => [
		uniqueIndex('friendships_pair_idx').on(t.fromUserId, t.toUserId),
		index('friendships_to_user_idx').on(t.toUserId, t.status),
		check('friendships_status_check', sql`${t.status} in ('pending', 'active')`),
		check('friendships_not_self_check', sql`${t.fromUserId} <> ${t.toUserId}`),
	],
);

/** A member who will not see, or be seen by, another; blocking ends any friendship between them. */
export const memberBlocks = pgTable(
	'member_blocks',
	{
		blockerId: integer('blocker_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		blockedId: integer('blocked_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(t) => [
		uniqueIndex('member_blocks_pair_idx').on(t.blockerId, t.blockedId),
		index('member_blocks_blocked_idx').on(t.blockedId),
		check('member_blocks_not_self_check', sql`${t.blockerId} <> ${t.blockedId}`),
	],
);

/**
 * Stories of what a member did that leaves no object of its own: completing a weekly goal and
 * joining a challenge. The goals and challenges domains record and withdraw them through the social
 * service. A withdrawn story (the week fell below its target, the member left the challenge) is kept
 * with its likes and comments and comes back if the member meets the goal or joins again.
 * Who may see one is decided at read time: the member's workout privacy, never more open than
 * `privacy_cap` (a challenge entry with the name hidden from the leaderboard stays among friends).
 */
export const memberStories = pgTable(
	'member_stories',
	{
		id: serial('id').primaryKey(),
		actorId: integer('actor_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		objectType: text('object_type').$type<'goal' | 'challenge'>().notNull(),
		/** The goal or the challenge the story is about. */
		subjectId: integer('subject_id').notNull(),
		/** The goal's week (its first day); empty for a challenge. */
		period: text('period').notNull().default(''),
		publishedAt: timestamp('published_at', { withTimezone: true }).notNull(),
		live: boolean('live').notNull().default(true),
		privacyCap: integer('privacy_cap').notNull().default(3),
		title: text('title').notNull(),
		details: jsonb('details').$type<StoryDetails>().notNull(),
	},
	(t) => [
		uniqueIndex('member_stories_subject_idx').on(t.objectType, t.subjectId, t.actorId, t.period),
		index('member_stories_actor_idx').on(t.actorId, t.publishedAt, t.id),
		check('member_stories_type_check', sql`${t.objectType} in ('goal', 'challenge')`),
	],
);

const STORY_TYPES_CHECK = sql.raw(`('workout', 'route', 'goal', 'challenge')`);

/**
 * Stories are the members' workouts and routes themselves, so a story always obeys its object's
 * privacy at read time; goal and challenge stories are member stories. Likes, comments and removals
 * point at the object by type and id.
 */
export const storyLikes = pgTable(
	'story_likes',
	{
		id: serial('id').primaryKey(),
		objectType: text('object_type').$type<StoryObjectType>().notNull(),
		objectId: integer('object_id').notNull(),
		userId: integer('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(t) => [
		uniqueIndex('story_likes_object_user_idx').on(t.objectType, t.objectId, t.userId),
		check('story_likes_type_check', sql`${t.objectType} in ${STORY_TYPES_CHECK}`),
	],
);

/** A comment on a story; a reply names the comment it answers. */
export const storyComments = pgTable(
	'story_comments',
	{
		id: serial('id').primaryKey(),
		objectType: text('object_type').$type<StoryObjectType>().notNull(),
		objectId: integer('object_id').notNull(),
		parentCommentId: integer('parent_comment_id'),
		authorId: integer('author_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		text: text('text').notNull(),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(t) => [
		index('story_comments_object_idx').on(t.objectType, t.objectId, t.id),
		index('story_comments_parent_idx').on(t.parentCommentId),
		check('story_comments_type_check', sql`${t.objectType} in ${STORY_TYPES_CHECK}`),
	],
);

/** Stories their owner took out of every feed; the workout or route itself stays. */
export const removedStories = pgTable(
	'removed_stories',
	{
		objectType: text('object_type').$type<StoryObjectType>().notNull(),
		objectId: integer('object_id').notNull(),
		ownerId: integer('owner_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
	},
	(t) => [uniqueIndex('removed_stories_object_idx').on(t.objectType, t.objectId)],
);

/**
 * Notifications are read from what happened (requests, likes and comments); a member's row says
 * up to when they have seen them.
 */
export const notificationReads = pgTable('notification_reads', {
	userId: integer('user_id')
		.primaryKey()
		.references(() => users.id, { onDelete: 'cascade' }),
	readAt: timestamp('read_at', { withTimezone: true }).notNull(),
});
