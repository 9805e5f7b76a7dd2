import * as v from 'valibot';
import { MemberIdText } from '../account/contract';
import { halBody } from '../api/hal-links';
import { dbInteger, wholeNumberText } from '../core/integers';
import { multiLineText, singleLineText } from '../core/text';

/** Page sizes: friends 40, suggestions 10, search 20, feed 20. */
export const FRIENDS_PAGE_SIZE = 40;
export const SUGGESTED_PAGE_SIZE = 10;
export const SEARCH_PAGE_SIZE = 20;
export const FEED_PAGE_SIZE = 20;
export const MAX_SOCIAL_PAGE_SIZE = 100;
/** Offsets beyond this are refused rather than scanned. */
export const MAX_SOCIAL_OFFSET = 10_000;
export const MAX_COMMENT_LENGTH = 1000;
export const MAX_SEARCH_LENGTH = 100;
/** Abuse limits per member per hour. */
export const FRIEND_REQUESTS_PER_HOUR = 30;
export const COMMENTS_PER_HOUR = 60;

export const PRIVATE_PROFILE_MESSAGE = 'This profile is set to private or the user does not exist.';

export type FriendshipStatus = 'pending' | 'active';
export const STORY_OBJECT_TYPES = ['workout', 'route', 'goal', 'challenge'] as const;
/** What a story is about: a workout, a route, a week a goal was met, or a challenge joined. */
export type StoryObjectType = (typeof STORY_OBJECT_TYPES)[number];

/** The figures a goal story or a challenge story carries, fixed when the story is recorded. */
export type StoryDetails =
	| {
			type: 'goal';
			goal_id: number;
			/** distance (metres), duration (seconds), calories (kcal) or count (workouts). */
			metric: 'distance' | 'duration' | 'calories' | 'count';
			target: number;
			/** An activity group, or `all`. */
			activity_group: string;
			/** The week's first day, YYYY-MM-DD in the member's time zone. */
			week_start: string;
	  }
	| { type: 'challenge'; challenge_id: number };

const MemberId = (name: string) => v.pipe(MemberIdText(name), v.transform(Number));

/** GET user/: one of friends_with, requested_friendship_with, suggested_friends_for or q. */
export const UserListQuerySchema = v.object({
	friends_with: v.optional(MemberId('friends_with')),
	status: v.optional(v.picklist(['active', 'pending'])),
	requested_friendship_with: v.optional(MemberId('requested_friendship_with')),
	suggested_friends_for: v.optional(MemberId('suggested_friends_for')),
	q: v.optional(v.pipe(singleLineText('q', MAX_SEARCH_LENGTH), v.trim())),
	limit: v.optional(wholeNumberText(1, MAX_SOCIAL_PAGE_SIZE, 'limit')),
	offset: v.optional(wholeNumberText(0, MAX_SOCIAL_OFFSET, 'offset')),
});
export type UserListQuery = v.InferOutput<typeof UserListQuerySchema>;

/** friendship/{a}_{b}/: the member who asked, then the member asked. */
export const FriendshipKeyParamSchema = v.object({
	key: v.pipe(v.string(), v.regex(/^\d{1,9}_\d{1,9}$/, 'key must be two member ids joined by _')),
});

export const FriendshipListQuerySchema = v.object({
	from_user: v.optional(MemberId('from_user')),
	to_user: v.optional(MemberId('to_user')),
	status: v.optional(v.picklist(['active', 'pending'])),
	limit: v.optional(wholeNumberText(1, MAX_SOCIAL_PAGE_SIZE, 'limit')),
	offset: v.optional(wholeNumberText(0, MAX_SOCIAL_OFFSET, 'offset')),
});
export type FriendshipListQuery = v.InferOutput<typeof FriendshipListQuerySchema>;

const MemberIdValue = v.union([dbInteger('to_user', 1), MemberId('to_user')]);

/**
 * POST friendship/: ask `to_user` (or `_links.to_user`) to be friends; `_links.from_user`, when
 * sent, must be the caller.
 */
export const FriendshipCreateSchema = halBody(
	{
		to_user: MemberIdValue,
		message: v.optional(singleLineText('message', 200)),
	},
	{ to_user: { kind: 'user', field: 'to_user' }, from_user: { kind: 'user' } },
	['self'],
);

/**
 * PATCH friendship/{a}_{b}/: the member asked accepts. A client may send back the friendship's
 * links; they must name the same two members as the path.
 */
export const FriendshipUpdateSchema = halBody(
	{ status: v.literal('active') },
	{ from_user: { kind: 'user' }, to_user: { kind: 'user' } },
	['self'],
);

export const BlockCreateSchema = v.strictObject({ user: MemberIdValue });
export const BlockParamSchema = v.object({ id: MemberIdText('id') });

/** Story ids name what they are: workout_12, route_5, goal_3, challenge_4, comment_7 or like_3. */
export const STORY_ID_PATTERN = /^(workout|route|goal|challenge|comment|like)_(\d{1,9})$/;
/** A feed position: microseconds since the epoch, then the story's type and id. */
export const FEED_POSITION_PATTERN = /^\d{1,17}_(workout|route|goal|challenge)_\d{1,9}$/;
const StoryId = (name: string) => v.pipe(v.string(), v.regex(STORY_ID_PATTERN, `${name} must be a story id`));

/** Microseconds up to the year 3000: later would overflow a timestamp. */
export const MAX_POSITION_MICROS = 32_503_680_000_000_000;
const FeedPosition = (name: string) =>
	v.pipe(
		v.string(),
		v.regex(FEED_POSITION_PATTERN, `${name} must come from a story's position`),
		v.check((text) => Number(text.split('_')[0]) <= MAX_POSITION_MICROS, `${name} is out of range`),
	);

export const StoryListQuerySchema = v.object({
	feed_id: v.optional(MemberId('feed_id')),
	feed_type: v.optional(v.picklist(['user'])),
	/** home: the member and their friends; own: that member's stories only. */
	feed_view: v.optional(v.picklist(['home', 'own'])),
	limit: v.optional(wholeNumberText(1, MAX_SOCIAL_PAGE_SIZE, 'limit')),
	/** The next link's position: epoch milliseconds, type and id of the last story shown. */
	before: v.optional(FeedPosition('before')),
	/** Stories newer than this story id (polling for new ones). */
	after: v.optional(FeedPosition('after')),
	reply_type: v.optional(v.picklist(['comment', 'like'])),
	parent_story_id: v.optional(StoryId('parent_story_id')),
	object_id: v.optional(wholeNumberText(1, 999_999_999, 'object_id')),
	object_type: v.optional(v.picklist(STORY_OBJECT_TYPES)),
});
export type StoryListQuery = v.InferOutput<typeof StoryListQuerySchema>;

/**
 * POST activity_story/: a like or a comment on a story (a reply when the parent is a comment). The
 * actor is the caller: `_links.user`, when sent, must name them.
 */
export const StoryCreateSchema = halBody(
	{
		verb: v.picklist(['like', 'comment']),
		parent_story_id: StoryId('parent_story_id'),
		text: v.optional(
			v.pipe(
				multiLineText('text', MAX_COMMENT_LENGTH),
				v.trim(),
				v.minLength(1, 'A comment needs some text.'),
			),
		),
	},
	{ user: { kind: 'user' } },
	['self'],
);
export type StoryCreate = v.InferOutput<typeof StoryCreateSchema>;

export const StoryIdParamSchema = v.object({ id: StoryId('id') });

/** A member as lists of people show them. */
export type PersonView = {
	id: number;
	username: string;
	display_name: string;
	location?: { locality: string; region: string };
	friend_status: 'self' | 'friend' | 'sent' | 'received' | 'none';
	_links: { self: { href: string }[]; image: { href: string; name: string }[] };
};

/** Photos shown on a story's card; the rest are on the workout's page. */
export const STORY_PHOTOS_SHOWN = 4;

export type StoryPhoto = { id: number; uri: string; thumbnail_uri: string };

export type StoryView = {
	id: string;
	object_type: StoryObjectType;
	object_id: number;
	published: string;
	position: string;
	actor: { id: number; title: string; username: string };
	title: string;
	/** The workout's or route's activity type; null for goal and challenge stories. */
	activity_type: number | null;
	privacy: number;
	figures: {
		distance_m: number | null;
		duration_s: number | null;
		ascent_m: number | null;
		energy_j: number | null;
	};
	/** The thumbnail's line as [lat, lng] pairs, drawn from what the viewer may see of the track. */
	thumbnail: [number, number][];
	/** A workout's photos: how many, and the first few to show on the card (none for a route). */
	photos: { total: number; first: StoryPhoto[] };
	/** A goal story's goal, or a challenge story's challenge; null for workouts and routes. */
	details: StoryDetails | null;
	href: string;
	likes: { count: number; liked_by_me: boolean; like_id: string | null };
	comments: { count: number };
	can_delete: boolean;
};

export type CommentView = {
	id: string;
	parent_story_id: string;
	reply_to: string | null;
	actor: { id: number; title: string; username: string };
	text: string;
	published: string;
	can_delete: boolean;
	/** The comment itself and its author, as v7.1 links. */
	_links: { self: { href: string; id: string }[]; user: { href: string; id: string }[] };
};
