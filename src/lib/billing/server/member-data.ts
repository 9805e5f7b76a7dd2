import type { DeletionStep, ExportPart } from '../../core/server/member-data';
import { membershipForExport } from './payment-history';
import { closeBillingForDeletion } from './subscriptions';
import { billingPaymentIntents, billingProfiles, billingSubscriptions, billingUserCoupons } from './tables';

/** The member's MVP history: subscriptions, payments, cards by brand and last four, coupons. */
export const membershipExport: ExportPart = {
	name: 'membership',
	tables: [billingSubscriptions, billingPaymentIntents, billingProfiles, billingUserCoupons],
	write: async (deps, member, archive) =>
		archive.addJson('membership.json', await membershipForExport(deps, member)),
};

/**
 * Billing closes while its rows still exist, so no renewal under way or to come charges the
 * deleted account; the processor the deletion's deps name (else the configured one) forgets the cards.
 */
export const billingDeletion: DeletionStep = {
	name: 'billing',
	beforeRows: async (deps, member) => void (await closeBillingForDeletion(deps, member.id)),
};
