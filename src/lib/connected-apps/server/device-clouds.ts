/**
 * A device cloud: where a watch or bike computer puts the activities it records (Garmin Connect and
 * the like). A member connects one by allowing us at the cloud (OAuth 2.0 with PKCE); from then on the
 * cloud tells us about new activities (a webhook) or we ask (polling), and each activity's FIT file is
 * fetched and imported through the workouts' own import path.
 *
 * Two implementations: the built-in test cloud (test-cloud.ts), which behaves like a real one and says
 * it is a test, so connect → new activity → workout → disconnect runs anywhere; and an adapter written to
 * Garmin's Health API (garmin.ts), off unless configured.
 */

/** What the cloud gave us for one member; kept sealed at rest (device-sync.ts). */
export type DeviceTokens = {
	/** The member's id at the cloud: webhooks name members by it. */
	cloudAccount: string;
	accessToken: string;
	refreshToken?: string;
	/** When the access token stops working; absent when the cloud does not say. */
	expiresAt?: number;
};

/** One activity the cloud holds for the member. */
export type DeviceActivity = {
	/** The cloud's own id for it: the same activity is never imported twice. */
	externalId: string;
	startTime: Date;
	/** Shown in the member's import list until the workout exists. */
	name: string;
};

/** A notice from the cloud that a member has something new (a webhook's body, read and checked). */
export type DeviceNotice = {
	cloudAccount: string;
	/** The activities the notice names; empty when the cloud only says "something changed". */
	activities: DeviceActivity[];
};

export interface DeviceCloud {
	/** Our key for it, in paths and stored rows: lowercase letters. */
	readonly key: string;
	/** Its name as members know it. */
	readonly name: string;
	/** One sentence on what connecting it does. */
	readonly description: string;
	/** True for the built-in test cloud: every page that shows it says it is a test connection. */
	readonly test: boolean;
	/** Where the member's browser goes to allow us at the cloud. */
	authorizeUrl(request: { state: string; redirectUri: string; codeChallenge: string }): string;
	/** Trades the code the cloud sent the member back with for their tokens (PKCE verifier included). */
	exchangeCode(request: { code: string; redirectUri: string; codeVerifier: string }): Promise<DeviceTokens>;
	/** New tokens for expired ones, where the cloud rotates them. */
	refresh(tokens: DeviceTokens): Promise<DeviceTokens>;
	/** Activities started at or after `since`, oldest first (polling, and after a bare notice). */
	listActivities(tokens: DeviceTokens, since: Date, signal: AbortSignal): Promise<DeviceActivity[]>;
	/** The activity's recording as a FIT file, at most `maxBytes` long (longer is an error). */
	fetchActivityFile(
		tokens: DeviceTokens,
		activity: DeviceActivity,
		maxBytes: number,
		signal: AbortSignal,
	): Promise<Uint8Array>;
	/**
	 * Reads a webhook request the cloud sent to `/api/device_clouds/{key}/webhook`; null when it is not
	 * one of the cloud's (wrong signature or shape). Never trusts a URL in the body: files are fetched
	 * from the cloud's own address only.
	 */
	readWebhook(request: { headers: Headers; body: string }): Promise<DeviceNotice[] | null>;
	/** Ends our access at the cloud when the member disconnects; a cloud that is away is not an error. */
	deauthorize(tokens: DeviceTokens): Promise<void>;
}

/** A cloud that answered with something other than what was asked, or not at all. */
export class DeviceCloudError extends Error {
	constructor(
		message: string,
		/** `auth`: the member's authorisation is gone at the cloud (they must connect again). */
		readonly kind: 'auth' | 'unavailable' | 'refused' = 'unavailable',
	) {
		super(message);
		this.name = 'DeviceCloudError';
	}
}
