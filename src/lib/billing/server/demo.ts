import type { AppDeps } from '../../core/server/deps';
import { claimGrantableCoupons } from './member-coupons';

/**
 * The demo member is not an MVP member (so the banner, the checkout and the premium gates can be
 * tried), but holds the UA Wireless promotion's coupon, ready to redeem on /premium/coupon.
 */
export async function seedDemoBilling(deps: AppDeps, demoId: number): Promise<string> {
	const coupons = await claimGrantableCoupons(deps, {
		id: demoId,
		username: 'demo',
		displayName: 'demo',
		isPremium: false,
	});
	return `MVP: the demo member holds ${coupons.map((coupon) => coupon.coupon_id).join(', ')}; the test processor takes card 4242 4242 4242 4242.`;
}
