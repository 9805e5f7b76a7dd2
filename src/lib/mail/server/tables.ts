import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../../auth/server/tables';
import type { EmailCategory } from '../contract';

/** One row per kind of e-mail a member turned off; no row means they get it. */
export const emailOptOuts = pgTable(
	'email_opt_outs',
	{
		userId: integer('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		category: text('category').$type<EmailCategory>().notNull(),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(t) => [primaryKey({ columns: [t.userId, t.category] })],
);
