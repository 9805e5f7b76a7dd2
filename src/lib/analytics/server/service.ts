import { lt, sql } from 'drizzle-orm';
import { createLimiter, spendOrRefuse } from '../../api/rate-limit';
import type { AppDeps, Db } from '../../core/server/deps';
import { parseCookieChoices } from '../../site/cookie-choices';
import { readGeoCookie } from '../../site/privacy-request';
import { analyticsConsent, readDeviceId } from '../consent';
import type {
	AnalyticsReport,
	ClientEvent,
	ClientEventBatch,
	ClientEventsAnswer,
	DailyCounts,
	FunnelStep,
	VitalsRow,
} from '../contract';
import { EVENT_RETENTION_DAYS, WEB_VITAL_NAMES, type WebVitalName } from '../events';
import { analyticsEvents } from './tables';

type Deps = Pick<AppDeps, 'db' | 'clock'>;

/** Batches one address may send a minute: a busy page sends one every few seconds. */
export const CLIENT_EVENT_BATCHES_PER_MINUTE = 60;
/** Events older than this when they arrive (a tab left asleep) or from a clock far ahead are dropped. */
const OLDEST_EVENT_MS = 24 * 3600_000;
const NEWEST_EVENT_MS = 10 * 60_000;

const DAY_MS = 86_400_000;

/** Attribute names that would hold who someone is or where exactly they are. */
const PERSONAL_KEYS = new Set([
	'email',
	'e_mail',
	'mail',
	'name',
	'first_name',
	'last_name',
	'full_name',
	'username',
	'user_name',
	'phone',
	'ip',
	'address',
	'lat',
	'lng',
	'lon',
	'long',
	'latitude',
	'longitude',
	'coordinates',
	'coords',
	'position',
	'location',
	'close_to_location',
]);
/** Two decimal numbers side by side: a position, whatever the attribute is called. */
const COORDINATE_PAIR = /-?\d{1,3}\.\d+\s*[,;: /]\s*-?\d{1,3}\.\d+/;

export type EventSender = {
	/** The request's Cookie header: the cookie choices, the place and the device id. */
	cookie: string | null;
	/** The request's Sec-GPC header. */
	gpc: boolean;
	/** Counts the batch against the address's budget only; it is never stored. */
	ip: string;
};

const budgets = new WeakMap<Db, ReturnType<typeof createLimiter>>();
function budgetOf(db: Db) {
	let limiter = budgets.get(db);
	if (!limiter) {
		limiter = createLimiter(db, {
			name: 'client-events',
			points: CLIENT_EVENT_BATCHES_PER_MINUTE,
			duration: 60,
		});
		budgets.set(db, limiter);
	}
	return limiter;
}

/**
 * Attributes with personal-looking names or values are left out, and fractions are cut to one
 * decimal, so no number can carry a position finer than a city.
 */
export function scrubAttributes(attributes: ClientEvent['attributes']): ClientEvent['attributes'] {
	const kept: ClientEvent['attributes'] = {};
	for (const [key, value] of Object.entries(attributes)) {
		if (PERSONAL_KEYS.has(key)) continue;
		if (typeof value === 'string' && (value.includes('@') || COORDINATE_PAIR.test(value))) continue;
		kept[key] = typeof value === 'number' && !Number.isInteger(value) ? Math.round(value * 10) / 10 : value;
	}
	return kept;
}

/** An event whose type and name belong together (a Web Vital has a value, a page view a page type). */
function coherent(event: ClientEvent): boolean {
	if (event.type === 'web_vital')
		return (WEB_VITAL_NAMES as readonly string[]).includes(event.name) && event.value !== undefined;
	if (event.type === 'page_view') return event.name === 'page_view';
	return event.name !== 'page_view' && !(WEB_VITAL_NAMES as readonly string[]).includes(event.name);
}

/**
 * Keeps a batch of the browser's events when the visitor's cookie choices and place allow it (the
 * browser checks the same rules first; this holds them for any client). Only a visitor who agreed
 * is kept with their device id; no address or member id is ever stored.
 */
export async function recordClientEvents(
	deps: Deps,
	sender: EventSender,
	batch: ClientEventBatch,
): Promise<ClientEventsAnswer> {
	await spendOrRefuse(
		budgetOf(deps.db),
		`address:${sender.ip}`,
		`At most ${CLIENT_EVENT_BATCHES_PER_MINUTE} event batches a minute; try again later.`,
	);
	const consent = analyticsConsent({
		choices: parseCookieChoices(sender.cookie),
		geo: readGeoCookie(sender.cookie),
		gpc: sender.gpc,
	});
	if (consent === 'none') return { stored: 0 };
	const deviceId =
		consent === 'with-device-id' ? (readDeviceId(sender.cookie) ?? batch['uacf-id'] ?? null) : null;
	const now = deps.clock();
	const rows = batch.events
		.filter(
			(event) =>
				coherent(event) &&
				event.timestamp >= now.getTime() - OLDEST_EVENT_MS &&
				event.timestamp <= now.getTime() + NEWEST_EVENT_MS,
		)
		.map((event) => ({
			deviceId,
			type: event.type,
			name: event.name,
			pageType: event.page_type ?? null,
			value: event.value ?? null,
			attributes: scrubAttributes(event.attributes),
			occurredAt: new Date(event.timestamp),
			receivedAt: now,
		}));
	if (rows.length > 0) await deps.db.insert(analyticsEvents).values(rows);
	return { stored: rows.length };
}

/** Raw events are kept EVENT_RETENTION_DAYS; the nightly housekeeping calls this. */
export async function pruneAnalyticsEvents(deps: Deps): Promise<number> {
	const before = new Date(deps.clock().getTime() - EVENT_RETENTION_DAYS * DAY_MS);
	const removed = await deps.db
		.delete(analyticsEvents)
		.where(lt(analyticsEvents.occurredAt, before))
		.returning({ id: analyticsEvents.id });
	return removed.length;
}

function rowsOf<Row>(result: unknown): Row[] {
	return (result as { rows: Row[] }).rows;
}

/** Every UTC day from `since` to today, so days without events show as zero. */
function daysFrom(since: Date, now: Date): string[] {
	const days: string[] = [];
	for (let at = since.getTime(); at <= now.getTime(); at += DAY_MS)
		days.push(new Date(at).toISOString().slice(0, 10));
	return days;
}

/** The team's analytics page: counts per day, the two funnels and the Web Vitals at p75, over `days`. */
export async function analyticsReport(deps: Deps, days: number): Promise<AnalyticsReport> {
	const now = deps.clock();
	const today = new Date(`${now.toISOString().slice(0, 10)}T00:00:00Z`);
	const since = new Date(today.getTime() - (days - 1) * DAY_MS);
	const e = analyticsEvents;
	const window = sql`${e.occurredAt} >= ${since.toISOString()}::timestamptz`;

	const daily = rowsOf<{ day: string; page_views: string; events: string; devices: string }>(
		await deps.db.execute(sql`select to_char(${e.occurredAt} at time zone 'UTC', 'YYYY-MM-DD') as day,
			count(*) filter (where ${e.type} = 'page_view') as page_views,
			count(*) filter (where ${e.type} = 'event') as events,
			count(distinct ${e.deviceId}) as devices
			from ${e} where ${window} group by 1`),
	);
	const byDay = new Map(daily.map((row) => [row.day, row]));
	const dailyCounts: DailyCounts[] = daysFrom(since, now).map((day) => ({
		day,
		pageViews: Number(byDay.get(day)?.page_views ?? 0),
		events: Number(byDay.get(day)?.events ?? 0),
		devices: Number(byDay.get(day)?.devices ?? 0),
	}));

	const topEvents = rowsOf<{ name: string; count: string }>(
		await deps.db.execute(sql`select ${e.name} as name, count(*) as count from ${e}
			where ${window} and ${e.type} = 'event' group by 1 order by 2 desc, 1 limit 20`),
	).map((row) => ({ name: row.name, count: Number(row.count) }));

	// Funnels follow a device id from step to step, each step at or after the one before; visitors
	// without one (no consent asked for) are counted per day above but cannot be followed.
	const [funnel] = rowsOf<Record<string, string>>(
		await deps.db.execute(sql`select
			count(*) filter (where visited is not null) as visited,
			count(*) filter (where signed_up >= visited) as signed_up,
			count(*) filter (where signed_up >= visited and last_workout >= signed_up) as first_workout,
			count(*) filter (where searched is not null) as searched,
			count(*) filter (where last_view >= searched) as viewed,
			count(*) filter (where last_view >= searched and last_bookmark >= greatest(searched, first_view_after)) as bookmarked
			from (select ${e.deviceId},
				min(${e.occurredAt}) filter (where ${e.type} = 'page_view') as visited,
				min(${e.occurredAt}) filter (where ${e.name} = 'signup_completed') as signed_up,
				max(${e.occurredAt}) filter (where ${e.name} = 'workout_created') as last_workout,
				min(${e.occurredAt}) filter (where ${e.name} = 'route_searched') as searched,
				max(${e.occurredAt}) filter (where ${e.name} = 'route_viewed') as last_view,
				min(${e.occurredAt}) filter (where ${e.name} = 'route_viewed') as first_view_after,
				max(${e.occurredAt}) filter (where ${e.name} = 'route_bookmarked') as last_bookmark
				from ${e} where ${window} and ${e.deviceId} is not null group by ${e.deviceId}) as devices`),
	);
	const step = (label: string, key: string): FunnelStep => ({ label, devices: Number(funnel?.[key] ?? 0) });

	const vitals = rowsOf<{ page_type: string; metric: WebVitalName; p75: number | string; samples: string }>(
		await deps.db.execute(sql`select coalesce(${e.pageType}, 'Unknown') as page_type, ${e.name} as metric,
			percentile_cont(0.75) within group (order by ${e.value}) as p75, count(*) as samples
			from ${e} where ${window} and ${e.type} = 'web_vital' and ${e.value} is not null
			group by 1, 2 order by 1, 2`),
	).map(
		(row): VitalsRow => ({
			pageType: row.page_type,
			metric: row.metric,
			p75: Number(row.p75),
			samples: Number(row.samples),
		}),
	);

	return {
		days,
		daily: dailyCounts,
		topEvents,
		funnels: {
			signup: [step('Visit', 'visited'), step('Signup', 'signed_up'), step('First workout', 'first_workout')],
			routes: [
				step('Route search', 'searched'),
				step('Route view', 'viewed'),
				step('Bookmark', 'bookmarked'),
			],
		},
		vitals,
	};
}
