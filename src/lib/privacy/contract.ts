import * as v from 'valibot';
import { idText } from '../core/integers';
import { isPrivacyRequestEligible } from '../site/privacy-request';
import { PRIVACY_REGIONS, type PrivacyRegion, regionForCountry } from './regions';

/** The consents every matrix names, in the order the privacy centre lists them. */
export const CONSENT_KEYS = [
	'terms',
	'privacy_policy',
	'marketing_email',
	'personalised_ads',
	'sale_share',
	'precise_location',
	'health_data',
] as const;
export type ConsentKey = (typeof CONSENT_KEYS)[number];

export const CONSENT_LABELS: Record<ConsentKey, { title: string; about: string }> = {
	terms: { title: 'Terms of Use', about: 'The agreement under which you use the service.' },
	privacy_policy: { title: 'Privacy Policy', about: 'How we collect, use and keep your data.' },
	marketing_email: { title: 'Marketing e-mail', about: 'News, offers and tips from us by e-mail.' },
	personalised_ads: {
		title: 'Personalised ads',
		about: 'Ads chosen from your activity instead of ads everyone sees.',
	},
	sale_share: {
		title: 'Sale or sharing of personal data',
		about: 'Sharing your data with advertising partners, which some US state laws call a sale.',
	},
	precise_location: {
		title: 'Precise location',
		about: 'Recording GPS tracks of your workouts and routes near you.',
	},
	health_data: {
		title: 'Health data',
		about: 'Heart rate, weight, birthdate-based calorie estimates and heart-rate zones.',
	},
};

export { PRIVACY_REGIONS, type PrivacyRegion, regionForCountry } from './regions';

/**
 * Consents without which what a member records is stored but not processed: their GPS track needs
 * precise location, their heart rate (and the zones drawn from it) health data.
 */
export const PROCESSING_CONSENTS = [
	'precise_location',
	'health_data',
] as const satisfies readonly ConsentKey[];
export type ProcessingConsent = (typeof PROCESSING_CONSENTS)[number];

/**
 * The US states whose laws give the footer's Privacy Request link also make a Global Privacy
 * Control signal an opt-out of sale and sharing: one list for both.
 */
export function isDoNotSellPlace(
	country: string | null | undefined,
	state: string | null | undefined,
): boolean {
	return isPrivacyRequestEligible({
		country: (country ?? '').toUpperCase(),
		region: (state ?? '').toUpperCase() || null,
	});
}

export type MatrixConsent = {
	key: ConsentKey;
	required: boolean;
	defaultOn: boolean;
	/** The matrix version in which this consent (or its text) last changed. */
	since: number;
};

export type ConsentMatrix = {
	region: PrivacyRegion;
	version: number;
	/** Younger members may not have an account here. */
	minimumAge: number;
	consents: MatrixConsent[];
};

const item = (key: ConsentKey, required: boolean, defaultOn: boolean, since: number): MatrixConsent => ({
	key,
	required,
	defaultOn,
	since,
});

/** A later version of a matrix: the consents in `changes` replace or join the earlier ones. */
function revise(earlier: ConsentMatrix, changes: MatrixConsent[]): ConsentMatrix {
	const byKey = new Map(earlier.consents.map((consent) => [consent.key, consent]));
	for (const change of changes) byKey.set(change.key, change);
	return { ...earlier, version: earlier.version + 1, consents: [...byKey.values()] };
}

/** Opt-in law: the two documents and `alsoRequired` must be agreed; everything else starts off. */
function optIn(region: PrivacyRegion, minimumAge: number, alsoRequired: ConsentKey[]): ConsentMatrix {
	const required = new Set<ConsentKey>(['terms', 'privacy_policy', ...alsoRequired]);
	const consents = CONSENT_KEYS.map((key) => item(key, required.has(key), false, 1));
	return { region, version: 1, minimumAge, consents };
}

const US_1: ConsentMatrix = {
	region: 'US',
	version: 1,
	minimumAge: 13,
	consents: [
		item('terms', true, true, 1),
		item('privacy_policy', true, true, 1),
		item('marketing_email', false, false, 1),
		item('personalised_ads', false, true, 1),
		item('sale_share', false, true, 1),
		item('precise_location', false, true, 1),
	],
};

/**
 * Every version of every region's matrix, oldest first; the last one of a region is current.
 * The US answers opt-out laws (sharing and ads default on, GPC switches them off); Europe answers
 * opt-in ones (everything optional starts off). A member who answered an older version is asked
 * again only about consents whose `since` is newer than that version.
 */
export const CONSENT_MATRICES: readonly ConsentMatrix[] = [
	US_1,
	// A new privacy policy text, and health data asked about separately.
	revise(US_1, [item('privacy_policy', true, true, 2), item('health_data', false, false, 2)]),
	optIn('EU1', 16, ['health_data']),
	optIn('EU2', 13, []),
];

export function currentMatrix(region: PrivacyRegion): ConsentMatrix {
	const versions = CONSENT_MATRICES.filter((matrix) => matrix.region === region);
	return versions[versions.length - 1];
}

export function findMatrix(region: PrivacyRegion, version: number): ConsentMatrix | undefined {
	return CONSENT_MATRICES.find((matrix) => matrix.region === region && matrix.version === version);
}

/** Whole years between a YYYY-MM-DD birthdate and today (UTC); null when the date is not one. */
export function ageOn(birthdate: string, today: Date): number | null {
	const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(birthdate.trim());
	if (!match) return null;
	const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
	let age = today.getUTCFullYear() - year;
	const beforeBirthday =
		today.getUTCMonth() + 1 < month || (today.getUTCMonth() + 1 === month && today.getUTCDate() < day);
	if (beforeBirthday) age -= 1;
	return age;
}

/** True when someone born on `birthdate` may have an account in `country`'s region today. */
export function meetsMinimumAge(country: string | null | undefined, birthdate: string, today: Date): boolean {
	const age = ageOn(birthdate, today);
	return age !== null && age >= currentMatrix(regionForCountry(country)).minimumAge;
}

export const CONSENT_SOURCES = ['signup', 'consents', 'edit', 'decline', 'gpc', 'api', 'demo'] as const;
export type ConsentSource = (typeof CONSENT_SOURCES)[number];

/** One consent as the member stands today, with where that answer came from. */
export type ConsentState = {
	key: ConsentKey;
	title: string;
	about: string;
	required: boolean;
	default_on: boolean;
	granted: boolean;
	/** False while the member has never answered it (the matrix default applies). */
	answered: boolean;
	matrix_version: number | null;
	source: ConsentSource | null;
	recorded_datetime: string | null;
	/** Changed since the member last answered: asked again. */
	pending: boolean;
};

export type ConsentStatus = {
	region: PrivacyRegion;
	country: string;
	country_confirmed: boolean;
	matrix_version: number;
	minimum_age: number;
	consents: ConsentState[];
	/** Not answered under this matrix yet, or changed since: what the consent screen asks. */
	pending: ConsentKey[];
	/** Changed (or new) since the newest matrix version the member answered: asked at next login. */
	changed: ConsentKey[];
	/** A required consent is declined: the account cannot be used until it is given or deleted. */
	declined_required: ConsentKey[];
	do_not_sell_applies: boolean;
};

// ---------------------------------------------------------------- request shapes

const ConsentKeySchema = v.picklist(CONSENT_KEYS, 'Unknown consent.');
const CountrySchema = v.pipe(
	v.string(),
	v.regex(/^[A-Za-z]{2}$/, 'country must be a two-letter ISO code.'),
	v.toUpperCase(),
);

/** The request fields every consent call may carry (where the member is and which app asks). */
const RequestContextFields = {
	domain: v.optional(v.pipe(v.string(), v.maxLength(100))),
	user_locale: v.optional(
		v.pipe(v.string(), v.regex(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/), v.maxLength(35)),
	),
	app_domain: v.optional(v.pipe(v.string(), v.maxLength(100))),
};

export const ConsentUpdateSchema = v.object({
	...RequestContextFields,
	consent_matrix_version: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1000))),
	/** Staged changes, saved together: each one becomes a record of its own. */
	consents: v.pipe(
		v.array(v.object({ key: ConsentKeySchema, granted: v.boolean('granted is true or false.') })),
		v.minLength(1, 'Name at least one consent.'),
		v.maxLength(CONSENT_KEYS.length, 'Each consent at most once.'),
		v.check(
			(list) => new Set(list.map((entry) => entry.key)).size === list.length,
			'Each consent at most once.',
		),
	),
	country: v.optional(CountrySchema),
});
export type ConsentUpdate = v.InferOutput<typeof ConsentUpdateSchema>;

export const ConsentQuerySchema = v.object(RequestContextFields);

export const CountryConfirmSchema = v.object({ country: CountrySchema });

export const MatrixParamSchema = v.object({
	version: v.pipe(v.string(), v.regex(/^\d{1,4}$/, 'version must be a whole number.')),
});
export const MatrixIdParamSchema = v.object({
	id: v.pipe(v.string(), v.regex(/^(US|EU1|EU2)(-\d{1,4})?$/, 'id is a region such as EU1, or EU1-1.')),
});
export const ApiVersionParamSchema = v.object({
	apiVersion: v.pipe(v.string(), v.regex(/^v\d{1,2}$/, 'Use an API version such as v1.')),
});
export const MatrixQuerySchema = v.object({ region: v.optional(v.picklist(PRIVACY_REGIONS)) });

export const PromotionalPreferenceSchema = v.object({
	choice: v.boolean('choice is true or false.'),
	preference_type: v.optional(v.literal('ua-marketing-opt-in')),
});

/** Asking for everything we hold is confirmed with the password, as deleting the account is. */
export const ExportRequestSchema = v.object({
	password: v.pipe(
		v.string('Enter your password.'),
		v.minLength(1, 'Enter your password.'),
		v.maxLength(200),
	),
});

export const ExportIdParamSchema = v.object({
	id: idText('id must be a number'),
});
export const ExportTokenQuerySchema = v.object({
	token: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{20,100}$/, 'Not a download link.')),
});

export const EXPORT_STATUSES = ['queued', 'building', 'ready', 'failed', 'expired'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];
/** How long an export's download link works. */
export const EXPORT_LINK_DAYS = 7;

export type ExportView = {
	id: number;
	status: ExportStatus;
	progress: number;
	requested_datetime: string;
	completed_datetime: string | null;
	expires_datetime: string | null;
	bytes: number | null;
};

export const ACCESS_DATA_KINDS = ['location', 'health'] as const;
export type AccessDataKind = (typeof ACCESS_DATA_KINDS)[number];

export type AccessLogEntry = {
	reader: string;
	data_kind: AccessDataKind;
	purpose: string;
	accessed_datetime: string;
};

/** What a consent error is called when the server said nothing more precise. */
export const DEFAULT_CONSENT_ERROR = 'unknown_error';
