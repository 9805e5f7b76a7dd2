/** US states whose privacy laws give residents a request right we honour with the Privacy Request link. */
export const PRIVACY_REQUEST_REGIONS = ['CA', 'CO', 'CT', 'MT', 'OR', 'TX', 'UT', 'VA'] as const;

/** Readable cookie the server sets from the trusted proxy's geo headers, as `US-CA`. */
export const GEO_COOKIE = 'ms_geo';

export const PRIVACY_REQUEST_HREF = '/privacy_center/manage/';

export type Geo = { country: string; region: string | null };

/** Parses `US-CA` (country, then an optional region); null for anything else. */
export function parseGeo(value: string | null | undefined): Geo | null {
	if (!value) return null;
	const match = /^([A-Za-z]{2})(?:-([A-Za-z0-9]{1,3}))?$/.exec(value.trim());
	if (!match) return null;
	return { country: match[1].toUpperCase(), region: match[2] ? match[2].toUpperCase() : null };
}

/** Reads the geo cookie out of a `document.cookie` or Cookie header string. */
export function readGeoCookie(cookieHeader: string | null | undefined): Geo | null {
	if (!cookieHeader) return null;
	for (const part of cookieHeader.split(';')) {
		const [name, ...rest] = part.trim().split('=');
		if (name === GEO_COOKIE) return parseGeo(decodeURIComponent(rest.join('=')));
	}
	return null;
}

/** Only visitors located in the US and one of the listed states see the Privacy Request link. */
export function isPrivacyRequestEligible(geo: Geo | null): boolean {
	if (geo?.country !== 'US' || !geo.region) return false;
	return (PRIVACY_REQUEST_REGIONS as readonly string[]).includes(geo.region);
}
