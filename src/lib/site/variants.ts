import type { SITE_VARIANTS } from '../core/config';

export type SiteVariantSlug = (typeof SITE_VARIANTS)[number];

/** What the promo banner and marketing copy are worded around. */
export type SiteAction = 'running' | 'cycling' | 'walking' | 'training';

export type SiteVariant = {
	slug: SiteVariantSlug;
	/** Full product name, used in titles and the footer. */
	name: string;
	/** Short name for tight spaces (the header logo on narrow screens, app badges). */
	shortName: string;
	action: SiteAction;
	/** The activity in a sentence: "every run", "every ride". */
	activityNoun: string;
	appStores: { ios: string; android: string };
};

/**
 * Store links search for the app by name, which stays correct whichever listing id the
 * stores assign; replace with listing URLs when the apps are published.
 */
function storeLinks(name: string): SiteVariant['appStores'] {
	const term = encodeURIComponent(name);
	return {
		ios: `https://apps.apple.com/us/search?term=${term}`,
		android: `https://play.google.com/store/search?q=${term}&c=apps`,
	};
}

export const VARIANTS: Record<SiteVariantSlug, SiteVariant> = {
	fitness: {
		slug: 'fitness',
		name: 'Mapstride',
		shortName: 'Mapstride',
		action: 'training',
		activityNoun: 'workout',
		appStores: storeLinks('Mapstride'),
	},
	walk: {
		slug: 'walk',
		name: 'Mapstride Walk',
		shortName: 'Walk',
		action: 'walking',
		activityNoun: 'walk',
		appStores: storeLinks('Mapstride Walk'),
	},
	run: {
		slug: 'run',
		name: 'Mapstride Run',
		shortName: 'Run',
		action: 'running',
		activityNoun: 'run',
		appStores: storeLinks('Mapstride Run'),
	},
	ride: {
		slug: 'ride',
		name: 'Mapstride Ride',
		shortName: 'Ride',
		action: 'cycling',
		activityNoun: 'ride',
		appStores: storeLinks('Mapstride Ride'),
	},
	uarun: {
		slug: 'uarun',
		name: 'Mapstride Run Club',
		shortName: 'Run Club',
		action: 'running',
		activityNoun: 'run',
		appStores: storeLinks('Mapstride Run Club'),
	},
};

export function getVariant(slug: SiteVariantSlug): SiteVariant {
	return VARIANTS[slug];
}
