import { describe, expect, it } from 'vitest';
import {
	assignRollouts,
	bucketFor,
	CONTROL,
	configureRollouts,
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

	it('gives listed members a rollout whatever their bucket, by id or username', () => {
		const maps = configureRollouts({ alternate_maps_type: { members: ['Demo', 12] } });
		const variantOf = (subject: { id: number; username?: string; isPremium?: boolean }) =>
			getRolloutVariant(assignRollouts(subject, maps), 'alternate_maps_type');
		expect(variantOf({ id: 3, username: 'demo' })).toBe('enabled');
		expect(variantOf({ id: 12, username: 'someone' })).toBe('enabled');
		expect(variantOf({ id: 4, username: 'someone.else' })).toBe(CONTROL);
		expect(getRolloutVariant(assignRollouts(null, maps), 'alternate_maps_type')).toBe(CONTROL);
	});

	it('keeps the alternate map for configured members only, and takes a configured share', () => {
		const members = Array.from({ length: 2000 }, (_, i) => ({ id: i + 1 }));
		const share = (definitions = ROLLOUTS) =>
			members.filter(
				(m) => getRolloutVariant(assignRollouts(m, definitions), 'alternate_maps_type') === 'enabled',
			).length;
		expect(share()).toBe(0);
		const quarter = share(configureRollouts({ alternate_maps_type: { percent: 25 } }));
		expect(quarter).toBeGreaterThan(400);
		expect(quarter).toBeLessThan(600);
		// Other rollouts keep their defaults.
		expect(configureRollouts({ alternate_maps_type: { percent: 25 } })[0]).toEqual(ROLLOUTS[0]);
	});
});
