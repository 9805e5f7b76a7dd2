/**
 * The product events the browser may send, and the limits every batch keeps. Browser-safe and free
 * of valibot: the sender on every page reads it, the server's schema (contract.ts) is built from it.
 */
export const ANALYTICS_EVENT_TYPES = ['event', 'page_view', 'web_vital'] as const;
export type AnalyticsEventType = (typeof ANALYTICS_EVENT_TYPES)[number];

export const ANALYTICS_EVENT_NAMES = [
	'page_view',
	'route_searched',
	'route_viewed',
	'route_fullscreen_clicked',
	'route_bookmarked',
	'route_created',
	'route_copied',
	'route_updated',
	'route_control_performed',
	'route_point_interaction_performed',
	'edit_map_type_tapped',
	'login_attempted',
	'signup_attempted',
	'signup_completed',
	'workout_created',
	'nav_clicked',
	'button_clicked',
] as const;
export type AnalyticsEventName = (typeof ANALYTICS_EVENT_NAMES)[number];

/** Core Web Vitals, measured in real browsers and sent with the page type. */
export const WEB_VITAL_NAMES = ['LCP', 'INP', 'CLS'] as const;
export type WebVitalName = (typeof WEB_VITAL_NAMES)[number];

export const MAX_BATCH_EVENTS = 50;
export const MAX_ATTRIBUTES = 12;
/** A batch is sent this long after its first event, unless the page is hidden first. */
export const BATCH_DELAY_MS = 2000;
/** The page view beacon waits for the page to settle (SPEC: pageview 1500 ms). */
export const PAGE_VIEW_DELAY_MS = 1500;
/** A failed batch is tried again this many times, this far apart. */
export const SEND_RETRIES = 5;
export const RETRY_DELAY_MS = 1000;
/** Raw events are kept this long, then the nightly housekeeping removes them. */
export const EVENT_RETENTION_DAYS = 90;
export const CLIENT_EVENTS_PATH = '/api/auth/client-events';
