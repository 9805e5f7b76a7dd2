import {
	doublePrecision,
	index,
	integer,
	pgTable,
	serial,
	text,
	timestamp,
	uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from '../../auth/server/tables';
import { workouts } from '../../workouts/server/tables';

/**
 * Each workout's best effort at each record distance (the fastest stretch of its recording between
 * 99 and 105 % of the distance, or the whole workout when it has no recording and its distance is
 * in that window). Personal records and their history are read from these rows.
 */
export const bestEfforts = pgTable(
	'best_efforts',
	{
		id: serial('id').primaryKey(),
		ownerId: integer('owner_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		workoutId: integer('workout_id')
			.notNull()
			.references(() => workouts.id, { onDelete: 'cascade' }),
		activityGroup: text('activity_group').notNull(),
		distanceKey: text('distance_key').notNull(),
		seconds: doublePrecision('seconds').notNull(),
		distanceM: doublePrecision('distance_m').notNull(),
		startOffsetS: doublePrecision('start_offset_s').notNull().default(0),
		achievedAt: timestamp('achieved_at', { withTimezone: true }).notNull(),
	},
	(t) => [
		uniqueIndex('best_efforts_workout_distance_idx').on(t.workoutId, t.distanceKey),
		index('best_efforts_owner_idx').on(t.ownerId, t.activityGroup, t.distanceKey, t.seconds),
	],
);

/**
 * The workouts whose best efforts are still to be found: a database trigger queues a workout when
 * it is saved and again whenever its version moves (an edit or a cut), in the same transaction, so
 * a member's next look at their records reads only these rows instead of comparing every workout
 * they have. A row leaves once that version has been looked at.
 */
export const bestEffortQueue = pgTable(
	'best_effort_queue',
	{
		workoutId: integer('workout_id')
			.primaryKey()
			.references(() => workouts.id, { onDelete: 'cascade' }),
		ownerId: integer('owner_id').notNull(),
		version: integer('version').notNull(),
	},
	(t) => [index('best_effort_queue_owner_idx').on(t.ownerId)],
);

/**
 * A mark per member that changes with every insert, edit or delete of their workouts (a database
 * trigger sets a fresh random value), so cached stats know in one lookup whether they still hold.
 * The same trigger keeps how many workouts the member has, so their own list need not count them.
 * No foreign key: the trigger also fires while a member and their workouts are being deleted.
 */
export const workoutChangeMarks = pgTable('workout_change_marks', {
	ownerId: integer('owner_id').primaryKey(),
	mark: text('mark').notNull(),
	workoutCount: integer('workout_count').notNull().default(0),
});
