import { bigserial, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Background work that must survive a restart: data exports, renewals, mail. A row is claimed by
 * one process at a time under a lease; a process that dies mid-job leaves the lease to run out, and
 * another claims the job again, so handlers make their effects idempotent.
 */
export const jobs = pgTable(
	'jobs',
	{
		id: bigserial('id', { mode: 'number' }).primaryKey(),
		kind: text('kind').notNull(),
		payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
		/** At most one job per key, so a second request or a second process's timer adds nothing. */
		uniqueKey: text('unique_key'),
		/** queued | running | done | failed */
		status: text('status').notNull().default('queued'),
		runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
		attempts: integer('attempts').notNull().default(0),
		maxAttempts: integer('max_attempts').notNull().default(5),
		leaseUntil: timestamp('lease_until', { withTimezone: true }),
		lastError: text('last_error'),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
		finishedAt: timestamp('finished_at', { withTimezone: true }),
	},
	(table) => [
		uniqueIndex('jobs_unique_key').on(table.uniqueKey),
		index('jobs_due').on(table.status, table.runAt),
	],
);
