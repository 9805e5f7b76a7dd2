import { describe, expect, it } from 'vitest';
import { houseAds, pickHouseAd, showsHouseAds } from '~/lib/site/house-ads';
import { rolloutVariantFor } from '~/lib/site/rollouts';

const member = (id: number, isPremium = false) => ({ id, username: `m${id}`, isPremium });

describe('house ads', () => {
	it('reach only members in the ads rollout, as their bootup configuration says', () => {
		const ids = Array.from({ length: 400 }, (_, i) => i + 1);
		const shown = ids.filter((id) => showsHouseAds(member(id)));
		// Half the members by default.
		expect(shown.length).toBeGreaterThan(150);
		expect(shown.length).toBeLessThan(250);
		for (const id of ids)
			expect(showsHouseAds(member(id))).toBe(rolloutVariantFor(member(id), 'ads') === 'enabled');
		expect(showsHouseAds(null)).toBe(false);
		expect(showsHouseAds(member(1), { ads: { percent: 0 } })).toBe(false);
	});

	it('never reach MVP members, even ones configuration lists', () => {
		expect(showsHouseAds(member(7), { ads: { percent: 0, members: ['m7'] } })).toBe(true);
		expect(showsHouseAds(member(7, true), { ads: { percent: 100, members: ['m7'] } })).toBe(false);
	});

	it('are our own MVP promotions in the variant wording, the same one on a page each visit', () => {
		for (const ad of houseAds('cycling')) {
			expect(ad.href).toBe('/mvp/');
			expect(ad.href.startsWith('/')).toBe(true);
		}
		expect(houseAds('cycling').some((ad) => ad.body.includes('ride'))).toBe(true);
		expect(houseAds('running').some((ad) => ad.body.includes('run'))).toBe(true);
		expect(pickHouseAd('running', '42:/workout/9')).toEqual(pickHouseAd('running', '42:/workout/9'));
		const seen = new Set(
			Array.from({ length: 30 }, (_, i) => pickHouseAd('running', `42:/workout/${i}`).headline),
		);
		expect(seen.size).toBe(houseAds('running').length);
	});
});
