import { Hono } from 'hono';
import * as v from 'valibot';
import type { ApiEnv } from '../../api/context';
import { validate } from '../../api/validate';
import { requireViewer } from '../../auth/server/middleware';
import { idText } from '../../core/integers';
import { getLoyaltyStatus, getRewardsPoints } from './service';

const UserParam = v.object({
	userId: idText('userId must be a member id'),
});

/** The loyalty pilot's reads: a member's points and status, for that member only. */
export function createLoyaltyApi(): Hono<ApiEnv> {
	const app = new Hono<ApiEnv>();
	app.get('/v1/loyalty/rewards-points/:userId', requireViewer, validate('param', UserParam), async (c) => {
		c.header('Cache-Control', 'private, no-store');
		return c.json(
			await getRewardsPoints(c.var.deps, c.var.viewer ?? null, Number(c.req.valid('param').userId)),
		);
	});
	app.get('/v1/loyalty/status/:userId', requireViewer, validate('param', UserParam), async (c) => {
		c.header('Cache-Control', 'private, no-store');
		return c.json(
			await getLoyaltyStatus(c.var.deps, c.var.viewer ?? null, Number(c.req.valid('param').userId)),
		);
	});
	return app;
}
