/**
 * First-party analytics on every page: a page view 1.5 s after the page opened, Core Web Vitals
 * (LCP, INP, CLS) measured by the `web-vitals` package, loaded only for a visitor who may be
 * counted, clicks on the main navigation and on buttons marked `data-track`, and the sender that
 * carries them and every `trackEvent` of the page's islands to /api/auth/client-events.
 */
import { parseCookieChoices } from '../site/cookie-choices';
import { getPageType } from '../site/page-types';
import { readGeoCookie } from '../site/privacy-request';
import { type AnalyticsConsent, analyticsConsent, deviceIdCookie, readDeviceId } from './consent';
import { PAGE_VIEW_DELAY_MS } from './events';
import { drainEvents, onEventQueued, queueEvent, trackEvent } from './queue';
import { browserSenderEnv, createSender } from './sender';

/** This browser's answer now: the cookie dialog may change it while the page is open. */
export function browserConsent(): AnalyticsConsent {
	return analyticsConsent({
		choices: parseCookieChoices(document.cookie),
		geo: readGeoCookie(document.cookie),
		gpc: (navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl === true,
	});
}

/** Keeps (or, with `on` false, forgets) the device id cookie; returns the id kept. */
export function keepDeviceId(on: boolean, jar: { cookie: string } = document): string | null {
	const secure = window.location.protocol === 'https:';
	if (!on) {
		if (readDeviceId(jar.cookie)) jar.cookie = deviceIdCookie(null, secure);
		return null;
	}
	const id = readDeviceId(jar.cookie) ?? crypto.randomUUID();
	// Written again on every page so the year counts from the last visit.
	jar.cookie = deviceIdCookie(id, secure);
	return id;
}

let started = false;

export function startAnalytics(): void {
	if (started) return;
	started = true;
	const sender = createSender(browserSenderEnv(browserConsent, () => keepDeviceId(true)));
	const pump = () => sender.accept(drainEvents());
	onEventQueued(pump);
	pump();
	// Hidden covers switching tabs and closing on phones, where pagehide may never come.
	document.addEventListener('visibilitychange', () => {
		if (document.visibilityState === 'hidden') sender.flushOnHide();
	});
	window.addEventListener('pagehide', () => sender.flushOnHide());

	window.setTimeout(
		() => queueEvent({ type: 'page_view', name: 'page_view', properties: {} }),
		PAGE_VIEW_DELAY_MS,
	);

	document.addEventListener('click', (event) => {
		const target = event.target instanceof Element ? event.target : null;
		const link = target?.closest<HTMLAnchorElement>('[data-main-nav] a[href]');
		if (link) {
			// The page type of the destination, never its address (it may hold a member's id).
			trackEvent('nav_clicked', { destination: getPageType(new URL(link.href).pathname) });
			return;
		}
		const button = target?.closest<HTMLElement>('[data-track]');
		if (button?.dataset.track) trackEvent('button_clicked', { button: button.dataset.track.slice(0, 64) });
	});

	const consent = browserConsent();
	if (consent === 'none') return;
	if (consent === 'with-device-id') keepDeviceId(true);
	import('web-vitals').then(({ onCLS, onINP, onLCP }) => {
		const report = (metric: { name: 'CLS' | 'INP' | 'LCP'; value: number; rating: string }) =>
			queueEvent({
				type: 'web_vital',
				name: metric.name,
				value: metric.value,
				properties: { rating: metric.rating },
			});
		onLCP(report);
		onINP(report);
		onCLS(report);
	});
}
