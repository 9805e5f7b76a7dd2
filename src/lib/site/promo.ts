import type { SiteAction } from './variants';

/** Paths containing any of these never show the banner. */
export const PROMO_HIDDEN_PATH_PARTS = ['mobile', 'mvp', 'privacy_center', 'partner', 'premium'] as const;

/** sessionStorage key: dismissal lasts until the browser session ends. */
export const PROMO_DISMISSED_KEY = 'ms_promo_dismissed';

export const PROMO_HREF = '/mvp';

const PROMO_TEXT: Record<SiteAction, string> = {
	running: 'Run further with MVP: training plans, heart-rate zones and an ad-free app.',
	cycling: 'Ride further with MVP: climb details, heart-rate zones and an ad-free app.',
	walking: 'Walk further with MVP: training plans, heart-rate zones and an ad-free app.',
	training: 'Train smarter with MVP: training plans, heart-rate zones and an ad-free app.',
};

export function getPromoText(action: SiteAction): string {
	return PROMO_TEXT[action];
}

/** Whether the path alone allows the banner; membership and dismissal are checked separately. */
export function isPromoPath(pathname: string): boolean {
	const path = pathname.toLowerCase();
	return !PROMO_HIDDEN_PATH_PARTS.some((part) => path.includes(part));
}

/** The banner's whole rule: an allowed path, not an MVP member, not dismissed this session. */
export function shouldShowPromo(input: {
	pathname: string;
	viewer: { isPremium: boolean } | null;
	dismissed: boolean;
}): boolean {
	if (input.dismissed) return false;
	if (input.viewer?.isPremium) return false;
	return isPromoPath(input.pathname);
}
