/**
 * First-party analytics on every page: a page view 1.5 s after the page opened, Core Web Vitals
 * (LCP, INP, CLS) measured by the `web-vitals` package, loaded only for a visitor who may be
 * counted, clicks on the main navigation and on buttons marked `data-track`, and the sender that
 * carries them and every `trackEvent` of the page's islands to /api/auth/client-events.
 */
import { getPageType } from '../site/page-types';
import { browserConsent, keepDeviceId } from './browser-consent';
import { PAGE_VIEW_DELAY_MS } from './events';
import { drainEvents, onEventQueued, queueEvent, trackEvent } from './queue';
import { browserSenderEnv, createSender } from './sender';

let started = false;

/** Runs once a visitor may be counted (see boot.ts): the sender, page view, clicks and vitals. */
export function runAnalytics(): void {
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
