import { sql } from 'drizzle-orm';
import {
	bigint,
	boolean,
	check,
	index,
	integer,
	pgTable,
	serial,
	text,
	timestamp,
	uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from '../../auth/server/tables';

/**
 * Every consent answer a member ever gave, never updated: the newest row per consent is how they
 * stand, and the rows before it show when and from which matrix each earlier answer came.
 */
export const consentRecords = pgTable(
	'consent_records',
	{
		id: serial('id').primaryKey(),
		userId: integer('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		consentKey: text('consent_key').notNull(),
		granted: boolean('granted').notNull(),
		region: text('region').notNull(),
		matrixVersion: integer('matrix_version').notNull(),
		/** signup, consents, edit, decline, gpc, api or demo. */
		source: text('source').notNull(),
		recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(t) => [
		index('consent_records_user_key_idx').on(t.userId, t.consentKey, t.id),
		check('consent_records_region_check', sql`${t.region} in ('US', 'EU1', 'EU2')`),
	],
);

/** The country a member confirmed on the region screen; their matrix follows from it. */
export const privacyCountries = pgTable('privacy_countries', {
	userId: integer('user_id')
		.primaryKey()
		.references(() => users.id, { onDelete: 'cascade' }),
	country: text('country').notNull(),
	confirmedAt: timestamp('confirmed_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A member's requests for all their data. The archive lives under DATA_DIR/exports; only the
 * SHA-256 of its download token is kept.
 */
export const dataExports = pgTable(
	'data_exports',
	{
		id: serial('id').primaryKey(),
		userId: integer('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		status: text('status').notNull().default('queued'),
		progress: integer('progress').notNull().default(0),
		tokenHash: text('token_hash'),
		fileName: text('file_name'),
		bytes: bigint('bytes', { mode: 'number' }),
		/** Set once the link mail is queued, so a retried job never sends it twice. */
		mailedAt: timestamp('mailed_at', { withTimezone: true }),
		requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
		completedAt: timestamp('completed_at', { withTimezone: true }),
		expiresAt: timestamp('expires_at', { withTimezone: true }),
	},
	(t) => [
		index('data_exports_user_idx').on(t.userId, t.id),
		uniqueIndex('data_exports_token_idx').on(t.tokenHash),
		check(
			'data_exports_status_check',
			sql`${t.status} in ('queued', 'building', 'ready', 'failed', 'expired')`,
		),
	],
);

/** Who or what read a member's location or health data, and when; the member reads it back. */
export const dataAccessLog = pgTable(
	'data_access_log',
	{
		id: serial('id').primaryKey(),
		userId: integer('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		/** A feature of ours (`Data export`) or a connected app's name. */
		reader: text('reader').notNull(),
		dataKind: text('data_kind').notNull(),
		purpose: text('purpose').notNull(),
		accessedAt: timestamp('accessed_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(t) => [
		index('data_access_log_user_idx').on(t.userId, t.accessedAt),
		check('data_access_log_kind_check', sql`${t.dataKind} in ('location', 'health')`),
	],
);
