/**
 * Product analytics events from the browser. There is no endpoint that receives them yet, so `trackEvent` only
 * queues them here, in memory, in the order they happened; nothing leaves the page. The code that sends them
 * (once an events endpoint exists) takes them with `drainEvents` and keeps this module's call sites unchanged.
 * Properties hold names, counts and ids of the member's own actions, never free text they typed.
 * A browser with Global Privacy Control on has opted out of analytics: nothing is queued for it.
 */
import { globalPrivacyControlOn } from '../site/cookie-choices';

export type AnalyticsValue = string | number | boolean | null;
export type AnalyticsEvent = { name: string; properties: Record<string, AnalyticsValue>; at: number };

/** Events kept while nothing drains them; a long session keeps its latest ones. */
export const MAX_QUEUED_EVENTS = 500;

const queue: AnalyticsEvent[] = [];

/** Outside a browser (the server, unit tests) there is no visitor whose signal to read. */
function optedOut(): boolean {
	return typeof document !== 'undefined' && globalPrivacyControlOn();
}

export function trackEvent(name: string, properties: Record<string, AnalyticsValue> = {}): void {
	if (optedOut()) return;
	queue.push({ name, properties: { ...properties }, at: Date.now() });
	if (queue.length > MAX_QUEUED_EVENTS) queue.splice(0, queue.length - MAX_QUEUED_EVENTS);
}

/** Hands over every queued event, oldest first, and empties the queue. */
export function drainEvents(): AnalyticsEvent[] {
	return queue.splice(0, queue.length);
}

/** The queued events without taking them (for the page's own checks and tests). */
export function peekEvents(): readonly AnalyticsEvent[] {
	return queue.slice();
}
