import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../../auth/server/tables';
import type { SupportTopic } from '../contract';

/** What members and visitors wrote to support; the message is kept as typed and shown as text. */
export const supportRequests = pgTable(
	'support_requests',
	{
		id: serial('id').primaryKey(),
		// Deleting an account erases what its member wrote to support too.
		userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
		email: text('email').notNull(),
		topic: text('topic').$type<SupportTopic>().notNull(),
		message: text('message').notNull(),
		linkPath: text('link_path'),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(t) => [index('support_requests_created_idx').on(t.createdAt)],
);
