/**
 * This browser's analytics consent and device id cookie, read by the page's boot script and by the
 * sender it loads.
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
