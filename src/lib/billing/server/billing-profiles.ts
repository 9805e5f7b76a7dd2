// A member's saved cards (billing profiles): adding one, choosing the default that pays the
// renewals, and deleting one.
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Viewer } from '../../auth/contract';
import { AppError } from '../../core/errors';
import type { AppDeps, Db } from '../../core/server/deps';
import type { BillingProfileView, PaymentProvider } from '../contract';
import {
	type BillingDeps,
	defaultProfile,
	hashOf,
	PROCESSOR_TIMEOUT_MS,
	type ProfileRow,
} from './billing-shared';
import { CardError, type PaymentProcessor, withTimeout } from './processor';
import { renewOnce } from './renewals';
import { billingProfiles, billingSubscriptions } from './tables';
import { paymentProcessor } from './webhooks';

function presentProfile(row: ProfileRow): BillingProfileView {
	return {
		billing_profile_id: row.id,
		payment_provider: row.paymentProvider as PaymentProvider,
		cc_token: row.ccToken,
		card_brand: row.cardBrand,
		card_last4: row.cardLast4,
		default: row.isDefault,
	};
}

export async function ownProfile(db: Db, viewer: Viewer, id: number): Promise<ProfileRow> {
	const [row] = await db
		.select()
		.from(billingProfiles)
		.where(and(eq(billingProfiles.id, id), eq(billingProfiles.userId, viewer.id)));
	// Another member's profile answers exactly as a missing one: its existence is not ours to tell.
	if (!row)
		throw new AppError('not_found', 'No such billing profile.', { detail: 'billing_profile_not_found' });
	return row;
}

export async function listBillingProfiles(
	deps: Pick<AppDeps, 'db'>,
	viewer: Viewer,
): Promise<BillingProfileView[]> {
	const rows = await deps.db
		.select()
		.from(billingProfiles)
		.where(eq(billingProfiles.userId, viewer.id))
		.orderBy(desc(billingProfiles.isDefault), billingProfiles.id);
	return rows.map(presentProfile);
}

/** Saves a card the browser tokenised; the processor refuses a card it would decline. */
export async function addBillingProfile(
	deps: BillingDeps,
	viewer: Viewer,
	input: { payment_provider: PaymentProvider; cc_token: string; default?: boolean },
): Promise<BillingProfileView> {
	const processor = paymentProcessor(deps);
	if (input.payment_provider !== processor.name)
		throw new AppError('bad_request', `Cards are taken by the ${processor.name} processor.`, {
			detail: 'payment_provider_mismatch',
		});
	let card: Awaited<ReturnType<PaymentProcessor['saveCard']>>;
	try {
		card = await withTimeout(
			processor.saveCard(input.cc_token, `card-${viewer.id}-${hashOf(input.cc_token)}`),
			deps.processorTimeoutMs ?? PROCESSOR_TIMEOUT_MS,
		);
	} catch (error) {
		if (error instanceof CardError)
			throw new AppError('unprocessable', error.message, { detail: error.code });
		deps.logger.warn({ processor: processor.name }, 'card could not be saved');
		throw new AppError('unavailable', 'The card processor did not answer. Please try again.', {
			detail: 'processor_unavailable',
		});
	}
	const row = await deps.db.transaction(async (tx) => {
		const existing = await defaultProfile(tx, viewer.id);
		const makeDefault = input.default === true || !existing;
		if (makeDefault)
			await tx.update(billingProfiles).set({ isDefault: false }).where(eq(billingProfiles.userId, viewer.id));
		const [inserted] = await tx
			.insert(billingProfiles)
			.values({
				userId: viewer.id,
				paymentProvider: processor.name,
				ccToken: card.paymentMethod,
				cardBrand: card.brand,
				cardLast4: card.last4,
				isDefault: makeDefault,
			})
			.returning();
		return inserted;
	});
	if (row.isDefault) await chargeRenewalsTo(deps, viewer.id, row.id);
	return presentProfile(row);
}

/**
 * The default card pays the member's renewals from now on; a renewal that failed is charged again
 * at once, so replacing the card ends the grace period without waiting for the next retry.
 */
async function chargeRenewalsTo(deps: BillingDeps, userId: number, profileId: number): Promise<void> {
	const moved = await deps.db
		.update(billingSubscriptions)
		.set({ billingProfileId: profileId })
		.where(
			and(
				eq(billingSubscriptions.userId, userId),
				inArray(billingSubscriptions.status, ['active', 'past_due']),
			),
		)
		.returning();
	for (const subscription of moved)
		if (subscription.status === 'past_due') await renewOnce(deps, subscription);
}

export async function makeDefaultBillingProfile(
	deps: BillingDeps,
	viewer: Viewer,
	id: number,
): Promise<BillingProfileView> {
	const made = await deps.db.transaction(async (tx) => {
		await ownProfile(tx, viewer, id);
		await tx.update(billingProfiles).set({ isDefault: false }).where(eq(billingProfiles.userId, viewer.id));
		const [row] = await tx
			.update(billingProfiles)
			.set({ isDefault: true })
			.where(eq(billingProfiles.id, id))
			.returning();
		return presentProfile(row);
	});
	await chargeRenewalsTo(deps, viewer.id, id);
	return made;
}

/** Deleting a card: if one remains, it becomes the default. */
export async function deleteBillingProfile(
	deps: Pick<AppDeps, 'db'>,
	viewer: Viewer,
	id: number,
): Promise<void> {
	await deps.db.transaction(async (tx) => {
		await ownProfile(tx, viewer, id);
		await tx.delete(billingProfiles).where(eq(billingProfiles.id, id));
		const remaining = await defaultProfile(tx, viewer.id);
		if (remaining && !remaining.isDefault)
			await tx.update(billingProfiles).set({ isDefault: true }).where(eq(billingProfiles.id, remaining.id));
	});
}
