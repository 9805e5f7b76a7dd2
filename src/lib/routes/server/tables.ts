import { sql } from 'drizzle-orm';
import {
	check,
	doublePrecision,
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
import type { RouteCue, RouteMarker, RouteSegment, TravelModeRun } from '../contract';

/**
 * Saved routes. Distances and heights are metres; the path is the full drawn line (polyline6). Search reads the start point
 * through a plain (lat, lng) b-tree: a bounding box narrows the rows, haversine decides.
 */
export const routes = pgTable(
	'routes',
	{
		id: serial('id').primaryKey(),
		ownerId: integer('owner_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		name: text('name').notNull(),
		description: text('description').notNull().default(''),
		activityTypeId: integer('activity_type_id').notNull().default(16),
		/** 0 private, 1 friends, 3 public, 6 accessible to link holders. */
		privacy: integer('privacy').notNull().default(0),
		/** 256-bit random, base64url: what a link to an accessible route carries besides the id. */
		linkToken: text('link_token').notNull(),
		distanceM: doublePrecision('distance_m').notNull(),
		ascentM: doublePrecision('ascent_m'),
		descentM: doublePrecision('descent_m'),
		minElevationM: doublePrecision('min_elevation_m'),
		maxElevationM: doublePrecision('max_elevation_m'),
		/** polyline6 of the whole line; elevations, when known, parallel to it. */
		path: text('path').notNull(),
		pointCount: integer('point_count').notNull(),
		elevations: jsonb('elevations').$type<(number | null)[] | null>(),
		/** Travel mode of the points from `start` on, one entry per change (the save payload's per-point modes). */
		travelModes: jsonb('travel_modes').$type<TravelModeRun[]>().notNull().default([]),
		segments: jsonb('segments').$type<RouteSegment[]>().notNull().default([]),
		cues: jsonb('cues').$type<RouteCue[]>().notNull().default([]),
		markers: jsonb('markers').$type<RouteMarker[]>().notNull().default([]),
		startLat: doublePrecision('start_lat').notNull(),
		startLng: doublePrecision('start_lng').notNull(),
		city: text('city').notNull().default(''),
		region: text('region').notNull().default(''),
		country: text('country').notNull().default(''),
		/** Bumped on every write; PUT with an older one answers 412 with the server copy. */
		version: integer('version').notNull().default(1),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
		updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(t) => [
		index('routes_owner_created_idx').on(t.ownerId, t.createdAt),
		index('routes_privacy_created_idx').on(t.privacy, t.createdAt),
		index('routes_start_idx').on(t.startLat, t.startLng),
		index('routes_distance_idx').on(t.distanceM),
		uniqueIndex('routes_link_token_idx').on(t.linkToken),
		check('routes_privacy_check', sql`${t.privacy} in (0, 1, 3, 6)`),
	],
);

export const routeBookmarks = pgTable(
	'route_bookmarks',
	{
		id: serial('id').primaryKey(),
		userId: integer('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		routeId: integer('route_id')
			.notNull()
			.references(() => routes.id, { onDelete: 'cascade' }),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(t) => [
		uniqueIndex('route_bookmarks_user_route_idx').on(t.userId, t.routeId),
		index('route_bookmarks_route_idx').on(t.routeId),
	],
);
