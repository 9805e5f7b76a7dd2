import { sql } from 'drizzle-orm';
import {
	boolean,
	check,
	doublePrecision,
	index,
	integer,
	pgTable,
	serial,
	text,
	timestamp,
} from 'drizzle-orm/pg-core';
import { users } from '../../auth/server/tables';

/**
 * A member's shoes and bikes. Distance worn is never stored: it is the start distance plus the
 * distances of the workouts that name the gear, summed when read, so edits, cuts and deletions of
 * workouts count at once.
 */
export const userGear = pgTable(
	'user_gear',
	{
		id: serial('id').primaryKey(),
		userId: integer('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		/** shoes | bike */
		kind: text('kind').notNull(),
		brand: text('brand').notNull().default(''),
		model: text('model').notNull().default(''),
		nickname: text('nickname').notNull().default(''),
		/** Metres already worn before the member added it here. */
		startDistance: doublePrecision('start_distance').notNull().default(0),
		/** Metres after which the member wants to be told to replace it; null for no alert. */
		alertDistance: doublePrecision('alert_distance'),
		retired: boolean('retired').notNull().default(false),
		version: integer('version').notNull().default(1),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
		updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(t) => [
		index('user_gear_user_idx').on(t.userId),
		check('user_gear_kind_check', sql`${t.kind} in ('shoes', 'bike')`),
	],
);
