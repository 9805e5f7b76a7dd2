/**
 * Product analytics events from the browser (the chunk name avoids "client", which the shell
 * budget test keeps for React). `trackEvent` queues them here, in memory, in the order
 * they happened; the page's sender (sender.ts, started by beacon.ts on every page) is told and takes
 * them with `drainEvents` to send them in batches. Until a sender runs, nothing leaves the page.
 * Properties hold names, counts and ids of the member's own actions, never free text they typed.
 * A browser with Global Privacy Control on has opted out of analytics: nothing is queued for it.
 */
import { globalPrivacyControlOn } from '../site/cookie-choices';
import type { AnalyticsEventName, AnalyticsEventType, WebVitalName } from './events';

export type AnalyticsValue = string | number | boolean | null;
export type AnalyticsEvent = {
	type: AnalyticsEventType;
	name: AnalyticsEventName | WebVitalName;
	properties: Record<string, AnalyticsValue>;
	at: number;
	/** The page's analytics label when the event happened. */
	pageType?: string;
	value?: number;
};

/** Events kept while nothing drains them; a long session keeps its latest ones. */
export const MAX_QUEUED_EVENTS = 500;

const queue: AnalyticsEvent[] = [];
let listener: (() => void) | null = null;

/** Outside a browser (the server, unit tests) there is no visitor whose signal to read. */
function optedOut(): boolean {
	return typeof document !== 'undefined' && globalPrivacyControlOn();
}

function currentPageType(): string | undefined {
	return typeof document === 'undefined' ? undefined : document.body?.dataset.pageType || undefined;
}

/** Queues any kind of event: page views and Web Vitals come from beacon.ts, the rest from trackEvent. */
export function queueEvent(event: Omit<AnalyticsEvent, 'at' | 'pageType'> & { pageType?: string }): void {
	if (optedOut()) return;
	queue.push({
		...event,
		properties: { ...event.properties },
		at: Date.now(),
		pageType: event.pageType ?? currentPageType(),
	});
	if (queue.length > MAX_QUEUED_EVENTS) queue.splice(0, queue.length - MAX_QUEUED_EVENTS);
	listener?.();
}

export function trackEvent(name: AnalyticsEventName, properties: Record<string, AnalyticsValue> = {}): void {
	queueEvent({ type: 'event', name, properties });
}

/** The sender asks to hear of every event queued from now on (one sender a page). */
export function onEventQueued(callback: (() => void) | null): void {
	listener = callback;
}

/** Hands over every queued event, oldest first, and empties the queue. */
export function drainEvents(): AnalyticsEvent[] {
	return queue.splice(0, queue.length);
}

/** The queued events without taking them (for the page's own checks and tests). */
export function peekEvents(): readonly AnalyticsEvent[] {
	return queue.slice();
}
