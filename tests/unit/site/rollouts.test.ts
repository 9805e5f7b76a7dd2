import { describe, expect, it } from 'vitest';
import {
	assignRollouts,
	bucketFor,
	CONTROL,
	getRolloutVariant,
	hashString,
	ROLLOUTS,
} from '~/lib/site/rollouts';

describe('rollout bucketing', () => {
	it('hashes with 32-bit FNV-1a', () => {
		// Reference values of FNV-1a 32.
		expect(hashString('')).toBe(0x811c9dc5);
		expect(hashString('a')).toBe(0xe40c292c);
		expect(hashString('foobar')).toBe(0xbf9cf968);
	});

	it('puts the same member in the same bucket every time', () => {
		expect(bucketFor('ads', 42)).toBe(bucketFor('ads', 42));
		expect(bucketFor('ads', 42)).toBe(bucketFor('ads', '42'));
	});

	it('salts buckets with the rollout name so rollouts are independent', () => {
		const ids = Array.from({ length: 200 }, (_, i) => i + 1);
		const same = ids.filter((id) => bucketFor('ads', id) === bucketFor('loyalty_pilot', id)).length;
		expect(same).toBeLessThan(20);
	});

	it('spreads members roughly evenly over the buckets', () => {
		const counts = new Array(10).fill(0);
		for (let id = 1; id <= 10_000; id++) counts[Math.floor(bucketFor('customer_survey', id) / 10)]++;
		for (const count of counts) expect(count).toBeGreaterThan(850);
	});

	it('gives visitors who are not signed in the control variant of every rollout', () => {
		expect(assignRollouts(null).every((rollout) => rollout.variant_name === CONTROL)).toBe(true);
	});

	it('lists every named rollout for a member', () => {
		const names = assignRollouts({ id: 7 }).map((rollout) => rollout.rollout_name);
		expect(names).toEqual(['customer_survey', 'loyalty_pilot', 'ads', 'alternate_maps_type']);
	});

	it('includes about the configured share of members', () => {
		let surveyed = 0;
		for (let id = 1; id <= 10_000; id++) {
			if (getRolloutVariant(assignRollouts({ id }), 'customer_survey') === 'show_survey') surveyed++;
		}
		expect(surveyed).toBeGreaterThan(800);
		expect(surveyed).toBeLessThan(1200);
	});

	it('never shows ads to MVP members', () => {
		for (let id = 1; id <= 500; id++) {
			expect(getRolloutVariant(assignRollouts({ id, isPremium: true }), 'ads')).toBe(CONTROL);
		}
	});

	it('includes everyone at 100 percent and nobody at 0', () => {
		const all = [{ name: 'ads' as const, variant: 'enabled', percent: 100 }];
		const none = [{ name: 'ads' as const, variant: 'enabled', percent: 0 }];
		expect(assignRollouts({ id: 3 }, all)[0].variant_name).toBe('enabled');
		expect(assignRollouts({ id: 3 }, none)[0].variant_name).toBe(CONTROL);
	});

	it('answers control for a rollout the list does not mention', () => {
		expect(getRolloutVariant([], 'loyalty_pilot')).toBe(CONTROL);
		expect(ROLLOUTS.length).toBe(4);
	});
});
