import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import type { ApiEnv } from '../../api/context';
import { validate } from '../../api/validate';
import { requireViewer } from '../../auth/server/middleware';
import { AppError } from '../../core/errors';
import { EmailOptOutsSchema, UnsubscribeQuerySchema } from '../contract';
import { checkUnsubscribeLink, listEmailPreferences, optOut, setEmailOptOuts } from './service';

/** The member's e-mail preferences, and the one-click unsubscribe mail programs post to. */
export function createMailApi(): Hono<ApiEnv> {
	const app = new Hono<ApiEnv>();
	const viewerId = (c: { var: ApiEnv['Variables'] }) => (c.var.viewer as { id: number }).id;

	app.get(
		'/internal/emailOptOuts',
		describeRoute({ summary: 'Which kinds of optional e-mail the signed-in member gets' }),
		requireViewer,
		async (c) => {
			c.header('Cache-Control', 'no-store');
			return c.json({ preferences: await listEmailPreferences(c.var.deps, viewerId(c)) });
		},
	);

	app.post(
		'/internal/emailOptOuts',
		describeRoute({ summary: 'Set the kinds of optional e-mail the signed-in member does not want' }),
		requireViewer,
		validate('json', EmailOptOutsSchema),
		async (c) => {
			const preferences = await setEmailOptOuts(c.var.deps, viewerId(c), c.req.valid('json').opted_out);
			return c.json({ preferences });
		},
	);

	// RFC 8058: the mail program posts "List-Unsubscribe=One-Click" to the header's address, with no
	// session; the signed link alone says who and what.
	app.post(
		'/internal/emailOptOuts/one-click',
		describeRoute({ summary: 'One-click unsubscribe from one kind of e-mail (RFC 8058), by signed link' }),
		validate('query', UnsubscribeQuerySchema),
		async (c) => {
			const query = c.req.valid('query');
			const userId = checkUnsubscribeLink(c.var.deps.config, query);
			if (userId === null)
				throw new AppError('forbidden', 'This unsubscribe link is not valid.', { detail: 'bad_token' });
			await optOut(c.var.deps, userId, query.category);
			return c.json({ unsubscribed: query.category });
		},
	);
	return app;
}
