import { bigint, integer, pgTable, varchar } from 'drizzle-orm/pg-core';

/**
 * Request budgets shared by every process on one PostgreSQL (rate-limiter-flexible's
 * RateLimiterPostgres reads and writes it; the columns are the ones it expects). A key is
 * `<budget>:<caller>`; `expire` is milliseconds since the epoch, when the window ends.
 */
export const rateLimits = pgTable('rate_limits', {
	key: varchar('key', { length: 255 }).primaryKey(),
	points: integer('points').notNull().default(0),
	expire: bigint('expire', { mode: 'number' }),
});
