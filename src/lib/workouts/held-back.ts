import type { ProcessingConsent } from '../privacy/contract';

/** Where a member gives the consents a held-back recording waits for. */
export const CONSENTS_EDIT_PATH = '/privacy_center/consents/edit';

/**
 * What a member is told of a recording kept back for want of consent: what waits, why, and what
 * they still see. Null when nothing is held back.
 */
export function heldBackNotice(heldBack: readonly string[]): string | null {
	const location = heldBack.includes('precise_location' satisfies ProcessingConsent);
	const health = heldBack.includes('health_data' satisfies ProcessingConsent);
	if (!location && !health) return null;
	const what =
		location && health ? 'GPS track and heart rate are' : location ? 'GPS track is' : 'heart rate is';
	const consents =
		location && health ? 'precise location and health data' : location ? 'precise location' : 'health data';
	const kept = location ? ' Its distance and time are shown.' : '';
	return `This workout's ${what} stored but kept out of use: you have not consented to ${consents}.${kept} Give that consent in the privacy centre and it appears here.`;
}
