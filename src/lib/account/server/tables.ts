import { doublePrecision, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../../auth/server/tables';

/**
 * Circles inside which a member's workouts show no position to anyone else. Only the displaced
 * circle is stored (see `placeZone`), never the address or point the member gave.
 */
export const privacyZones = pgTable(
	'privacy_zones',
	{
		id: serial('id').primaryKey(),
		ownerId: integer('owner_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		name: text('name').notNull().default(''),
		/** The radius the member chose; the hidden circle below is larger. */
		chosenRadiusM: integer('chosen_radius_m').notNull(),
		lat: doublePrecision('lat').notNull(),
		lng: doublePrecision('lng').notNull(),
		radiusM: integer('radius_m').notNull(),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(t) => [index('privacy_zones_owner_idx').on(t.ownerId)],
);

/** A member's location-privacy settings; a member without a row has the defaults. */
export const locationPrivacySettings = pgTable('location_privacy_settings', {
	userId: integer('user_id')
		.primaryKey()
		.references(() => users.id, { onDelete: 'cascade' }),
	/** Metres hidden at each end of every workout; 0 hides none. */
	hideEndsM: integer('hide_ends_m').notNull(),
	updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
