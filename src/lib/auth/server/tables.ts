import { sql } from 'drizzle-orm';
import {
	bigint,
	boolean,
	check,
	date,
	doublePrecision,
	index,
	integer,
	jsonb,
	pgTable,
	serial,
	text,
	timestamp,
	uniqueIndex,
} from 'drizzle-orm/pg-core';

export const users = pgTable(
	'users',
	{
		id: serial('id').primaryKey(),
		username: text('username').notNull(),
		email: text('email').notNull(),
		emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
		/** argon2id PHC string; parameters live inside it so they can be raised later. */
		passwordHash: text('password_hash').notNull(),
		firstName: text('first_name').notNull().default(''),
		lastName: text('last_name').notNull().default(''),
		displayName: text('display_name').notNull().default(''),
		gender: text('gender'),
		birthdate: date('birthdate', { mode: 'string' }),
		locality: text('locality').notNull().default(''),
		region: text('region').notNull().default(''),
		country: text('country').notNull().default(''),
		timeZone: text('time_zone').notNull().default('UTC'),
		displayMeasurementSystem: text('display_measurement_system').notNull().default('metric'),
		/** The day weekly goals, stats and the calendar start a week on: 0 Sunday … 6 Saturday. */
		weekStartDay: integer('week_start_day').notNull().default(1),
		preferredLanguage: text('preferred_language').notNull().default('en-us'),
		heightM: doublePrecision('height_m'),
		weightKg: doublePrecision('weight_kg'),
		goalStatement: text('goal_statement').notNull().default(''),
		introduction: text('introduction').notNull().default(''),
		/** Profile, workout, route and email-search visibility: 0 private, 1 friends, 3 public. */
		profilePrivacy: integer('profile_privacy').notNull().default(1),
		workoutPrivacy: integer('workout_privacy').notNull().default(0),
		routePrivacy: integer('route_privacy').notNull().default(0),
		emailSearchPrivacy: integer('email_search_privacy').notNull().default(0),
		isPremium: boolean('is_premium').notNull().default(false),
		/** Operators: they may open /admin (challenges, refunds). Granted by `npm run admin`, never by the API. */
		isAdmin: boolean('is_admin').notNull().default(false),
		/** What the member agreed to at signup: matrix version, consents, GDPR country, app. */
		signupConsents: jsonb('signup_consents')
			.$type<{
				consentMatrixVersion?: string;
				consents?: unknown;
				gdprIsoCode?: string;
				appName?: string;
			}>()
			.notNull()
			.default({}),
		lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
		updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(t) => [
		uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
		uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
		// Member search matches the start of a name or username (LIKE 'text%'), any collation.
		index('users_display_name_prefix_idx').on(sql`lower(${t.displayName}) text_pattern_ops`),
		index('users_first_name_prefix_idx').on(sql`lower(${t.firstName}) text_pattern_ops`),
		index('users_last_name_prefix_idx').on(sql`lower(${t.lastName}) text_pattern_ops`),
		index('users_username_prefix_idx').on(sql`lower(${t.username}) text_pattern_ops`),
		check('users_week_start_day_check', sql`${t.weekStartDay} between 0 and 6`),
	],
);

/**
 * Browser sessions are rotating refresh tokens. Only the SHA-256 of a token is stored; a token
 * presented after it was rotated revokes its whole family.
 */
export const refreshTokens = pgTable(
	'refresh_tokens',
	{
		id: serial('id').primaryKey(),
		userId: integer('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		familyId: text('family_id').notNull(),
		tokenHash: text('token_hash').notNull(),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
		/** Absolute end of the family, fixed at login; rotation never extends it. */
		familyExpiresAt: timestamp('family_expires_at', { withTimezone: true }).notNull(),
		rotatedAt: timestamp('rotated_at', { withTimezone: true }),
		revokedAt: timestamp('revoked_at', { withTimezone: true }),
		userAgent: text('user_agent').notNull().default(''),
	},
	(t) => [
		uniqueIndex('refresh_tokens_hash_idx').on(t.tokenHash),
		index('refresh_tokens_user_idx').on(t.userId),
	],
);

/** Mail waiting to be sent, or kept as the development mailbox when no SMTP server is set. */
export const outboxMessages = pgTable(
	'outbox_messages',
	{
		id: serial('id').primaryKey(),
		userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
		toAddress: text('to_address').notNull(),
		subject: text('subject').notNull(),
		textBody: text('text_body').notNull(),
		/** Where answers go when not to the sender, and the extra headers (unsubscribe), for a retry to send the same. */
		replyTo: text('reply_to'),
		headers: jsonb('headers').$type<Record<string, string>>().notNull().default({}),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
		/** While one process is handing it to SMTP, no other sends it. */
		sendingUntil: timestamp('sending_until', { withTimezone: true }),
		sentAt: timestamp('sent_at', { withTimezone: true }),
	},
	// Mail not yet sent is looked for every minute; it is a sliver of all mail ever sent.
	(t) => [index('outbox_unsent_idx').on(t.id).where(sql`${t.sentAt} is null`)],
);

/** Single-use tokens for password reset and email confirmation, stored hashed. */
export const oneTimeTokens = pgTable(
	'one_time_tokens',
	{
		id: serial('id').primaryKey(),
		userId: integer('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		purpose: text('purpose').notNull(),
		tokenHash: text('token_hash').notNull(),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
		expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
		usedAt: timestamp('used_at', { withTimezone: true }),
		redirectUri: text('redirect_uri'),
	},
	(t) => [uniqueIndex('one_time_tokens_hash_idx').on(t.tokenHash)],
);

export const promotionalPreferences = pgTable(
	'promotional_preferences',
	{
		id: serial('id').primaryKey(),
		userId: integer('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		privacyStandard: text('privacy_standard').notNull().default('default'),
		region: text('region').notNull().default('US'),
		preferenceType: text('preference_type').notNull().default('ua-marketing-opt-in'),
		choice: boolean('choice').notNull(),
		updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(t) => [uniqueIndex('promotional_preferences_user_type_idx').on(t.userId, t.preferenceType)],
);

export const heartRateZones = pgTable('heart_rate_zones', {
	id: serial('id').primaryKey(),
	userId: integer('user_id')
		.notNull()
		.references(() => users.id, { onDelete: 'cascade' }),
	zones: jsonb('zones').$type<{ name: string; start: number; end: number }[]>().notNull(),
	createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const profilePhotos = pgTable('profile_photos', {
	userId: integer('user_id')
		.primaryKey()
		.references(() => users.id, { onDelete: 'cascade' }),
	/** File names under DATA_DIR/uploads/photos; the bytes never live in the database. */
	smallFile: text('small_file').notNull(),
	mediumFile: text('medium_file').notNull(),
	bytes: bigint('bytes', { mode: 'number' }).notNull(),
	updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A member's authenticator (TOTP, RFC 6238). The secret is sealed with a key derived from
 * SESSION_SECRET; `enabledAt` is null while the member has not yet confirmed a first code, and
 * `lastStep` is the 30-second step of the last code accepted, so a code works once.
 */
export const memberAuthenticators = pgTable('member_authenticators', {
	userId: integer('user_id')
		.primaryKey()
		.references(() => users.id, { onDelete: 'cascade' }),
	sealedSecret: text('sealed_secret').notNull(),
	enabledAt: timestamp('enabled_at', { withTimezone: true }),
	lastStep: bigint('last_step', { mode: 'number' }).notNull().default(0),
	createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One-time recovery codes for a member's second factor, kept only as SHA-256 hashes. */
export const recoveryCodes = pgTable(
	'recovery_codes',
	{
		id: serial('id').primaryKey(),
		userId: integer('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		codeHash: text('code_hash').notNull(),
		usedAt: timestamp('used_at', { withTimezone: true }),
	},
	(t) => [uniqueIndex('recovery_codes_hash_idx').on(t.userId, t.codeHash)],
);
