import { sql } from 'drizzle-orm';
import {
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
 * Weekly goals. Progress is not stored: it is summed from the owner's workouts in their time
 * zone whenever it is read, so an edited or deleted workout never leaves a stale figure behind.
 */
export const userGoals = pgTable(
	'user_goals',
	{
		id: serial('id').primaryKey(),
		ownerId: integer('owner_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		period: text('period').notNull().default('P1W'),
		/** distance (metres), duration (seconds), calories (kcal) or count (workouts). */
		metric: text('metric').notNull(),
		threshold: doublePrecision('threshold').notNull(),
		/** An activity group, or `all`. */
		activityGroup: text('activity_group').notNull().default('all'),
		status: text('status').notNull().default('active'),
		startDatetime: timestamp('start_datetime', { withTimezone: true }).notNull(),
		endDatetime: timestamp('end_datetime', { withTimezone: true }),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
		updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(t) => [
		index('user_goals_owner_idx').on(t.ownerId, t.status),
		check('user_goals_period_check', sql`${t.period} = 'P1W'`),
		check('user_goals_status_check', sql`${t.status} in ('active', 'abandoned')`),
		check('user_goals_metric_check', sql`${t.metric} in ('distance', 'duration', 'calories', 'count')`),
	],
);
