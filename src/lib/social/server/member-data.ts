import { formatApiDateTime } from '../../core/dates';
import type { ExportPart } from '../../core/server/member-data';
import { listOwnComments, listOwnFeedActivity } from './data-export';
import { listFriendships } from './friendships';
import {
	friendships,
	memberBlocks,
	memberStories,
	removedStories,
	storyComments,
	storyLikes,
} from './tables';

/** The member's friendships and friend requests, either way. */
export const friendsExport: ExportPart = {
	name: 'friends',
	tables: [friendships],
	write: async (deps, member, archive) => {
		const friends = await listFriendships(deps, member, { limit: 10_000 });
		archive.addJson(
			'friends.json',
			friends.rows.map((friendship) => ({
				from_user: friendship.fromUserId,
				to_user: friendship.toUserId,
				status: friendship.status,
				created_datetime: formatApiDateTime(friendship.createdAt),
			})),
		);
	},
};

/** Every comment and reply the member wrote. */
export const commentsExport: ExportPart = {
	name: 'comments',
	tables: [storyComments],
	write: async (deps, member, archive) =>
		archive.addJson(
			'comments.json',
			(await listOwnComments(deps, member.id)).map((comment) => ({
				id: comment.id,
				on: { type: comment.objectType, id: comment.objectId },
				reply_to: comment.parentCommentId,
				text: comment.text,
				created_datetime: formatApiDateTime(comment.createdAt),
			})),
		),
};

/** The rest of what the member did in the feed: likes, their own stories, removed stories, blocks. */
export const feedExport: ExportPart = {
	name: 'feed',
	tables: [storyLikes, memberStories, removedStories, memberBlocks],
	write: async (deps, member, archive) => {
		const feed = await listOwnFeedActivity(deps, member.id);
		archive.addJson('feed.json', {
			likes: feed.likes.map((like) => ({
				on: { type: like.objectType, id: like.objectId },
				created_datetime: formatApiDateTime(like.createdAt),
			})),
			stories: feed.stories.map((story) => ({
				id: story.id,
				about: { type: story.objectType, id: story.subjectId },
				period: story.period || null,
				title: story.title,
				details: story.details,
				live: story.live,
				published_datetime: formatApiDateTime(story.publishedAt),
			})),
			removed_from_feeds: feed.removed.map((removed) => ({
				type: removed.objectType,
				id: removed.objectId,
			})),
			blocked_members: feed.blocks.map((block) => ({
				user: block.blockedId,
				created_datetime: formatApiDateTime(block.createdAt),
			})),
		});
	},
};
