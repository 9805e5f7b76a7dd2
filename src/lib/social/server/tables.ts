import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from '../../auth/server/tables';

/**
 * A friendship request from one member to another: `pending` until the other accepts,
 * then `active`. One row per pair and direction; privacy checks look both ways.
 */
export const friendships = pgTable(
	'friendships',
	{
		id: serial('id').primaryKey(),
		fromUserId: integer('from_user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		toUserId: integer('to_user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		status: text('status').$type<'pending' | 'active'>().notNull().default('pending'),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(t) => [
		uniqueIndex('friendships_pair_idx').on(t.fromUserId, t.toUserId),
		index('friendships_to_user_idx').on(t.toUserId, t.status),
		check('friendships_status_check', sql`${t.status} in ('pending', 'active')`),
		check('friendships_not_self_check', sql`${t.fromUserId} <> ${t.toUserId}`),
	],
);
