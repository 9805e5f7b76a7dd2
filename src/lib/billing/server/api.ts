import { type Context, Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import type { ApiEnv } from '../../api/context';
import { idempotencyKeyRefusal, RequiredIdempotencyHeaderSchema } from '../../api/idempotency-header';
import { validate } from '../../api/validate';
import type { Viewer } from '../../auth/contract';
import { refreshSessionHint } from '../../auth/server/api';
import { requireViewer } from '../../auth/server/middleware';
import { findViewerById } from '../../auth/server/session';
import { AppError } from '../../core/errors';
import {
	AddCardSchema,
	BillingProfileCreateSchema,
	BillingProfilePatchSchema,
	CouponParamSchema,
	IdParamSchema,
	PAYMENT_PROVIDERS,
	PaidSubscriptionCreateSchema,
	PaidSubscriptionPatchSchema,
	PaymentIntentCreateSchema,
	PaymentIntentParamSchema,
	PaymentIntentRefSchema,
	ProductParamSchema,
	UserCouponCreateSchema,
	UserCouponPatchSchema,
	VerificationAnswerSchema,
} from '../contract';
import {
	addBillingProfile,
	deleteBillingProfile,
	listBillingProfiles,
	makeDefaultBillingProfile,
} from './billing-profiles';
import type { BillingDeps } from './billing-shared';
import { getCoupon, getProduct } from './catalogue';
import {
	addCardToIntent,
	answerLocalVerification,
	completeTransaction,
	createPaymentIntent,
	getPaymentIntent,
	prepareToCapture,
} from './checkout';
import { claimCoupon, claimGrantableCoupons, listUserCoupons, redeemUserCoupon } from './member-coupons';
import { createPaidSubscription, listSubscriptions, setAutoRenew } from './subscriptions';
import { handleWebhook } from './webhooks';

const viewerOf = (c: { var: { viewer: Viewer | null } }) => c.var.viewer as Viewer;

/**
 * Billing (/api/billing) and the checkout (/api/checkoutapi). Every answer is the member's own;
 * errors have the billing shape `{ error_details: { code }, error_description }`.
 */
export function createBillingApi(extra: Partial<BillingDeps> = {}): Hono<ApiEnv> {
	const app = new Hono<ApiEnv>();
	const depsOf = (c: { var: { deps: ApiEnv['Variables']['deps'] } }): BillingDeps => ({
		...c.var.deps,
		...extra,
	});
	const privateNoStore = async (
		c: { header: (name: string, value: string) => void },
		next: () => Promise<void>,
	) => {
		await next();
		c.header('Cache-Control', 'private, no-store');
	};
	app.use('/billing/*', privateNoStore);
	app.use('/checkoutapi/*', privateNoStore);
	// A purchase, a coupon or a refund can change who is an MVP member: the header's hint follows.
	const followMembership = async (c: Context<ApiEnv>, next: () => Promise<void>) => {
		const before = c.var.viewer;
		await next();
		if (!before || c.req.method === 'GET' || c.res.status >= 400) return;
		const now = await findViewerById(c.var.deps, before.id);
		if (now && now.isPremium !== before.isPremium) refreshSessionHint(c, now);
	};
	app.use('/billing/*', followMembership);
	app.use('/checkoutapi/*', followMembership);

	app.get(
		'/billing/billing-profiles',
		describeRoute({ summary: "The member's saved cards" }),
		requireViewer,
		async (c) =>
			c.json({ _embedded: { billing_profiles: await listBillingProfiles(depsOf(c), viewerOf(c)) } }),
	);
	app.post(
		'/billing/billing-profiles',
		describeRoute({ summary: 'Save a card the processor tokenised' }),
		requireViewer,
		validate('json', BillingProfileCreateSchema),
		async (c) => c.json(await addBillingProfile(depsOf(c), viewerOf(c), c.req.valid('json')), 201),
	);
	app.patch(
		'/billing/billing-profiles/:id',
		describeRoute({ summary: 'Make a saved card the default' }),
		requireViewer,
		validate('param', IdParamSchema),
		validate('json', BillingProfilePatchSchema),
		async (c) => c.json(await makeDefaultBillingProfile(depsOf(c), viewerOf(c), c.req.valid('param').id)),
	);
	app.delete(
		'/billing/billing-profiles/:id',
		describeRoute({ summary: 'Delete a saved card (another becomes the default)' }),
		requireViewer,
		validate('param', IdParamSchema),
		async (c) => {
			await deleteBillingProfile(depsOf(c), viewerOf(c), c.req.valid('param').id);
			return c.body(null, 204);
		},
	);

	app.get(
		'/billing/paid-subscriptions',
		describeRoute({ summary: "The member's subscriptions" }),
		requireViewer,
		async (c) =>
			c.json({ _embedded: { paid_subscriptions: await listSubscriptions(depsOf(c), viewerOf(c)) } }),
	);
	app.post(
		'/billing/paid-subscriptions',
		describeRoute({ summary: 'Subscribe with a saved card' }),
		requireViewer,
		validate('header', RequiredIdempotencyHeaderSchema, idempotencyKeyRefusal),
		validate('json', PaidSubscriptionCreateSchema),
		async (c) =>
			c.json(
				await createPaidSubscription(
					depsOf(c),
					viewerOf(c),
					c.req.valid('json'),
					c.req.valid('header')['idempotency-key'],
				),
				201,
			),
	);
	app.patch(
		'/billing/paid-subscriptions/:id',
		describeRoute({ summary: 'Turn auto-renew on or off' }),
		requireViewer,
		validate('param', IdParamSchema),
		validate('json', PaidSubscriptionPatchSchema),
		async (c) =>
			c.json(
				await setAutoRenew(depsOf(c), viewerOf(c), c.req.valid('param').id, c.req.valid('json').auto_renew),
			),
	);

	app.get(
		'/billing/coupons/:code',
		describeRoute({ summary: 'A coupon and its free period' }),
		validate('param', CouponParamSchema),
		async (c) => c.json(await getCoupon(depsOf(c), c.req.valid('param').code)),
	);
	app.get(
		'/billing/products/:id',
		describeRoute({ summary: 'A plan, its price and billing period' }),
		validate('param', ProductParamSchema),
		async (c) => c.json(await getProduct(depsOf(c), c.req.valid('param').id)),
	);

	app.get(
		'/billing/user-coupons',
		describeRoute({ summary: "The member's coupons" }),
		requireViewer,
		async (c) => c.json({ _embedded: { user_coupons: await listUserCoupons(depsOf(c), viewerOf(c)) } }),
	);
	app.post(
		'/billing/user-coupons',
		describeRoute({ summary: 'Claim a coupon by its code' }),
		requireViewer,
		validate('json', UserCouponCreateSchema),
		async (c) => {
			const body = c.req.valid('json');
			return c.json(await claimCoupon(depsOf(c), viewerOf(c), body.coupon_id, body.country_code), 201);
		},
	);
	app.post(
		'/billing/user-coupons/grantable',
		describeRoute({ summary: 'Claim the coupons on offer to every member' }),
		requireViewer,
		async (c) => c.json({ _embedded: { user_coupons: await claimGrantableCoupons(depsOf(c), viewerOf(c)) } }),
	);
	app.patch(
		'/billing/user-coupons/:id',
		describeRoute({ summary: 'Redeem a claimed coupon' }),
		requireViewer,
		validate('param', IdParamSchema),
		validate('json', UserCouponPatchSchema),
		async (c) => c.json(await redeemUserCoupon(depsOf(c), viewerOf(c), c.req.valid('param').id)),
	);

	// Processors post here; the signature, not a session, says who is calling.
	app.post(
		'/billing/webhooks/:provider',
		describeRoute({ summary: "A card processor's signed event" }),
		async (c) => {
			const provider = c.req.param('provider');
			if (!(PAYMENT_PROVIDERS as readonly string[]).includes(provider))
				throw new AppError('not_found', 'No such processor.', { detail: 'unknown_processor' });
			const rawBody = await c.req.text();
			return c.json(
				await handleWebhook(
					depsOf(c),
					provider as (typeof PAYMENT_PROVIDERS)[number],
					rawBody,
					c.req.header('stripe-signature') ?? null,
				),
			);
		},
	);

	app.get(
		'/checkoutapi/paymentIntent/:a/:b',
		describeRoute({ summary: 'A checkout payment of the member' }),
		requireViewer,
		validate('param', PaymentIntentParamSchema),
		async (c) => c.json(await getPaymentIntent(depsOf(c), viewerOf(c), c.req.valid('param').b)),
	);
	app.post(
		'/checkoutapi/paymentIntent',
		describeRoute({ summary: 'Start a checkout at the catalogue price' }),
		requireViewer,
		validate('header', RequiredIdempotencyHeaderSchema, idempotencyKeyRefusal),
		validate('json', PaymentIntentCreateSchema),
		async (c) => {
			const { replayed, ...intent } = await createPaymentIntent(
				depsOf(c),
				viewerOf(c),
				c.req.valid('json'),
				c.req.valid('header')['idempotency-key'],
			);
			if (replayed) c.header('Idempotent-Replayed', 'true');
			return c.json(intent, replayed ? 200 : 201);
		},
	);
	app.post(
		'/checkoutapi/addCard',
		describeRoute({ summary: 'Attach a tokenised card to a checkout' }),
		requireViewer,
		validate('json', AddCardSchema),
		async (c) => {
			const body = c.req.valid('json');
			return c.json(await addCardToIntent(depsOf(c), viewerOf(c), body.payment_intent_id, body.cc_token));
		},
	);
	app.post(
		'/checkoutapi/prepareToCapture',
		describeRoute({ summary: "Charge the checkout's card" }),
		requireViewer,
		validate('json', PaymentIntentRefSchema),
		async (c) =>
			c.json(await prepareToCapture(depsOf(c), viewerOf(c), c.req.valid('json').payment_intent_id)),
	);
	app.post(
		'/checkoutapi/completeTransaction',
		describeRoute({ summary: 'Settle a checkout after verification or a lost answer' }),
		requireViewer,
		validate('json', PaymentIntentRefSchema),
		async (c) =>
			c.json(await completeTransaction(depsOf(c), viewerOf(c), c.req.valid('json').payment_intent_id)),
	);
	app.post(
		'/checkoutapi/verification',
		describeRoute({ summary: "Answer the test processor's verification step" }),
		requireViewer,
		validate('json', VerificationAnswerSchema),
		async (c) => {
			const body = c.req.valid('json');
			return c.json(
				await answerLocalVerification(depsOf(c), viewerOf(c), body.payment_intent_id, body.approve),
			);
		},
	);

	return app;
}
