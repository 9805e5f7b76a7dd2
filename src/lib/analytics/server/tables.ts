import {
	bigserial,
	doublePrecision,
	index,
	jsonb,
	pgTable,
	text,
	timestamp,
	uuid,
} from 'drizzle-orm/pg-core';
import type { AnalyticsEventType } from '../events';

/**
 * Product events and page views from browsers. Nothing here names a member: no user id, no
 * address, no e-mail; a visitor who agreed to analytics is known only by the random device id of
 * their cookie, one who did not agree by nothing at all. Rows older than EVENT_RETENTION_DAYS go.
 */
export const analyticsEvents = pgTable(
	'analytics_events',
	{
		id: bigserial('id', { mode: 'number' }).primaryKey(),
		deviceId: uuid('device_id'),
		type: text('type').$type<AnalyticsEventType>().notNull(),
		name: text('name').notNull(),
		pageType: text('page_type'),
		value: doublePrecision('value'),
		attributes: jsonb('attributes').$type<Record<string, string | number | boolean | null>>().notNull(),
		occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
		receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
	},
	(t) => [
		index('analytics_events_occurred_idx').on(t.occurredAt),
		index('analytics_events_device_idx').on(t.deviceId, t.occurredAt),
	],
);
