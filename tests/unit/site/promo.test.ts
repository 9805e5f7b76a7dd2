import { describe, expect, it } from 'vitest';
import { getPromoText, isPromoPath, shouldShowPromo } from '~/lib/site/promo';

describe('promo banner', () => {
	it.each([
		'/mobile/challenges/4',
		'/mvp',
		'/privacy_center/help',
		'/partner/freeletics',
		'/premium/checkout',
		'/mobile/privacy_center/manage',
		'/Premium/Coupon',
	])('is hidden on %s', (path) => {
		expect(isPromoPath(path)).toBe(false);
	});

	it.each(['/', '/routes/', '/dashboard', '/challenges/yvty2025'])('may show on %s', (path) => {
		expect(isPromoPath(path)).toBe(true);
	});

	it('is hidden for MVP members and after dismissal', () => {
		const member = { isPremium: true };
		expect(shouldShowPromo({ pathname: '/', viewer: null, dismissed: false })).toBe(true);
		expect(shouldShowPromo({ pathname: '/', viewer: { isPremium: false }, dismissed: false })).toBe(true);
		expect(shouldShowPromo({ pathname: '/', viewer: member, dismissed: false })).toBe(false);
		expect(shouldShowPromo({ pathname: '/', viewer: null, dismissed: true })).toBe(false);
	});

	it('words the call to action by site action', () => {
		expect(getPromoText('running')).toMatch(/^Run /);
		expect(getPromoText('cycling')).toMatch(/^Ride /);
		expect(getPromoText('walking')).toMatch(/^Walk /);
		expect(getPromoText('training')).toMatch(/^Train /);
		const texts = new Set(['running', 'cycling', 'walking', 'training'].map((a) => getPromoText(a as never)));
		expect(texts.size).toBe(4);
	});
});
