import { checkFeature } from '../billing/features';
import type { RolloutName, RolloutSetting } from '../core/rollout-names';
import { hashString, rolloutVariantFor } from './rollouts';
import type { SiteAction } from './variants';

/**
 * Our own ads: MVP promotions worded for the site variant. Ad slots are filled only from here,
 * never from a third-party script.
 */
export type HouseAd = { headline: string; body: string; cta: string; href: string };

const ACTIVITY: Record<SiteAction, string> = {
	training: 'workout',
	running: 'run',
	cycling: 'ride',
	walking: 'walk',
};

export function houseAds(action: SiteAction): HouseAd[] {
	const activity = ACTIVITY[action];
	return [
		{
			headline: 'Train in the right zone',
			body: `MVP shows the time you spent in each heart-rate zone on every ${activity}.`,
			cta: 'Go MVP',
			href: '/mvp/',
		},
		{
			headline: 'Know the hills before you go',
			body: 'MVP adds climb details and elevation profiles to every route you plan.',
			cta: 'See MVP',
			href: '/mvp/',
		},
		{
			headline: 'No ads, ever',
			body: `With MVP this space is yours again: no ads on the web or in the app, on any ${activity}.`,
			cta: 'Go ad-free',
			href: '/mvp/',
		},
	];
}

/** One ad for a member on a page: stable while they stay on it, varied across pages and members. */
export function pickHouseAd(action: SiteAction, seed: string): HouseAd {
	const ads = houseAds(action);
	return ads[hashString(seed) % ads.length];
}

/**
 * Whether a member's pages carry the ad slot: members in the ads rollout only, and never MVP members,
 * who pay to be ad-free, even when configuration lists them in the rollout.
 */
export function showsHouseAds(
	viewer: { id: number; username?: string; isPremium: boolean } | null | undefined,
	settings: Partial<Record<RolloutName, RolloutSetting>> = {},
): boolean {
	return (
		viewer != null &&
		!checkFeature(viewer, 'ad_free') &&
		rolloutVariantFor(viewer, 'ads', settings) === 'enabled'
	);
}
