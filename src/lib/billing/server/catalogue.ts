// The plans on sale and the coupon codes there are: what the shop offers before any member takes it.
import { and, eq } from 'drizzle-orm';
import { AppError } from '../../core/errors';
import type { AppDeps, Db } from '../../core/server/deps';
import { type CouponView, describePeriod, type ProductView } from '../contract';
import type { CouponRow, ProductRow } from './billing-shared';
import { billingCoupons, billingProducts } from './tables';

/** The plans on sale and the coupons the demo and promotions hand out. */
export const CATALOGUE = {
	products: [
		{
			id: 'mvp-monthly',
			name: 'MVP Monthly',
			amount: 599,
			currency: 'usd',
			frequencyInterval: 1,
			frequencyUnit: 'month',
		},
		{
			id: 'mvp-annual',
			name: 'MVP Annual',
			amount: 2999,
			currency: 'usd',
			frequencyInterval: 12,
			frequencyUnit: 'month',
		},
	],
	coupons: [
		{ code: 'MVP90', durationInterval: 90, durationUnit: 'day', maxRedemptions: null, grantable: false },
		{ code: 'MVP30', durationInterval: 30, durationUnit: 'day', maxRedemptions: null, grantable: false },
		{ code: 'MVPYEAR', durationInterval: 365, durationUnit: 'day', maxRedemptions: 500, grantable: false },
		{ code: 'UAWIRELESS', durationInterval: 90, durationUnit: 'day', maxRedemptions: null, grantable: true },
	],
} as const;

/** Puts the catalogue in place; safe to run on every start. */
export async function seedCatalogue(deps: Pick<AppDeps, 'db'>): Promise<void> {
	await deps.db
		.insert(billingProducts)
		.values(CATALOGUE.products.map((product) => ({ ...product, platforms: ['web'] })))
		.onConflictDoNothing();
	await deps.db
		.insert(billingCoupons)
		.values(CATALOGUE.coupons.map((coupon) => ({ ...coupon })))
		.onConflictDoNothing();
}

/** An operator's coupon (a campaign with a redemption cap, say). */
export async function createCoupon(
	deps: Pick<AppDeps, 'db'>,
	coupon: {
		code: string;
		durationInterval: number;
		durationUnit: string;
		maxRedemptions?: number | null;
		grantable?: boolean;
	},
): Promise<void> {
	await deps.db.insert(billingCoupons).values({ ...coupon, code: coupon.code.toUpperCase() });
}

function presentProduct(row: ProductRow): ProductView {
	return {
		id: row.id,
		name: row.name,
		availability_details: {
			price_point: { amount: row.amount, currency: row.currency },
			available_platforms: row.platforms,
		},
		subscription_details: {
			frequency_interval: row.frequencyInterval,
			frequency_unit: row.frequencyUnit,
			trial_details:
				row.trialInterval > 0 ? { duration_interval: row.trialInterval, duration_unit: row.trialUnit } : null,
		},
	};
}

export async function productRow(deps: Pick<AppDeps, 'db'>, id: string): Promise<ProductRow> {
	const [row] = await deps.db
		.select()
		.from(billingProducts)
		.where(and(eq(billingProducts.id, id), eq(billingProducts.active, true)));
	if (!row) throw new AppError('not_found', 'That plan is not on sale.', { detail: 'product_fetch/1' });
	return row;
}

export async function getProduct(deps: Pick<AppDeps, 'db'>, id: string): Promise<ProductView> {
	return presentProduct(await productRow(deps, id));
}

export async function listProducts(deps: Pick<AppDeps, 'db'>): Promise<ProductView[]> {
	const rows = await deps.db
		.select()
		.from(billingProducts)
		.where(eq(billingProducts.active, true))
		.orderBy(billingProducts.amount);
	return rows.map(presentProduct);
}

export function presentCoupon(row: CouponRow): CouponView {
	return {
		id: row.code,
		duration_interval: row.durationInterval,
		duration_unit: row.durationUnit,
		free_period: describePeriod(row.durationInterval, row.durationUnit),
	};
}

export async function couponRow(db: Db, code: string): Promise<CouponRow> {
	const [row] = await db
		.select()
		.from(billingCoupons)
		.where(and(eq(billingCoupons.code, code.toUpperCase()), eq(billingCoupons.active, true)));
	if (!row) throw new AppError('not_found', 'That coupon code is not valid.', { detail: 'coupon_not_found' });
	return row;
}

export async function getCoupon(deps: Pick<AppDeps, 'db'>, code: string): Promise<CouponView> {
	return presentCoupon(await couponRow(deps.db, code));
}
