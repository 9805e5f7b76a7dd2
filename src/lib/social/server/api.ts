import { Hono } from 'hono';
import * as v from 'valibot';
import type { ApiEnv } from '../../api/context';
import { both, pageLinks, requireOwnLink } from '../../api/hal';
import { validate } from '../../api/validate';
import type { Viewer } from '../../auth/contract';
import { requireViewer } from '../../auth/server/middleware';
import { formatApiDateTime } from '../../core/dates';
import { AppError } from '../../core/errors';
import type { Db } from '../../core/server/deps';
import {
	BlockCreateSchema,
	BlockParamSchema,
	FEED_PAGE_SIZE,
	FriendshipCreateSchema,
	FriendshipKeyParamSchema,
	FriendshipListQuerySchema,
	FriendshipUpdateSchema,
	StoryCreateSchema,
	StoryIdParamSchema,
	StoryListQuerySchema,
	UserListQuerySchema,
} from '../contract';
import { blockMember, listBlocked, unblockMember } from './blocks';
import { listStories } from './feed';
import {
	acceptFriendship,
	getFriendship,
	listFriendships,
	removeFriendship,
	requestFriendship,
} from './friendships';
import { type SocialBudgetSizes, type SocialBudgets, socialBudgets } from './limits';
import { listNotifications, markNotificationsRead } from './notifications';
import {
	listConnections,
	type PeoplePage,
	representPerson,
	searchMembers,
	suggestFriends,
} from './people-lists';
import { createReaction, deleteStory, listComments, listLikes } from './reactions';
import { displayNameOf } from './social-shared';
import { getStory } from './story-cards';

type FriendshipRow = Awaited<ReturnType<typeof getFriendship>>;

function representFriendship(row: FriendshipRow) {
	return {
		id: `${row.fromUserId}_${row.toUserId}`,
		status: row.status,
		created_datetime: formatApiDateTime(row.createdAt),
		_links: {
			self: [
				{
					href: `/v7.1/friendship/${row.fromUserId}_${row.toUserId}/`,
					id: `${row.fromUserId}_${row.toUserId}`,
				},
			],
			from_user: [{ href: `/v7.1/user/${row.fromUserId}/`, id: String(row.fromUserId) }],
			to_user: [{ href: `/v7.1/user/${row.toUserId}/`, id: String(row.toUserId) }],
		},
	};
}

function readKey(key: string): [number, number] {
	const [from, to] = key.split('_').map(Number);
	return [from, to];
}

/** Operations that take no input still name their (empty) query, so /api/openapi.json lists them. */
const NoQuery = v.object({});

const viewerOf = (c: { var: { viewer: Viewer | null } }) => c.var.viewer as Viewer;

/** Friends, member search and suggestions, the activity feed with likes and comments, blocks and notifications. */
export function createSocialApi(options: SocialBudgetSizes = {}): Hono<ApiEnv> {
	const app = new Hono<ApiEnv>();
	// Built on the first request, when the database is known; kept so memory counters outlive it.
	let budgets: SocialBudgets | undefined;
	const budgetsFor = (db: Db) => {
		budgets ??= socialBudgets(db, options);
		return budgets;
	};

	// Only the member's own lists: friends, requests sent, requests received, suggestions; or a search.
	for (const path of both('/v7.1/user/')) {
		app.get(path, requireViewer, validate('query', UserListQuerySchema), async (c) => {
			const viewer = viewerOf(c);
			const query = c.req.valid('query');
			const page = { limit: query.limit, offset: query.offset };
			const ownList = (id: number) => {
				if (id !== viewer.id)
					throw new AppError('forbidden', 'You can only list your own friends.', { detail: 'forbidden' });
			};
			let result: PeoplePage;
			if (query.friends_with !== undefined) {
				ownList(query.friends_with);
				result = await listConnections(
					c.var.deps,
					viewer,
					query.status === 'pending' ? 'sent' : 'active',
					page,
				);
			} else if (query.requested_friendship_with !== undefined) {
				ownList(query.requested_friendship_with);
				result = await listConnections(c.var.deps, viewer, 'received', page);
			} else if (query.suggested_friends_for !== undefined) {
				ownList(query.suggested_friends_for);
				result = await suggestFriends(c.var.deps, viewer, page);
			} else if (query.q !== undefined) {
				result = await searchMembers(c.var.deps, viewer, query.q, page);
			} else {
				throw new AppError(
					'bad_request',
					'Ask for friends_with, requested_friendship_with, suggested_friends_for or q.',
					{ detail: 'missing_filter' },
				);
			}
			return c.json({
				_embedded: { user: result.people.map(representPerson) },
				total_count: result.totalCount,
				_links: pageLinks('/v7.1/user/', new URL(c.req.url).searchParams, result),
			});
		});
	}

	for (const path of both('/v7.1/friendship/')) {
		app.get(path, requireViewer, validate('query', FriendshipListQuerySchema), async (c) => {
			const page = await listFriendships(c.var.deps, viewerOf(c), c.req.valid('query'));
			return c.json({
				_embedded: { friendships: page.rows.map(representFriendship) },
				total_count: page.totalCount,
				_links: pageLinks('/v7.1/friendship/', new URL(c.req.url).searchParams, page),
			});
		});
		app.post(path, requireViewer, validate('json', FriendshipCreateSchema), async (c) => {
			const viewer = viewerOf(c);
			const input = c.req.valid('json');
			requireOwnLink(viewer, input.links?.from_user, 'friend requests', 'from_user');
			await budgetsFor(c.var.deps.db).friendRequest(viewer.id);
			const row = await requestFriendship(c.var.deps, viewer, Number(input.to_user));
			return c.json(representFriendship(row), 201);
		});
	}

	for (const path of both('/v7.1/friendship/:key/')) {
		app.get(path, requireViewer, validate('param', FriendshipKeyParamSchema), async (c) => {
			const [from, to] = readKey(c.req.valid('param').key);
			return c.json(representFriendship(await getFriendship(c.var.deps, viewerOf(c), from, to)));
		});
		app.patch(
			path,
			requireViewer,
			validate('param', FriendshipKeyParamSchema),
			validate('json', FriendshipUpdateSchema),
			async (c) => {
				const [from, to] = readKey(c.req.valid('param').key);
				const links = c.req.valid('json').links ?? {};
				for (const [name, id] of [
					['from_user', from],
					['to_user', to],
				] as const) {
					const sent = links[name];
					if (sent !== undefined && sent !== id)
						throw new AppError('validation_failed', 'The request is not valid', {
							failures: [
								{ field: `_links.${name}`, message: `_links.${name} must be ${id}, as in the path.` },
							],
						});
				}
				return c.json(representFriendship(await acceptFriendship(c.var.deps, viewerOf(c), from, to)));
			},
		);
		app.delete(path, requireViewer, validate('param', FriendshipKeyParamSchema), async (c) => {
			const [from, to] = readKey(c.req.valid('param').key);
			await removeFriendship(c.var.deps, viewerOf(c), from, to);
			return c.body(null, 204);
		});
	}

	for (const path of both('/v7.1/activity_story/')) {
		app.get(path, requireViewer, validate('query', StoryListQuerySchema), async (c) => {
			const viewer = viewerOf(c);
			const query = c.req.valid('query');
			if (query.parent_story_id !== undefined) {
				const items =
					query.reply_type === 'like'
						? await listLikes(c.var.deps, viewer, query.parent_story_id)
						: await listComments(c.var.deps, viewer, query.parent_story_id);
				return c.json({ _embedded: { activity_stories: items }, total_count: items.length, _links: {} });
			}
			if (query.object_id !== undefined && query.object_type !== undefined) {
				const story = await getStory(c.var.deps, viewer, { type: query.object_type, id: query.object_id });
				return c.json({ _embedded: { activity_stories: [story] }, total_count: 1, _links: {} });
			}
			const feedId = query.feed_id ?? viewer.id;
			const limit = query.limit ?? FEED_PAGE_SIZE;
			const page = await listStories(c.var.deps, viewer, {
				feedId,
				view: query.feed_view ?? (feedId === viewer.id ? 'home' : 'own'),
				limit,
				before: query.before,
				after: query.after,
			});
			const links: Record<string, { href: string }[]> = {};
			if (page.next) {
				const params = new URLSearchParams({
					feed_id: String(feedId),
					feed_type: 'user',
					feed_view: query.feed_view ?? (feedId === viewer.id ? 'home' : 'own'),
					limit: String(limit),
					before: page.next,
				});
				links.next = [{ href: `/v7.1/activity_story/?${params}` }];
			}
			return c.json({ _embedded: { activity_stories: page.stories }, _links: links });
		});
		app.post(path, requireViewer, validate('json', StoryCreateSchema), async (c) => {
			const viewer = viewerOf(c);
			const input = c.req.valid('json');
			requireOwnLink(viewer, input.links?.user, 'likes and comments');
			if (input.verb === 'comment') await budgetsFor(c.var.deps.db).comment(viewer.id);
			return c.json(await createReaction(c.var.deps, viewer, input), 201);
		});
	}

	for (const path of both('/v7.1/activity_story/:id/')) {
		app.delete(path, requireViewer, validate('param', StoryIdParamSchema), async (c) => {
			await deleteStory(c.var.deps, viewerOf(c), c.req.valid('param').id);
			return c.body(null, 204);
		});
	}

	for (const path of both('/v7.1/block/')) {
		app.get(path, requireViewer, validate('query', NoQuery), async (c) => {
			const rows = await listBlocked(c.var.deps, viewerOf(c));
			return c.json({
				_embedded: {
					blocked: rows.map((row) => ({
						id: row.id,
						username: row.username,
						display_name: displayNameOf(row),
					})),
				},
				total_count: rows.length,
			});
		});
		app.post(path, requireViewer, validate('json', BlockCreateSchema), async (c) => {
			await blockMember(c.var.deps, viewerOf(c), Number(c.req.valid('json').user));
			return c.body(null, 204);
		});
	}
	for (const path of both('/v7.1/block/:id/')) {
		app.delete(path, requireViewer, validate('param', BlockParamSchema), async (c) => {
			await unblockMember(c.var.deps, viewerOf(c), Number(c.req.valid('param').id));
			return c.body(null, 204);
		});
	}

	for (const path of both('/v7.1/notification/')) {
		app.get(path, requireViewer, validate('query', NoQuery), async (c) =>
			c.json(await listNotifications(c.var.deps, viewerOf(c))),
		);
	}
	for (const path of both('/v7.1/notification/read/')) {
		app.post(path, requireViewer, validate('query', NoQuery), async (c) => {
			await markNotificationsRead(c.var.deps, viewerOf(c));
			return c.body(null, 204);
		});
	}

	return app;
}
