import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import type { ApiEnv } from '../../api/context';
import { validate } from '../../api/validate';
import { SupportRequestSchema } from '../contract';
import { submitSupportRequest } from './service';

/** The contact form's endpoint, for members and visitors alike. */
export function createSupportApi(): Hono<ApiEnv> {
	const app = new Hono<ApiEnv>();
	app.post(
		'/internal/zendesk/post',
		describeRoute({
			summary: 'Write to support: the request is kept, sent to the support address and acknowledged',
		}),
		validate('json', SupportRequestSchema),
		async (c) => {
			const created = await submitSupportRequest(
				c.var.deps,
				{ memberId: c.var.viewer?.id ?? null, ip: c.var.clientIp },
				c.req.valid('json'),
			);
			return c.json({ id: created.id, status: 'received' }, 201);
		},
	);
	return app;
}
