import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { buildBootup } from '~/lib/site/bootup';
import { BootupSchema } from '~/lib/site/contract';
import { SHELL_MESSAGES } from '~/lib/site/messages';

const config = {
	publicUrl: 'https://mapstride.example',
	siteVariant: 'ride' as const,
	supportEmail: 'help@mapstride.example',
	tiles: { url: '/tiles/{z}/{x}/{y}.png', attribution: '© OpenStreetMap contributors' },
};

describe('bootup configuration', () => {
	it('matches its schema', () => {
		const bootup = buildBootup({ config, viewer: null, geo: null, version: '1.2.3' });
		expect(v.safeParse(BootupSchema, bootup).success).toBe(true);
	});

	it('describes the configured site variant and support contacts', () => {
		const bootup = buildBootup({ config, viewer: null, geo: null, version: '1.2.3' });
		expect(bootup.site).toMatchObject({ variant: 'ride', name: 'Mapstride Ride', action: 'cycling' });
		expect(bootup.customerSupportEmail).toBe('help@mapstride.example');
		expect(bootup.customerSupportLink).toBe('mailto:help@mapstride.example');
		expect(bootup.accountPortalRoot).toBe('https://mapstride.example/account/');
		expect(bootup.mapmyVersion).toBe('1.2.3');
		expect(bootup.messages.globalError).toBe(SHELL_MESSAGES.globalError);
	});

	it('never carries an access token', () => {
		const bootup = buildBootup({ config, viewer: { id: 5, isPremium: false }, geo: null, version: '1' });
		expect(bootup.authToken).toBeNull();
	});

	it('puts a member the configuration lists in the alternate maps rollout, and nobody else', () => {
		const listing = { ...config, rollouts: { alternate_maps_type: { members: ['dana'] } } };
		const variantFor = (viewer: { id: number; username: string; isPremium: boolean } | null) =>
			buildBootup({ config: listing, viewer, geo: null, version: '1' }).rollouts.find(
				(rollout) => rollout.rollout_name === 'alternate_maps_type',
			)?.variant_name;
		expect(variantFor({ id: 5, username: 'dana', isPremium: false })).toBe('enabled');
		expect(variantFor({ id: 6, username: 'ana', isPremium: false })).toBe('control');
		expect(variantFor(null)).toBe('control');
	});

	it('gives the privacy request link only in eligible states', () => {
		const inTexas = buildBootup({ config, viewer: null, geo: { country: 'US', region: 'TX' }, version: '1' });
		const inNewYork = buildBootup({
			config,
			viewer: null,
			geo: { country: 'US', region: 'NY' },
			version: '1',
		});
		expect(inTexas.privacyRequestLink).toBe('/privacy_center/manage/');
		expect(inTexas.cloudFrontCountry).toBe('US');
		expect(inNewYork.privacyRequestLink).toBeNull();
	});

	it('unlocks premium for MVP members and buckets rollouts by member', () => {
		const member = buildBootup({ config, viewer: { id: 5, isPremium: true }, geo: null, version: '1' });
		const visitor = buildBootup({ config, viewer: null, geo: null, version: '1' });
		expect(member.appConfig.unlockPremium).toBe(true);
		expect(visitor.appConfig.unlockPremium).toBe(false);
		expect(member.rollouts.find((r) => r.rollout_name === 'ads')?.variant_name).toBe('control');
		expect(visitor.rollouts.every((r) => r.variant_name === 'control')).toBe(true);
	});
});
