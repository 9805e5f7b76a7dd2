/** Old and marketing URLs that move permanently. */
const REDIRECTS: Record<string, string> = {
	'/premium': '/premium/membership',
	'/promo/UAWireless': '/premium/coupon',
	'/promo/ua': '/premium/coupon',
	'/workout/import/dashboard': '/account/connected_apps',
};

export function findRedirect(pathname: string): string | undefined {
	const path = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
	return REDIRECTS[path];
}
