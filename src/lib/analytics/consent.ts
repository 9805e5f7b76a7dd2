/**
 * Whether this visitor's product events may be sent, and with which id. Browser-safe: the sender and
 * the cookie dialog read it in the page, the endpoint reads it again from the request's cookies.
 *
 * - A yes in the cookie dialog: events are kept with the device id cookie (365 days).
 * - A no, or a Global Privacy Control signal: nothing is sent.
 * - No choice yet: in opt-in places (EU1, EU2) and wherever the place is unknown nothing is sent;
 *   in opt-out places (the US rules) events are kept without any id, so no visit can be followed.
 */
import { regionForCountry } from '../privacy/regions';
import type { CookieChoices } from '../site/cookie-choices';
import type { Geo } from '../site/privacy-request';

export type AnalyticsConsent = 'none' | 'anonymous' | 'with-device-id';

export const DEVICE_ID_COOKIE = 'ms_device_id';
export const DEVICE_ID_MAX_AGE_SECONDS = 365 * 24 * 3600;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function analyticsConsent(input: {
	choices: CookieChoices | null;
	geo: Geo | null;
	/** The browser's Global Privacy Control signal (navigator or Sec-GPC header) now. */
	gpc: boolean;
}): AnalyticsConsent {
	const { choices, geo, gpc } = input;
	if (gpc || choices?.gpc || choices?.analytics === false) return 'none';
	if (choices?.analytics === true) return 'with-device-id';
	if (!geo || regionForCountry(geo.country) !== 'US') return 'none';
	return 'anonymous';
}

/** The device id in a `document.cookie` or Cookie header string, when it is a well-formed one. */
export function readDeviceId(cookieHeader: string | null | undefined): string | null {
	for (const part of (cookieHeader ?? '').split(';')) {
		const [name, value] = part.trim().split('=');
		if (name === DEVICE_ID_COOKIE && value && UUID.test(value)) return value.toLowerCase();
	}
	return null;
}

/** The `document.cookie` assignments that keep a device id for a year, or forget it. */
export function deviceIdCookie(id: string | null, secure: boolean): string {
	const lifetime = id ? DEVICE_ID_MAX_AGE_SECONDS : 0;
	return `${DEVICE_ID_COOKIE}=${id ?? ''}; Path=/; Max-Age=${lifetime}; SameSite=Lax${secure ? '; Secure' : ''}`;
}
