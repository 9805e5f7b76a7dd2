/**
 * What every page loads for analytics: this visitor's consent, the device id cookie, and the
 * sender itself only for a visitor who may be counted. Most first visits may not be (no choice
 * yet in Europe or where the place is unknown), and the shell's script budget is spent on them.
 * Events the page's islands queue meanwhile wait in the queue and leave once the sender starts.
 */
import { parseCookieChoices } from '../site/cookie-choices';
import { readGeoCookie } from '../site/privacy-request';
import { type AnalyticsConsent, analyticsConsent, deviceIdCookie, readDeviceId } from './consent';

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

let loading = false;

/** Starts the sender when this visitor may be counted; called on load and after a yes in the cookie dialog. */
export function startAnalytics(): void {
	if (loading || browserConsent() === 'none') return;
	loading = true;
	void import('./beacon').then(({ runAnalytics }) => runAnalytics());
}
