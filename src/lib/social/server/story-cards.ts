/**
 * A story as its card shows it: the workout, route, goal or challenge behind it, its figures,
 * thumbnail and photos, and how many liked and commented.
 */
import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { locationPrivacyOfMany } from '../../account/server/location-privacy';
import { users } from '../../auth/server/tables';
import { formatApiDateTime } from '../../core/dates';
import { decodePath, type RouteWithOwner } from '../../routes/server/access';
import { routes } from '../../routes/server/tables';
import { hideRouteInZones } from '../../routes/zones';
import { photosOfWorkouts } from '../../workouts/server/photos';
import { recordingForViewer } from '../../workouts/server/recording';
import { getWorkoutSeriesMany, type WorkoutWithOwner } from '../../workouts/server/service';
import { workouts } from '../../workouts/server/tables';
import { STORY_PHOTOS_SHOWN, type StoryView } from '../contract';
import { notBlockedWith } from './relations';
import { type Deps, notFound } from './social-shared';
import { visibleObject } from './story-access';
import {
	isMemberStoryType,
	memberStoryPrivacy,
	microsOf,
	type Position,
	positionText,
	type StoryKey,
	storiesMatch,
	storyHref,
} from './story-shared';
import { memberStories, storyComments, storyLikes } from './tables';

type WorkoutStoryRow = WorkoutWithOwner;
type RouteStoryRow = RouteWithOwner;
type MemberStoryRow = typeof memberStories.$inferSelect & {
	ownerId: number;
	ownerDisplayName: string | null;
	ownerUsername: string;
	privacy: number;
};
type FeedEntry =
	| { type: 'workout'; position: Position; row: WorkoutStoryRow }
	| { type: 'route'; position: Position; row: RouteStoryRow }
	| { type: 'goal'; position: Position; row: MemberStoryRow }
	| { type: 'challenge'; position: Position; row: MemberStoryRow };

/** The stories at these feed positions, with their owners, in the same order. */
export async function entriesAt(deps: Deps, positions: Position[]): Promise<FeedEntry[]> {
	const workoutIds = positions
		.filter((position) => position.type === 'workout')
		.map((position) => position.id);
	const routeIds = positions.filter((position) => position.type === 'route').map((position) => position.id);
	const memberIds = positions
		.filter((position) => isMemberStoryType(position.type))
		.map((position) => position.id);
	const [workoutRows, routeRows, memberRows] = await Promise.all([
		workoutIds.length === 0
			? []
			: deps.db
					.select({
						...getTableColumns(workouts),
						ownerDisplayName: users.displayName,
						ownerUsername: users.username,
					})
					.from(workouts)
					.innerJoin(users, eq(users.id, workouts.ownerId))
					.where(inArray(workouts.id, workoutIds)),
		routeIds.length === 0
			? []
			: deps.db
					.select({
						...getTableColumns(routes),
						ownerDisplayName: users.displayName,
						ownerUsername: users.username,
					})
					.from(routes)
					.innerJoin(users, eq(users.id, routes.ownerId))
					.where(inArray(routes.id, routeIds)),
		memberIds.length === 0
			? []
			: deps.db
					.select({
						...getTableColumns(memberStories),
						ownerId: memberStories.actorId,
						ownerDisplayName: users.displayName,
						ownerUsername: users.username,
						privacy: memberStoryPrivacy,
					})
					.from(memberStories)
					.innerJoin(users, eq(users.id, memberStories.actorId))
					.where(inArray(memberStories.id, memberIds)),
	]);
	const workoutById = new Map(workoutRows.map((row) => [row.id, row]));
	const routeById = new Map(routeRows.map((row) => [row.id, row]));
	const memberById = new Map(memberRows.map((row) => [row.id, row]));
	const entries: FeedEntry[] = [];
	for (const position of positions) {
		const type = position.type;
		if (type === 'workout') {
			const row = workoutById.get(position.id);
			if (row) entries.push({ type, row, position });
		} else if (type === 'route') {
			const row = routeById.get(position.id);
			if (row) entries.push({ type, row, position });
		} else {
			const row = memberById.get(position.id);
			if (row?.objectType === 'goal' && type === 'goal') entries.push({ type, row, position });
			if (row?.objectType === 'challenge' && type === 'challenge') entries.push({ type, row, position });
		}
	}
	return entries;
}

/** Likes and comments counted for a set of stories. */
async function countsFor(deps: Deps, viewer: { id: number }, keys: StoryKey[]) {
	const likes = new Map<string, { count: number; mine: number | null }>();
	const comments = new Map<string, number>();
	if (keys.length === 0) return { likes, comments };
	const match = (typeColumn: AnyPgColumn, idColumn: AnyPgColumn) => storiesMatch(keys, typeColumn, idColumn);
	// Likes and comments in one query: a row per story and kind, the viewer's own like with it.
	const rows = await deps.db
		.select({
			kind: sql<'like' | 'comment'>`'like'`,
			type: storyLikes.objectType,
			id: storyLikes.objectId,
			count: sql<number>`count(*)::int`,
			mine: sql<number | null>`max(case when ${storyLikes.userId} = ${viewer.id} then ${storyLikes.id} end)`,
		})
		.from(storyLikes)
		.where(
			and(match(storyLikes.objectType, storyLikes.objectId), notBlockedWith(viewer.id, storyLikes.userId)),
		)
		.groupBy(storyLikes.objectType, storyLikes.objectId)
		.unionAll(
			deps.db
				.select({
					kind: sql<'like' | 'comment'>`'comment'`,
					type: storyComments.objectType,
					id: storyComments.objectId,
					count: sql<number>`count(*)::int`,
					mine: sql<number | null>`null::integer`,
				})
				.from(storyComments)
				.where(
					and(
						match(storyComments.objectType, storyComments.objectId),
						notBlockedWith(viewer.id, storyComments.authorId),
					),
				)
				.groupBy(storyComments.objectType, storyComments.objectId),
		);
	for (const row of rows) {
		const key = `${row.type}_${row.id}`;
		if (row.kind === 'like') likes.set(key, { count: row.count, mine: row.mine });
		else comments.set(key, row.count);
	}
	return { likes, comments };
}

/** At most this many points draw a card's thumbnail. */
const THUMBNAIL_POINTS = 64;

function thin(points: [number, number][]): [number, number][] {
	if (points.length <= THUMBNAIL_POINTS) return points;
	const step = (points.length - 1) / (THUMBNAIL_POINTS - 1);
	return Array.from({ length: THUMBNAIL_POINTS }, (_, index) => points[Math.round(index * step)]);
}

const round5 = (value: number) => Math.round(value * 1e5) / 1e5;

function storyPhotos(
	found: { total: number; first: { id: number; uri: string; thumbnail_uri: string }[] } | undefined,
): StoryView['photos'] {
	if (!found) return { total: 0, first: [] };
	const first = found.first.map(({ id, uri, thumbnail_uri }) => ({ id, uri, thumbnail_uri }));
	return { total: found.total, first };
}

export async function representStories(
	deps: Deps,
	viewer: { id: number },
	entries: FeedEntry[],
): Promise<StoryView[]> {
	const { likes, comments } = await countsFor(
		deps,
		viewer,
		entries.map((entry) => ({ type: entry.type, id: entry.row.id })),
	);
	const workouts = entries.flatMap((entry) => (entry.type === 'workout' ? [entry.row] : []));
	// Read once for the whole page, not once per story: photos, recordings, and each owner's privacy.
	const [photos, recordings, privacy] = await Promise.all([
		photosOfWorkouts(
			deps,
			workouts.map((workout) => workout.id),
			STORY_PHOTOS_SHOWN,
		),
		// Thumbnails come from each workout's stored preview; only one stored before previews were kept
		// is read whole.
		getWorkoutSeriesMany(
			deps,
			workouts
				.filter((workout) => workout.sampleCount > 0 && workout.previewSeries === null)
				.map((workout) => workout.id),
		),
		locationPrivacyOfMany(
			deps,
			entries.filter((entry) => entry.row.ownerId !== viewer.id).map((entry) => entry.row.ownerId),
		),
	]);
	return Promise.all(
		entries.map(async (entry): Promise<StoryView> => {
			const key = `${entry.type}_${entry.row.id}`;
			const like = likes.get(key);
			const common = {
				id: key,
				object_id: entry.row.id,
				position: positionText(entry.position),
				actor: {
					id: entry.row.ownerId,
					title: entry.row.ownerDisplayName || entry.row.ownerUsername,
					username: entry.row.ownerUsername,
				},
				privacy: entry.row.privacy,
				likes: {
					count: like?.count ?? 0,
					liked_by_me: like?.mine != null,
					like_id: like?.mine != null ? `like_${like.mine}` : null,
				},
				comments: { count: comments.get(key) ?? 0 },
				can_delete: entry.row.ownerId === viewer.id,
			};
			const none = { total: 0, first: [] };
			if (entry.type === 'goal' || entry.type === 'challenge') {
				const story = entry.row;
				return {
					...common,
					object_type: entry.type,
					title: story.title,
					activity_type: null,
					published: formatApiDateTime(story.publishedAt),
					figures: { distance_m: null, duration_s: null, ascent_m: null, energy_j: null },
					thumbnail: [],
					photos: none,
					details: story.details,
					href: storyHref({
						type: entry.type,
						id: story.id,
						actorId: story.actorId,
						subjectId: story.subjectId,
					}),
				};
			}
			if (entry.type === 'workout') {
				const workout = entry.row;
				let thumbnail: [number, number][] = [];
				const stored = workout.previewSeries
					? { series: workout.previewSeries, laps: [] }
					: recordings.get(workout.id);
				if (stored && stored.series.t.length > 0) {
					// Every non-owner view goes through the trimmed recording: privacy zones and hidden ends apply.
					const recording = await recordingForViewer(
						deps,
						workout,
						stored,
						viewer,
						privacy.get(workout.ownerId),
					);
					thumbnail = thin(
						recording.samples
							.filter(
								(sample, index) =>
									!recording.hidden[index] && sample.lat !== undefined && sample.lng !== undefined,
							)
							.map((sample) => [round5(sample.lat as number), round5(sample.lng as number)]),
					);
				}
				return {
					...common,
					object_type: 'workout',
					title: workout.name,
					activity_type: workout.activityTypeId,
					details: null,
					published: formatApiDateTime(workout.startDatetime),
					figures: {
						distance_m: workout.distanceTotal,
						duration_s: workout.activeTimeTotal ?? workout.elapsedTimeTotal,
						ascent_m: null,
						energy_j: workout.metabolicEnergyTotal,
					},
					thumbnail,
					photos: storyPhotos(photos.get(workout.id)),
					href: storyHref({ type: 'workout', id: workout.id, actorId: workout.ownerId }),
				};
			}
			const route = entry.row;
			// Others see the line without what lies in the owner's privacy zones, as on the route's own page.
			const seen =
				route.ownerId === viewer.id
					? route
					: hideRouteInZones(route, privacy.get(route.ownerId)?.zones ?? []);
			return {
				...common,
				object_type: 'route',
				title: route.name,
				activity_type: route.activityTypeId,
				details: null,
				published: formatApiDateTime(route.createdAt),
				figures: { distance_m: route.distanceM, duration_s: null, ascent_m: route.ascentM, energy_j: null },
				thumbnail: seen ? thin(decodePath(seen).map(([lat, lng]) => [round5(lat), round5(lng)])) : [],
				photos: none,
				href: storyHref({ type: 'route', id: route.id, actorId: route.ownerId }),
			};
		}),
	);
}

/** One story by its object, for GET activity_story/?object_type=&object_id=. */
export async function getStory(deps: Deps, viewer: { id: number }, key: StoryKey): Promise<StoryView> {
	await visibleObject(deps, viewer, key);
	const [time, table] =
		key.type === 'workout'
			? [workouts.startDatetime, workouts]
			: key.type === 'route'
				? [routes.createdAt, routes]
				: [memberStories.publishedAt, memberStories];
	const [row] = await deps.db
		.select({ micros: microsOf(time) })
		.from(table)
		.where(eq(table.id, key.id));
	const entries = row
		? await entriesAt(deps, [{ micros: BigInt(row.micros), type: key.type, id: key.id }])
		: [];
	if (entries.length === 0) throw notFound('No such story.');
	const [story] = await representStories(deps, viewer, entries);
	return story;
}
