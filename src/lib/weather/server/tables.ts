import { sql } from 'drizzle-orm';
import { check, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { workouts } from '../../workouts/server/tables';
import type { WeatherObservation } from '../contract';

/**
 * The weather a provider reported for a workout: `ready` with the observation, `pending` until it
 * answers (or again after `retry_after`, when it had no data yet), `none` when it never will (a
 * workout without positions, a place or day the provider has nothing for). `asked_for` names the
 * hour and rounded place asked about, so an edit that moves the workout asks again.
 */
export const workoutWeather = pgTable(
	'workout_weather',
	{
		workoutId: integer('workout_id')
			.primaryKey()
			.references(() => workouts.id, { onDelete: 'cascade' }),
		status: text('status').notNull(),
		provider: text('provider').notNull(),
		askedFor: text('asked_for').notNull(),
		observation: jsonb('observation').$type<WeatherObservation>(),
		retryAfter: timestamp('retry_after', { withTimezone: true }),
		updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(t) => [check('workout_weather_status_check', sql`${t.status} in ('pending', 'ready', 'none')`)],
);
