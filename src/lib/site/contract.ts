import * as v from 'valibot';
import { SITE_VARIANTS } from '../core/config';

export const RolloutSchema = v.object({ rollout_name: v.string(), variant_name: v.string() });

/** The bootup configuration that applies to one visitor, served at GET /api/site/bootup. */
export const BootupSchema = v.object({
	accountPortalRoot: v.string(),
	outsideIncRoot: v.string(),
	/**
	 * Always null here: access tokens are never embedded in pages or config; islands get one
	 * from GET /api/auth/refresh-token, which reads the HttpOnly session cookie.
	 */
	authToken: v.null(),
	appConfig: v.object({ unlockPremium: v.boolean() }),
	/** Null until a Stripe payment processor is configured. */
	stripeConfig: v.nullable(v.object({ publishableKey: v.string() })),
	premiumStripeKey: v.nullable(v.string()),
	customerSupportEmail: v.string(),
	customerSupportLink: v.string(),
	exportDataLink: v.string(),
	mapmyVersion: v.string(),
	messages: v.record(v.string(), v.string()),
	cloudFrontCountry: v.nullable(v.string()),
	features: v.object({ webp: v.boolean() }),
	/** reCAPTCHA loads a third-party script, which the product does not do; password reset relies on rate limits. */
	reCaptchaConfig: v.object({ enabled: v.boolean(), siteKey: v.nullable(v.string()) }),
	language: v.object({ code: v.string() }),
	privacyRequestLink: v.nullable(v.string()),
	site: v.object({
		variant: v.picklist(SITE_VARIANTS),
		name: v.string(),
		shortName: v.string(),
		action: v.picklist(['running', 'cycling', 'walking', 'training']),
		appStores: v.object({ ios: v.string(), android: v.string() }),
	}),
	rollouts: v.array(RolloutSchema),
	tiles: v.object({ url: v.string(), attribution: v.string() }),
	/** The signed-in member's loyalty status, only for members in the loyalty pilot (the profile menu shows it). */
	loyalty: v.optional(v.nullable(v.object({ status: v.string(), pointsBalance: v.number() }))),
});
export type Bootup = v.InferOutput<typeof BootupSchema>;
