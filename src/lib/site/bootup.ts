import type { Config } from '../core/config';
import type { Bootup } from './contract';
import { SHELL_MESSAGES } from './messages';
import { type Geo, isPrivacyRequestEligible, PRIVACY_REQUEST_HREF } from './privacy-request';
import { rolloutsFor } from './rollouts';
import { getVariant } from './variants';

type BootupInput = {
	config: Pick<Config, 'publicUrl' | 'siteVariant' | 'supportEmail' | 'tiles'> &
		Partial<Pick<Config, 'rollouts'>>;
	viewer: { id: number; username?: string; isPremium: boolean } | null;
	/** Where the visitor is, when a trusted proxy said so. */
	geo: Geo | null;
	version: string;
	language?: string;
};

/** Builds the bootup configuration that applies to one visitor. */
export function buildBootup({ config, viewer, geo, version, language = 'en-us' }: BootupInput): Bootup {
	const variant = getVariant(config.siteVariant);
	return {
		accountPortalRoot: `${config.publicUrl}/account/`,
		outsideIncRoot: `${config.publicUrl}/`,
		authToken: null,
		appConfig: { unlockPremium: viewer?.isPremium ?? false },
		stripeConfig: null,
		premiumStripeKey: null,
		customerSupportEmail: config.supportEmail,
		customerSupportLink: `mailto:${config.supportEmail}`,
		exportDataLink: '/privacy_center/manage/',
		mapmyVersion: version,
		messages: { ...SHELL_MESSAGES },
		cloudFrontCountry: geo?.country ?? null,
		features: { webp: true },
		reCaptchaConfig: { enabled: false, siteKey: null },
		language: { code: language },
		privacyRequestLink: isPrivacyRequestEligible(geo) ? PRIVACY_REQUEST_HREF : null,
		site: {
			variant: variant.slug,
			name: variant.name,
			shortName: variant.shortName,
			action: variant.action,
			appStores: variant.appStores,
		},
		rollouts: rolloutsFor(viewer, config.rollouts),
		tiles: config.tiles,
	};
}
