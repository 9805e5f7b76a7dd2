import { describe, expect, it } from 'vitest';
import {
	type AnalyticsConsent,
	analyticsConsent,
	deviceIdCookie,
	readDeviceId,
} from '~/lib/analytics/consent';
import { BATCH_DELAY_MS, MAX_BATCH_EVENTS, RETRY_DELAY_MS, SEND_RETRIES } from '~/lib/analytics/events';
import type { AnalyticsEvent } from '~/lib/analytics/queue';
import { createSender, type SenderEnv } from '~/lib/analytics/sender';
import { parseCookieChoices, serializeCookieChoices } from '~/lib/site/cookie-choices';

const DEVICE = '3f1c2a9e-8d7b-4c6a-9e5f-1a2b3c4d5e6f';

/** A browser whose network answers from a list and whose timers run only when the test says. */
function fakeEnv(answers: (number | 'offline')[] = []) {
	const posted: string[] = [];
	const beacons: string[] = [];
	const waits: number[] = [];
	const timers: { run: () => void; ms: number; cancelled: boolean }[] = [];
	const state = { consent: 'with-device-id' as AnalyticsConsent, hidden: false, beaconTakes: true };
	const env: SenderEnv = {
		post: async (body) => {
			posted.push(body);
			const answer = answers.shift() ?? 200;
			if (answer === 'offline') throw new TypeError('Failed to fetch');
			return answer;
		},
		beacon: (body) => {
			if (state.beaconTakes) beacons.push(body);
			return state.beaconTakes;
		},
		consent: () => state.consent,
		deviceId: () => DEVICE,
		hidden: () => state.hidden,
		wait: async (ms) => void waits.push(ms),
		setTimer: (run, ms) => {
			const timer = { run, ms, cancelled: false };
			timers.push(timer);
			return () => {
				timer.cancelled = true;
			};
		},
	};
	const fireTimers = async () => {
		for (const timer of timers.splice(0)) if (!timer.cancelled) timer.run();
		await new Promise((resolve) => setTimeout(resolve, 0));
	};
	return { env, posted, beacons, waits, timers, state, fireTimers };
}

const events = (count: number, name: AnalyticsEvent['name'] = 'route_searched'): AnalyticsEvent[] =>
	Array.from({ length: count }, (_, i) => ({
		type: 'event',
		name,
		properties: { i },
		at: 1_700_000_000_000 + i,
		pageType: 'Route Search',
	}));

describe('the event sender', () => {
	it('sends events queued close together as one batch once the delay has passed', async () => {
		const { env, posted, timers, fireTimers } = fakeEnv();
		const sender = createSender(env);
		sender.accept(events(2));
		sender.accept(events(1, 'route_viewed'));
		expect(posted).toEqual([]);
		expect(timers.map((timer) => timer.ms)).toEqual([BATCH_DELAY_MS]);
		await fireTimers();
		expect(posted).toHaveLength(1);
		const body = JSON.parse(posted[0]);
		expect(body['uacf-id']).toBe(DEVICE);
		expect(body.events.map((event: { name: string }) => event.name)).toEqual([
			'route_searched',
			'route_searched',
			'route_viewed',
		]);
		expect(body.events[0]).toEqual({
			type: 'event',
			name: 'route_searched',
			timestamp: 1_700_000_000_000,
			page_type: 'Route Search',
			attributes: { i: 0 },
		});
		expect(sender.pending()).toBe(0);
	});

	it('never sends more than a batch at once', async () => {
		const { env, posted } = fakeEnv();
		const sender = createSender(env);
		sender.accept(events(MAX_BATCH_EVENTS * 2 + 3));
		await sender.flush();
		expect(posted.map((body) => JSON.parse(body).events.length)).toEqual([
			MAX_BATCH_EVENTS,
			MAX_BATCH_EVENTS,
			3,
		]);
	});

	it(`tries a failed batch ${SEND_RETRIES} more times, ${RETRY_DELAY_MS} ms apart, then gives up`, async () => {
		const { env, posted, waits } = fakeEnv(['offline', 503, 502, 'offline', 429, 500, 200]);
		const sender = createSender(env);
		sender.accept(events(1));
		await sender.flush();
		expect(posted).toHaveLength(1 + SEND_RETRIES);
		expect(waits).toEqual(Array(SEND_RETRIES).fill(RETRY_DELAY_MS));
	});

	it('stops trying as soon as a try succeeds, and never retries a batch the server refused', async () => {
		const first = fakeEnv([503, 200]);
		await (() => {
			const sender = createSender(first.env);
			sender.accept(events(1));
			return sender.flush();
		})();
		expect(first.posted).toHaveLength(2);

		const refused = fakeEnv([400]);
		const sender = createSender(refused.env);
		sender.accept(events(1));
		await sender.flush();
		expect(refused.posted).toHaveLength(1);
		expect(refused.waits).toEqual([]);
	});

	it('hands what waits to sendBeacon when the page is hidden, and sends at once while hidden', async () => {
		const { env, posted, beacons, state } = fakeEnv();
		const sender = createSender(env);
		sender.accept(events(2));
		sender.flushOnHide();
		expect(beacons).toHaveLength(1);
		expect(JSON.parse(beacons[0]).events).toHaveLength(2);
		state.hidden = true;
		sender.accept(events(1, 'route_viewed'));
		expect(beacons).toHaveLength(2);
		// A beacon the browser will not take goes by fetch instead.
		state.beaconTakes = false;
		sender.accept(events(1, 'route_bookmarked'));
		await new Promise((resolve) => setTimeout(resolve, 0));
		expect(posted).toHaveLength(1);
		expect(sender.pending()).toBe(0);
	});

	it('sends nothing without consent, and nothing of what waited once consent is withdrawn', async () => {
		const { env, posted, beacons, state, fireTimers } = fakeEnv();
		state.consent = 'none';
		const sender = createSender(env);
		sender.accept(events(3));
		expect(sender.pending()).toBe(0);
		state.consent = 'with-device-id';
		sender.accept(events(1));
		state.consent = 'none';
		await fireTimers();
		sender.flushOnHide();
		expect(posted).toEqual([]);
		expect(beacons).toEqual([]);
	});

	it('sends no device id for a visitor counted without one', async () => {
		const { env, posted, state } = fakeEnv();
		state.consent = 'anonymous';
		const sender = createSender(env);
		sender.accept(events(1));
		await sender.flush();
		expect(JSON.parse(posted[0])['uacf-id']).toBeNull();
	});
});

describe('analytics consent', () => {
	const yes = parseCookieChoices('ms_cookie_choices=preferences-on.analytics-on');
	const no = parseCookieChoices('ms_cookie_choices=preferences-off.analytics-off');

	it('asks EU1, EU2 and unknown places for a yes first, and counts US visitors without an id', () => {
		expect(analyticsConsent({ choices: null, geo: { country: 'DE', region: null }, gpc: false })).toBe(
			'none',
		);
		expect(analyticsConsent({ choices: null, geo: { country: 'GB', region: null }, gpc: false })).toBe(
			'none',
		);
		expect(analyticsConsent({ choices: null, geo: null, gpc: false })).toBe('none');
		expect(analyticsConsent({ choices: null, geo: { country: 'US', region: 'NY' }, gpc: false })).toBe(
			'anonymous',
		);
		expect(analyticsConsent({ choices: yes, geo: { country: 'DE', region: null }, gpc: false })).toBe(
			'with-device-id',
		);
	});

	it('a no or a Global Privacy Control signal wins everywhere', () => {
		expect(analyticsConsent({ choices: no, geo: { country: 'US', region: null }, gpc: false })).toBe('none');
		expect(analyticsConsent({ choices: yes, geo: { country: 'US', region: null }, gpc: true })).toBe('none');
		expect(
			analyticsConsent({ choices: { preferences: true, gpc: true, analytics: true }, geo: null, gpc: false }),
		).toBe('none');
	});

	it('keeps the answer in the choices cookie beside the other flags', () => {
		const kept = serializeCookieChoices({ preferences: true, gpc: true, analytics: true }, false);
		expect(kept).toMatch(/^ms_cookie_choices=preferences-on\.analytics-on\.gpc; /);
		expect(parseCookieChoices(kept.split(';')[0])).toEqual({ preferences: true, gpc: true, analytics: true });
		expect(parseCookieChoices('ms_cookie_choices=preferences-on')).toEqual({ preferences: true, gpc: false });
	});

	it('keeps the device id for 365 days, reads only a well-formed one, and forgets it', () => {
		expect(deviceIdCookie(DEVICE, true)).toBe(
			`ms_device_id=${DEVICE}; Path=/; Max-Age=31536000; SameSite=Lax; Secure`,
		);
		expect(deviceIdCookie(null, false)).toBe('ms_device_id=; Path=/; Max-Age=0; SameSite=Lax');
		expect(readDeviceId(`a=1; ms_device_id=${DEVICE.toUpperCase()}`)).toBe(DEVICE);
		expect(readDeviceId('ms_device_id=walker@example.test')).toBeNull();
	});
});
