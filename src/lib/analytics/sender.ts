/**
 * Sends the page's queued events to our own endpoint: in batches a moment after the first event,
 * at once with sendBeacon when the page is hidden (the visitor leaves or switches away), and a
 * failed batch again up to SEND_RETRIES times, RETRY_DELAY_MS apart. Consent is read at the moment
 * of sending, so a "no" given on this page stops what was still waiting.
 */

import type { AnalyticsConsent } from './consent';
import { BATCH_DELAY_MS, CLIENT_EVENTS_PATH, MAX_BATCH_EVENTS, RETRY_DELAY_MS, SEND_RETRIES } from './events';
import type { AnalyticsEvent } from './queue';

/** One event as the endpoint reads it. */
export type WireEvent = {
	type: AnalyticsEvent['type'];
	name: AnalyticsEvent['name'];
	timestamp: number;
	page_type?: string;
	value?: number;
	attributes: AnalyticsEvent['properties'];
};

/** What the sender needs from the browser; unit tests pass their own. */
export type SenderEnv = {
	/** POSTs the JSON body and resolves to the answer's status; rejects when the network fails. */
	post: (body: string) => Promise<number>;
	/** Hands the body to the browser to send after the page is gone; false when it would not take it. */
	beacon: (body: string) => boolean;
	consent: () => AnalyticsConsent;
	/** The device id, made and kept in its cookie on first use; only asked for with consent. */
	deviceId: () => string | null;
	hidden: () => boolean;
	wait: (ms: number) => Promise<void>;
	setTimer: (run: () => void, ms: number) => () => void;
};

const PAGE_TYPE = /^[A-Za-z ]{1,64}$/;

function toWire(event: AnalyticsEvent): WireEvent {
	const wire: WireEvent = {
		type: event.type,
		name: event.name,
		timestamp: event.at,
		attributes: event.properties,
	};
	if (event.pageType && PAGE_TYPE.test(event.pageType)) wire.page_type = event.pageType;
	if (event.value !== undefined) wire.value = Math.max(0, event.value);
	return wire;
}

export type Sender = {
	/** Takes newly queued events; sends them soon, or at once when the page is already hidden. */
	accept: (events: AnalyticsEvent[]) => void;
	/** Sends everything waiting now with fetch (and retries); resolves when every batch is done. */
	flush: () => Promise<void>;
	/** Sends everything waiting with sendBeacon, for a page being hidden or left. */
	flushOnHide: () => void;
	pending: () => number;
};

export function createSender(env: SenderEnv): Sender {
	const waiting: WireEvent[] = [];
	let cancelTimer: (() => void) | null = null;

	function body(events: WireEvent[]): string | null {
		const consent = env.consent();
		if (consent === 'none') return null;
		return JSON.stringify({ 'uacf-id': consent === 'with-device-id' ? env.deviceId() : null, events });
	}

	async function send(events: WireEvent[]): Promise<void> {
		for (let attempt = 0; attempt <= SEND_RETRIES; attempt++) {
			if (attempt > 0) await env.wait(RETRY_DELAY_MS);
			const json = body(events);
			if (json === null) return;
			let status = 0;
			try {
				status = await env.post(json);
			} catch {
				status = 0;
			}
			if (status >= 200 && status < 300) return;
			// A batch the server refuses for what it is would be refused again; only a busy or
			// unreachable server is worth another try.
			if (status >= 400 && status < 500 && status !== 408 && status !== 429) return;
		}
	}

	function takeBatches(): WireEvent[][] {
		cancelTimer?.();
		cancelTimer = null;
		const batches: WireEvent[][] = [];
		while (waiting.length > 0) batches.push(waiting.splice(0, MAX_BATCH_EVENTS));
		return batches;
	}

	function flush(): Promise<void> {
		return Promise.all(takeBatches().map(send)).then(() => undefined);
	}

	function flushOnHide(): void {
		for (const batch of takeBatches()) {
			const json = body(batch);
			if (json !== null && !env.beacon(json)) void send(batch);
		}
	}

	function accept(events: AnalyticsEvent[]): void {
		if (events.length === 0) return;
		if (env.consent() === 'none') return;
		waiting.push(...events.map(toWire));
		if (env.hidden()) flushOnHide();
		else if (waiting.length >= MAX_BATCH_EVENTS) void flush();
		else
			cancelTimer ??= env.setTimer(() => {
				cancelTimer = null;
				void flush();
			}, BATCH_DELAY_MS);
	}

	return { accept, flush, flushOnHide, pending: () => waiting.length };
}

/** The sender's view of this browser. */
export function browserSenderEnv(consent: () => AnalyticsConsent, deviceId: () => string | null): SenderEnv {
	return {
		post: async (json) =>
			(
				await fetch(CLIENT_EVENTS_PATH, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: json,
					credentials: 'same-origin',
					keepalive: true,
				})
			).status,
		beacon: (json) =>
			typeof navigator.sendBeacon === 'function' &&
			navigator.sendBeacon(CLIENT_EVENTS_PATH, new Blob([json], { type: 'application/json' })),
		consent,
		deviceId,
		hidden: () => document.visibilityState === 'hidden',
		wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
		setTimer: (run, ms) => {
			const handle = setTimeout(run, ms);
			return () => clearTimeout(handle);
		},
	};
}
