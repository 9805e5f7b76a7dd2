/** What MVP adds. Every premium decision, on a page or in the API, asks `checkFeature`. */
export const PREMIUM_FEATURES = [
	'ad_free',
	'heart_rate_zones',
	'round_trip_routes',
	'surface_breakdown',
	'data_export',
	'training_plans',
] as const;
export type PremiumFeature = (typeof PREMIUM_FEATURES)[number];

export const PREMIUM_FEATURE_NAMES: Record<PremiumFeature, string> = {
	ad_free: 'An ad-free site',
	heart_rate_zones: 'Heart-rate zone analysis',
	round_trip_routes: 'Round-trip route generator',
	surface_breakdown: 'Route surface breakdown',
	data_export: 'Export of all your data in one archive',
	training_plans: 'Training plans',
};

/** Where a member who lacks a premium feature goes to get it. */
export const CHECKOUT_PATH = '/premium/checkout';

/** The one premium policy: every MVP feature belongs to every member with an active subscription. */
export function checkFeature(
	user: { isPremium: boolean } | null | undefined,
	feature: PremiumFeature,
): boolean {
	return Boolean(user?.isPremium) && PREMIUM_FEATURES.includes(feature);
}
