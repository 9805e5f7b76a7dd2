import { asc, desc, eq } from 'drizzle-orm';
import { users } from '../../auth/server/tables';
import { formatApiDateTime } from '../../core/dates';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../../core/server/deps';
import { enqueueJob } from '../../jobs/server/service';
import {
	CONSENT_LABELS,
	type ConsentKey,
	type ConsentSource,
	type ConsentState,
	type ConsentStatus,
	currentMatrix,
	isDoNotSellPlace,
	PROCESSING_CONSENTS,
	type PrivacyRegion,
	type ProcessingConsent,
	regionForCountry,
} from '../contract';
import { consentRecords, privacyCountries } from './tables';

/**
 * Where a member stands on their region's consent matrix, and every answer they give. Reads and
 * writes only the privacy tables and the member's row, so any domain may ask what a member allows.
 */

type Deps = Pick<AppDeps, 'db' | 'config' | 'logger' | 'clock'>;
/** What reading a member's consents needs. */
type Reader = Pick<AppDeps, 'db'>;
type ConsentRow = typeof consentRecords.$inferSelect;

const gone = () =>
	new AppError('unauthenticated', 'This account no longer exists.', { detail: 'invalid_token' });

/** Applies a member's processing consents to what they recorded: holds back or releases it. */
export const APPLY_PROCESSING_CONSENTS_JOB = 'privacy.apply-processing-consents';

/** A member's place for privacy: the country they confirmed, else their profile's, else the US. */
async function memberPlace(deps: Reader, userId: number) {
	const [basics] = await deps.db
		.select({ country: users.country, state: users.region })
		.from(users)
		.where(eq(users.id, userId));
	if (!basics) throw gone();
	const [confirmed] = await deps.db
		.select()
		.from(privacyCountries)
		.where(eq(privacyCountries.userId, userId));
	const country = confirmed?.country || basics.country || 'US';
	return { basics, country, confirmed: Boolean(confirmed), region: regionForCountry(country) };
}

/** The newest record of each consent the member answered. */
async function latestRecords(deps: Reader, userId: number): Promise<Map<ConsentKey, ConsentRow>> {
	const rows = await deps.db
		.select()
		.from(consentRecords)
		.where(eq(consentRecords.userId, userId))
		.orderBy(asc(consentRecords.id));
	const latest = new Map<ConsentKey, ConsentRow>();
	for (const row of rows) latest.set(row.consentKey as ConsentKey, row);
	return latest;
}

/**
 * How the member stands on every consent of their region's current matrix. A consent is pending
 * when it changed (or appeared) in a matrix version newer than the member's answer to it, or when
 * they answered another region's matrix: only what changed is asked again.
 */
export async function getConsentStatus(deps: Reader, userId: number): Promise<ConsentStatus> {
	const place = await memberPlace(deps, userId);
	const matrix = currentMatrix(place.region);
	const latest = await latestRecords(deps, userId);
	const answeredVersion = Math.max(
		0,
		...[...latest.values()].filter((row) => row.region === place.region).map((row) => row.matrixVersion),
	);
	const consents: ConsentState[] = matrix.consents.map((entry) => {
		const record = latest.get(entry.key);
		const answeredHere = record && record.region === place.region;
		const pending = !answeredHere || record.matrixVersion < entry.since;
		return {
			key: entry.key,
			...CONSENT_LABELS[entry.key],
			required: entry.required,
			default_on: entry.defaultOn,
			granted: record ? record.granted : entry.defaultOn && !entry.required,
			answered: Boolean(record),
			matrix_version: record?.matrixVersion ?? null,
			source: (record?.source as ConsentSource | undefined) ?? null,
			recorded_datetime: record ? formatApiDateTime(record.recordedAt) : null,
			pending,
		};
	});
	return {
		region: place.region,
		country: place.country,
		country_confirmed: place.confirmed,
		matrix_version: matrix.version,
		minimum_age: matrix.minimumAge,
		consents,
		pending: consents.filter((c) => c.pending).map((c) => c.key),
		changed: matrix.consents.filter((entry) => entry.since > answeredVersion).map((entry) => entry.key),
		declined_required: consents.filter((c) => c.required && c.answered && !c.granted).map((c) => c.key),
		do_not_sell_applies: isDoNotSellPlace(place.country, place.basics.state),
	};
}

/**
 * True when the member must answer the consent screen before going on: the matrix changed since
 * they last answered it (or they never answered their region's), or they declined a required one.
 * Optional consents they simply left unanswered at signup do not stop them at every login.
 */
export async function needsConsentPrompt(deps: Reader, userId: number): Promise<boolean> {
	const status = await getConsentStatus(deps, userId);
	return status.changed.length > 0 || status.declined_required.length > 0;
}

/**
 * Records staged consent changes together: one row per consent, all of the current matrix of the
 * member's region, in one transaction. Consents the matrix does not name are refused.
 */
export async function recordConsents(
	deps: Deps,
	userId: number,
	changes: { key: ConsentKey; granted: boolean }[],
	source: ConsentSource,
): Promise<ConsentStatus> {
	const place = await memberPlace(deps, userId);
	const matrix = currentMatrix(place.region);
	const named = new Set(matrix.consents.map((entry) => entry.key));
	const unknown = changes.filter((change) => !named.has(change.key));
	if (unknown.length)
		throw new AppError('validation_failed', 'This consent is not asked in your region.', {
			detail: 'unknown_consent',
			failures: unknown.map((change) => ({
				field: `consents.${change.key}`,
				message: 'Not asked in your region.',
			})),
		});
	const withheldBefore = changes.length ? await withheldProcessing(deps, userId) : [];
	if (changes.length) {
		const now = deps.clock();
		await deps.db.insert(consentRecords).values(
			changes.map((change) => ({
				userId,
				consentKey: change.key,
				granted: change.granted,
				region: place.region,
				matrixVersion: matrix.version,
				source,
				recordedAt: now,
			})),
		);
		deps.logger.info({ userId, count: changes.length, source }, 'consents recorded');
	}
	const status = await getConsentStatus(deps, userId);
	if (changes.length) await followProcessingConsents(deps, userId, withheldBefore, status);
	return status;
}

/** The member says where they live; their matrix follows from it. */
export async function confirmCountry(deps: Deps, userId: number, country: string): Promise<ConsentStatus> {
	const code = country.toUpperCase();
	const now = deps.clock();
	const withheldBefore = await withheldProcessing(deps, userId);
	await deps.db
		.insert(privacyCountries)
		.values({ userId, country: code, confirmedAt: now })
		.onConflictDoUpdate({ target: privacyCountries.userId, set: { country: code, confirmedAt: now } });
	const status = await getConsentStatus(deps, userId);
	await followProcessingConsents(deps, userId, withheldBefore, status);
	return status;
}

/**
 * A browser sending `Sec-GPC: 1` for a member in a universal opt-out state opts them out of sale,
 * sharing and targeted ads. Recorded once per change, so each signal does not add a row. An
 * opt-out the visitor's browser already holds (`everywhere`) is theirs whatever the region.
 */
export async function honourGlobalPrivacyControl(
	deps: Deps,
	userId: number,
	{ everywhere = false }: { everywhere?: boolean } = {},
): Promise<boolean> {
	const status = await getConsentStatus(deps, userId);
	if (!status.do_not_sell_applies && !everywhere) return false;
	const optOuts = status.consents
		.filter((c) => (c.key === 'sale_share' || c.key === 'personalised_ads') && c.granted)
		.map((c) => ({ key: c.key, granted: false }));
	if (!optOuts.length) return false;
	await recordConsents(deps, userId, optOuts, 'gpc');
	return true;
}

/** Signup names its answers as the signup form does; they become the first records. */
const SIGNUP_NAMES: Record<string, ConsentKey> = {
	terms_of_use: 'terms',
	terms: 'terms',
	privacy_policy: 'privacy_policy',
	marketing_email: 'marketing_email',
	personalised_ads: 'personalised_ads',
	sale_share: 'sale_share',
	precise_location: 'precise_location',
	health_data: 'health_data',
};

export async function recordSignupConsents(
	deps: Deps,
	userId: number,
	given: Record<string, boolean> | undefined,
): Promise<void> {
	const place = await memberPlace(deps, userId);
	const named = new Set(currentMatrix(place.region).consents.map((entry) => entry.key));
	const changes = Object.entries(given ?? {})
		.map(([name, granted]) => ({ key: SIGNUP_NAMES[name], granted }))
		.filter((change) => change.key && named.has(change.key));
	await recordConsents(deps, userId, changes, 'signup');
}

/**
 * The demo members have answered their region's current matrix, as a signed-up member would, and
 * allow their tracks and heart rate to be used: the demo shows what the product does with them.
 */
export async function seedDemoConsents(deps: Deps, userIds: number[]): Promise<void> {
	for (const userId of userIds) {
		const [any] = await deps.db
			.select({ id: consentRecords.id })
			.from(consentRecords)
			.where(eq(consentRecords.userId, userId))
			.limit(1);
		if (any) continue;
		const place = await memberPlace(deps, userId);
		const matrix = currentMatrix(place.region);
		await recordConsents(
			deps,
			userId,
			matrix.consents.map((entry) => ({
				key: entry.key,
				granted:
					entry.required ||
					entry.defaultOn ||
					(PROCESSING_CONSENTS as readonly ConsentKey[]).includes(entry.key),
			})),
			'demo',
		);
	}
}

/** Every answer the member gave, newest first: the consent log they can read back. */
export async function listConsentHistory(deps: Reader, userId: number, limit = 50) {
	const rows = await deps.db
		.select()
		.from(consentRecords)
		.where(eq(consentRecords.userId, userId))
		.orderBy(desc(consentRecords.id))
		.limit(limit);
	return rows.map((row) => ({
		key: row.consentKey as ConsentKey,
		title: CONSENT_LABELS[row.consentKey as ConsentKey]?.title ?? row.consentKey,
		granted: row.granted,
		region: row.region as PrivacyRegion,
		matrix_version: row.matrixVersion,
		source: row.source as ConsentSource,
		recorded_datetime: formatApiDateTime(row.recordedAt),
	}));
}

/**
 * The processing consents the member has not given (their region's answer or default): what they
 * record that needs one is stored but kept back from every view until it is given.
 */
export async function withheldProcessing(deps: Reader, userId: number): Promise<ProcessingConsent[]> {
	const status = await getConsentStatus(deps, userId);
	return withheldIn(status);
}

function withheldIn(status: ConsentStatus): ProcessingConsent[] {
	const granted = new Set(status.consents.filter((c) => c.granted).map((c) => c.key));
	return PROCESSING_CONSENTS.filter((key) => !granted.has(key));
}

/** When an answer or a new region changes what may be processed, the member's recordings follow. */
async function followProcessingConsents(
	deps: Deps,
	userId: number,
	withheldBefore: ProcessingConsent[],
	status: ConsentStatus,
): Promise<void> {
	const after = withheldIn(status);
	if (after.length === withheldBefore.length && after.every((key) => withheldBefore.includes(key))) return;
	await enqueueJob(deps, { kind: APPLY_PROCESSING_CONSENTS_JOB, payload: { userId } });
}
