/**
 * Every page a visitor must be signed in to see, in one list. Prefix entries end in
 * `/`; the promo landing pages under /premium stay open.
 */
const GUARDED_PREFIXES = [
	'/admin',
	'/dashboard',
	'/account',
	'/mobile/account/',
	'/mobile/workout/',
	'/workout/',
	'/workouts/',
	'/activity_feed',
	'/people/friends',
	'/routes/create',
	'/routes/edit/',
	'/routes/copy/',
	'/routes/search',
	'/routes/my_routes',
	'/premium/',
	'/checkout/',
	'/privacy_center/manage',
	'/privacy_center/consents',
	'/privacy_center/export/',
	'/mobile/privacy_center/manage',
	'/mobile/privacy_center/consents',
	'/oauth2/authorize',
	'/developers/apps',
];

/** Premium pages a visitor may open before signing in. */
const OPEN_PREMIUM = ['/premium/promo', '/premium/coupon'];

/** Profile sub-pages are guarded; /profile/{username}/picture is an image anyone may load. */
const GUARDED_PROFILE = /^\/profile\/[^/]+\/(dashboard|activity_feed|goals)(\/|$)/;

export function isGuardedPath(pathname: string): boolean {
	if (OPEN_PREMIUM.some((open) => pathname === open || pathname.startsWith(`${open}/`))) return false;
	if (GUARDED_PROFILE.test(pathname)) return true;
	return GUARDED_PREFIXES.some((prefix) =>
		prefix.endsWith('/')
			? pathname.startsWith(prefix)
			: pathname === prefix || pathname.startsWith(`${prefix}/`),
	);
}

/** The login page that brings a visitor back to `url` once signed in. */
export function loginPathFor(url: { pathname: string; search: string }): string {
	return `/auth/login?next=${encodeURIComponent(url.pathname + url.search)}`;
}
