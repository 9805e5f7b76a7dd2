/**
 * Page-type labels for analytics. Patterns are matched in order against the path with any
 * trailing slash removed; `:id` matches one path segment. Unmatched paths are 'Unknown'.
 */
const PAGE_TYPES: ReadonlyArray<readonly [pattern: string, label: string]> = [
	['/', 'Home'],
	['/mvp', 'MVP Landing'],
	['/legal/terms', 'Terms of Use'],
	['/legal/privacy', 'Privacy Policy'],
	['/legal/cookies', 'Cookie Policy'],
	['/legal/privacy-notice', 'Privacy Notice'],
	['/train/landing', 'Training Landing'],
	['/training-plans', 'Training Plans'],
	['/partner/freeletics', 'Partner Freeletics'],
	['/error/notfound', 'Not Found'],
	['/auth/login', 'Login'],
	['/auth/signup', 'Signup'],
	['/auth/forgot_password', 'Forgot Password'],
	['/account/personalization', 'Onboarding Personalization'],
	['/password_reset/:id', 'Password Reset'],
	['/verify_email/:id', 'Verify Email'],
	['/email_verified', 'Verify Email'],
	['/oauth2/authorize', 'OAuth Authorize'],
	['/developers', 'Developers'],
	['/developers/apps', 'Developer Apps'],
	['/privacy_center/manage', 'Privacy Center'],
	['/privacy_center/consents', 'Privacy Consents'],
	['/privacy_center/consents/decline', 'Privacy Consents Decline'],
	['/privacy_center/consents/edit', 'Privacy Consents Edit'],
	['/privacy_center/help', 'Privacy Help'],
	['/privacy_center/ineligible', 'Privacy Ineligible'],
	['/mobile/privacy_center/manage', 'Mobile Privacy Center'],
	['/mobile/privacy_center/help', 'Mobile Privacy Help'],
	['/mobile/privacy_center/ineligible', 'Mobile Privacy Ineligible'],
	['/mobile/privacy_center/consents/decline', 'Mobile Privacy Consents Decline'],
	['/mobile/privacy_center/consents/edit', 'Mobile Privacy Consents Edit'],
	['/account/my_profile', 'Account My Profile'],
	['/account/settings', 'Account Settings'],
	['/account/display_settings', 'Account Display Settings'],
	['/account/privacy', 'Account Privacy'],
	['/account/location_privacy', 'Account Location Privacy'],
	['/account/contact', 'Account Contact'],
	['/account/connected_apps', 'Connected Apps'],
	['/account/delete', 'Account Delete'],
	['/mobile/account/delete', 'Mobile Account Delete'],
	['/dashboard', 'Dashboard Calendar'],
	['/profile/:id/dashboard', 'Friend Dashboard Calendar'],
	['/activity_feed', 'Activity Feed'],
	['/profile/:id/activity_feed', 'Friend Activity Feed'],
	['/workouts/dashboard/lifetime', 'Lifetime Stats'],
	['/workouts/heatmap', 'Workout Heatmap'],
	['/people/friends', 'Friends'],
	['/people/friends/find', 'Find Friends'],
	['/profile/:id/goals', 'Goals'],
	['/profile/:id/goals/create', 'Create Goal'],
	['/premium/membership', 'Premium Membership'],
	['/premium/checkout', 'Premium Checkout'],
	['/premium/coupon', 'Premium Coupon'],
	['/premium/promo', 'Premium Promo'],
	['/premium/receipt/:id', 'Premium Receipt'],
	['/workout/stats', 'Workout Stats'],
	['/mobile/workout/stats', 'Mobile Workout Stats'],
	['/workout/create', 'Log Workout'],
	['/workout/import', 'Upload Workout'],
	['/workout/copy/:id', 'Copy Workout'],
	['/workout/edit/:id', 'Edit Workout'],
	['/workout/cut/:id', 'Cut Workout'],
	['/workout/:id', 'Workout Details'],
	['/routes', 'Routes Landing'],
	['/routes/search', 'Route Search'],
	['/routes/view/embedded/:id', 'Route Embedded'],
	['/routes/view/add_to_website/:id', 'Route Add To Website'],
	['/routes/view/:id', 'Route Details'],
	['/routes/create', 'Create Route'],
	['/routes/edit/:id', 'Edit Route'],
	['/routes/copy/:id', 'Copy Route'],
	['/routes/print/:id', 'Print Route'],
	['/routes/my_routes', 'My Routes'],
	['/routes/my_routes/bookmarks', 'My Route Bookmarks'],
	['/routes/climb_information', 'Climb Information'],
	['/challenges', 'Challenges'],
	['/challenges/:id', 'Challenge Details'],
	['/challenges/:id/leaderboard', 'Challenge Leaderboard'],
	['/mobile/challenges/:id', 'Mobile Challenge Details'],
	['/mobile/marriott_routes', 'Hotel Partner Routes'],
	['/mobile/marriott_routes/details', 'Hotel Partner Route Details'],
	['/mobile/marriott_routes/location_error', 'Hotel Partner Location Error'],
	['/mobile/marriott_routes/not_found', 'Hotel Partner Not Found'],
	['/:id/stores', 'Not Found'],
	['/:id', 'Find Your City'],
	['/:id/:id', 'City Routes'],
];

/** Country codes are two letters; other single-segment paths are not city pages. */
const COUNTRY_SEGMENT = /^[a-z]{2}$/i;

function segments(path: string): string[] {
	return path.split('/').filter(Boolean);
}

function matches(pattern: string, path: string): boolean {
	const want = segments(pattern);
	const have = segments(path);
	if (want.length !== have.length) return false;
	return want.every((part, i) => {
		if (part !== ':id') return part === have[i];
		// Country-scoped patterns start with a placeholder; only a country code may fill it.
		if (i === 0) return COUNTRY_SEGMENT.test(have[i]);
		return have[i].length > 0;
	});
}

/** The analytics label of a page, from its pathname (query and hash are ignored). */
export function getPageType(pathname: string): string {
	const path = pathname.split(/[?#]/)[0] || '/';
	// The train landing matches every path that starts with it.
	if (path === '/train/landing' || path.startsWith('/train/landing/')) return 'Training Landing';
	if (path === '/account' || path === '/account/') return 'Account Settings';
	// Every year's challenge, and the address that leads to this year's.
	if (/^\/challenges\/yvty(\d{4})?\/?$/.test(path)) return 'You VS The Year';
	for (const [pattern, label] of PAGE_TYPES) {
		if (matches(pattern, path)) return label;
	}
	return 'Unknown';
}
