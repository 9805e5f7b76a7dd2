import type { APIRoute } from 'astro';
import * as v from 'valibot';
import { getRuntime } from '../../lib/api/runtime';
import { LinkTokenSchema } from '../../lib/auth/contract';
import { expireLinkNow } from '../../lib/auth/server/service';
import { notFound } from '../../lib/site/not-found';

export const prerender = false;

/** The development mailbox's "Let this link expire" button posts here; in production it does not exist. */
export const POST: APIRoute = async ({ request, redirect }) => {
	const { deps } = await getRuntime();
	if (deps.config.env === 'production') return notFound();
	const form = await request.formData().catch(() => null);
	const token = form?.get('token');
	if (!v.is(LinkTokenSchema, token)) return new Response('Not a mailed link token.', { status: 400 });
	if (!(await expireLinkNow(deps, token))) return new Response('No such link.', { status: 404 });
	return redirect('/dev/mailbox', 303);
};
