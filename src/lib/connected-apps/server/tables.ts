import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from '../../auth/server/tables';
import { workouts } from '../../workouts/server/tables';
import type { DeviceConnectionView } from '../contract';

/** Apps registered on the Developer page. Only the SHA-256 of a secret is kept; public apps have none. */
export const oauthClients = pgTable(
	'oauth_clients',
	{
		id: serial('id').primaryKey(),
		/** Public: sent as `client_id` and as the `Api-Key` header. */
		clientId: text('client_id').notNull(),
		ownerUserId: integer('owner_user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		name: text('name').notNull(),
		redirectUris: jsonb('redirect_uris').$type<string[]>().notNull(),
		scopes: jsonb('scopes').$type<string[]>().notNull(),
		secretHash: text('secret_hash'),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(t) => [
		uniqueIndex('oauth_clients_client_id_idx').on(t.clientId),
		index('oauth_clients_owner_idx').on(t.ownerUserId),
	],
);

/**
 * One "Allow" on the consent screen: the scopes a member gave an app. Every code and token hangs
 * from a grant, so revoking the grant (the member, a replayed code, a reused refresh token) ends
 * them all at once.
 */
export const oauthGrants = pgTable(
	'oauth_grants',
	{
		id: serial('id').primaryKey(),
		clientId: integer('client_id')
			.notNull()
			.references(() => oauthClients.id, { onDelete: 'cascade' }),
		userId: integer('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		scopes: jsonb('scopes').$type<string[]>().notNull(),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
		/** Absolute end of the grant's refresh tokens; rotation never extends it. */
		expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
		lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
		revokedAt: timestamp('revoked_at', { withTimezone: true }),
		revokedReason: text('revoked_reason'),
	},
	(t) => [index('oauth_grants_user_idx').on(t.userId, t.clientId)],
);

/** Authorization codes, hashed, single-use, bound to the PKCE challenge and redirect URI. */
export const oauthCodes = pgTable(
	'oauth_codes',
	{
		id: serial('id').primaryKey(),
		grantId: integer('grant_id')
			.notNull()
			.references(() => oauthGrants.id, { onDelete: 'cascade' }),
		codeHash: text('code_hash').notNull(),
		redirectUri: text('redirect_uri').notNull(),
		codeChallenge: text('code_challenge').notNull(),
		expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
		usedAt: timestamp('used_at', { withTimezone: true }),
	},
	(t) => [uniqueIndex('oauth_codes_hash_idx').on(t.codeHash)],
);

/** Access and refresh tokens, hashed. A refresh token is rotated once; showing it again kills the grant. */
export const oauthTokens = pgTable(
	'oauth_tokens',
	{
		id: serial('id').primaryKey(),
		grantId: integer('grant_id')
			.notNull()
			.references(() => oauthGrants.id, { onDelete: 'cascade' }),
		kind: text('kind').$type<'access' | 'refresh'>().notNull(),
		tokenHash: text('token_hash').notNull(),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
		expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
		rotatedAt: timestamp('rotated_at', { withTimezone: true }),
		revokedAt: timestamp('revoked_at', { withTimezone: true }),
	},
	(t) => [
		uniqueIndex('oauth_tokens_hash_idx').on(t.tokenHash),
		index('oauth_tokens_grant_idx').on(t.grantId),
	],
);

/** Every app read of location or health data, for the member's privacy centre. */
export const appDataAccessLog = pgTable(
	'app_data_access_log',
	{
		id: serial('id').primaryKey(),
		userId: integer('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		clientId: integer('client_id')
			.notNull()
			.references(() => oauthClients.id, { onDelete: 'cascade' }),
		scope: text('scope').notNull(),
		method: text('method').notNull(),
		/** The endpoint's pattern, never the address with its query. */
		path: text('path').notNull(),
		at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
	},
	(t) => [index('app_data_access_log_user_idx').on(t.userId, t.at)],
);

/** A member's link to a device cloud (device-clouds.ts): their id there and our tokens for it, sealed. */
export const deviceConnections = pgTable(
	'device_connections',
	{
		id: serial('id').primaryKey(),
		userId: integer('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		cloud: text('cloud').notNull(),
		cloudAccount: text('cloud_account').notNull(),
		/** The cloud's tokens, encrypted with a key from SESSION_SECRET (device-sync.ts). */
		sealedTokens: text('sealed_tokens').notNull(),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
		/** Activities started from here on are looked for; it moves up to the newest one imported. */
		syncFrom: timestamp('sync_from', { withTimezone: true }).notNull(),
		lastSyncAt: timestamp('last_sync_at', { withTimezone: true }),
		/** Why the last sync failed, in words for the member; null after one that worked. */
		lastError: text('last_error'),
	},
	(t) => [
		uniqueIndex('device_connections_user_cloud_idx').on(t.userId, t.cloud),
		index('device_connections_account_idx').on(t.cloud, t.cloudAccount),
	],
);

export type DeviceImportStatus = DeviceConnectionView['imports'][number]['status'];

/**
 * Every cloud activity met, once per member: what became of it. The unique key is what makes an activity
 * announced twice (a webhook and a poll, two processes) become one workout.
 */
export const deviceImports = pgTable(
	'device_imports',
	{
		id: serial('id').primaryKey(),
		userId: integer('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		cloud: text('cloud').notNull(),
		externalId: text('external_id').notNull(),
		name: text('name').notNull(),
		startTime: timestamp('start_time', { withTimezone: true }).notNull(),
		status: text('status').$type<DeviceImportStatus>().notNull(),
		workoutId: integer('workout_id').references(() => workouts.id, { onDelete: 'set null' }),
		/** Why a file was refused, in words for the member. */
		message: text('message'),
		updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(t) => [
		uniqueIndex('device_imports_activity_idx').on(t.userId, t.cloud, t.externalId),
		index('device_imports_user_idx').on(t.userId, t.updatedAt),
	],
);

/** A connect on its way through the cloud: the state sent (hashed) and the PKCE verifier, kept here. */
export const deviceAuthorizations = pgTable('device_authorizations', {
	stateHash: text('state_hash').primaryKey(),
	userId: integer('user_id')
		.notNull()
		.references(() => users.id, { onDelete: 'cascade' }),
	cloud: text('cloud').notNull(),
	codeVerifier: text('code_verifier').notNull(),
	expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** The built-in test device cloud's own records (test-cloud.ts): its codes and tokens, hashed. */
export const testCloudTokens = pgTable('test_cloud_tokens', {
	tokenHash: text('token_hash').primaryKey(),
	kind: text('kind').$type<'code' | 'access' | 'refresh'>().notNull(),
	cloudAccount: text('cloud_account').notNull(),
	/** For a code: the PKCE challenge and the address it may be sent back to. */
	codeChallenge: text('code_challenge'),
	redirectUri: text('redirect_uri'),
	expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
	usedAt: timestamp('used_at', { withTimezone: true }),
});

/** What the test cloud's test watches recorded: a demo outing replayed from a real recording. */
export const testCloudActivities = pgTable(
	'test_cloud_activities',
	{
		id: serial('id').primaryKey(),
		cloudAccount: text('cloud_account').notNull(),
		outing: text('outing').notNull(),
		startTime: timestamp('start_time', { withTimezone: true }).notNull(),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(t) => [index('test_cloud_activities_user_idx').on(t.cloudAccount, t.startTime)],
);
