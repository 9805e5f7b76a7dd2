/** Leads to this year's You VS The Year challenge (src/pages/challenges/yvty.ts). */
export const YEAR_CHALLENGE_PATH = '/challenges/yvty';

/** One link of the main navigation. */
export type NavLink = { label: string; href: string; membersOnly?: boolean };
export type NavSection = { id: string; label: string; links: NavLink[] };

/** The shell's main navigation, in order. */
export const MAIN_NAVIGATION: readonly NavSection[] = [
	{
		id: 'workouts',
		label: 'Workouts',
		links: [
			{ label: 'Dashboard', href: '/dashboard/' },
			{ label: 'Workout Stats', href: '/workout/stats/', membersOnly: true },
			{ label: 'Goals', href: '/goals/', membersOnly: true },
		],
	},
	{
		id: 'routes',
		label: 'Routes',
		links: [
			{ label: 'Routes home', href: '/routes/' },
			{ label: 'Find Routes', href: '/routes/search/', membersOnly: true },
			{ label: 'Create Route', href: '/routes/create/', membersOnly: true },
			{ label: 'My Routes', href: '/routes/my_routes/', membersOnly: true },
			{ label: 'Find Your City', href: '/us/' },
		],
	},
	{
		id: 'community',
		label: 'Community',
		links: [
			{ label: 'Activity Feed', href: '/activity_feed/' },
			{ label: 'Friends', href: '/people/friends/' },
		],
	},
	{
		id: 'challenges',
		label: 'Challenges',
		links: [
			{ label: 'Find Challenges', href: '/challenges/' },
			// This year's challenge, whichever year it is: /challenges/yvty sends the browser on to it.
			{ label: 'You VS The Year', href: YEAR_CHALLENGE_PATH },
		],
	},
];

/** The navigation a visitor sees: members-only links dropped when nobody is signed in. */
export function navigationFor(viewer: { id: number } | null): NavSection[] {
	return MAIN_NAVIGATION.map((section) => ({
		...section,
		links: section.links.filter((link) => viewer !== null || !link.membersOnly),
	}));
}

/** The profile menu of a signed-in member. */
export function profileMenuFor(supportHref: string): NavLink[] {
	return [
		{ label: 'Profile and Settings', href: '/account/my_profile/' },
		{ label: 'Connected Apps', href: '/account/connected_apps/' },
		{ label: 'Privacy Center', href: '/privacy_center/manage/' },
		{ label: 'Support', href: supportHref },
		{ label: 'Logout', href: '/auth/logout' },
	];
}

/** Where an avatar comes from; `size` is Small in the header and Medium in the profile header. */
export function avatarUrl(username: string, size: 'Small' | 'Medium' = 'Small'): string {
	return `/profile/${encodeURIComponent(username)}/picture?size=${size}`;
}

export const DEFAULT_AVATAR = '/images/default-avatar.svg';

/**
 * Log in and Sign Up links carry the page to come back to, except on auth pages where
 * returning to the login form after logging in would be a loop.
 */
export function authLink(base: '/auth/login/' | '/auth/signup/', pathAndQuery: string): string {
	if (pathAndQuery.startsWith('/auth/') || pathAndQuery === '/auth') return base;
	return `${base}?next=${encodeURIComponent(pathAndQuery)}`;
}
