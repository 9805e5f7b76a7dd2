import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import type { ApiEnv } from '../../api/context';
import { validate } from '../../api/validate';
import { ClientEventBatchSchema } from '../contract';
import { recordClientEvents } from './service';

/** The browser's product events (pages send them with sendBeacon as the page is hidden too). */
export function createAnalyticsApi(): Hono<ApiEnv> {
	const app = new Hono<ApiEnv>();
	app.post(
		'/auth/client-events',
		describeRoute({
			summary:
				'Record a batch of product events, page views and Web Vitals; kept only as the visitor’s cookie choices and place allow, never with a member or address',
		}),
		validate('json', ClientEventBatchSchema),
		async (c) => {
			const answer = await recordClientEvents(
				c.var.deps,
				{
					cookie: c.req.header('cookie') ?? null,
					gpc: c.req.header('sec-gpc')?.trim() === '1',
					ip: c.var.clientIp,
				},
				c.req.valid('json'),
			);
			c.header('Cache-Control', 'no-store');
			return c.json(answer, 200);
		},
	);
	return app;
}
