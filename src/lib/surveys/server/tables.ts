import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from '../../auth/server/tables';

/** Customer survey answers; a "not now" is kept too (dismissed, no score) so the member is not asked again. */
export const surveyResponses = pgTable(
	'survey_responses',
	{
		id: serial('id').primaryKey(),
		userId: integer('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		survey: text('survey').notNull(),
		dismissed: boolean('dismissed').notNull().default(false),
		score: integer('score'),
		mainUse: text('main_use'),
		comment: text('comment').notNull().default(''),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(t) => [
		uniqueIndex('survey_responses_user_survey_idx').on(t.userId, t.survey),
		check('survey_responses_score_check', sql`${t.score} is null or ${t.score} between 0 and 10`),
	],
);
