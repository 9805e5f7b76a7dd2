import type { ServerResponse } from 'node:http';
import type { Context, Hono } from 'hono';
import type { Viewer } from '../auth/contract';
import type { AppAccess } from '../connected-apps/server/service';
import type { AppDeps } from '../core/server/deps';

/** Hono's typed context variables for every API route. */
export type ApiEnv = {
	Variables: {
		deps: AppDeps;
		requestId: string;
		/** Set by the bearer-token middleware; null for anonymous callers. */
		viewer: Viewer | null;
		/** The sign-in the bearer token belongs to; null for anonymous callers. */
		sessionId: string | null;
		/** Set when a third-party app calls with its own token: which app, and what the member let it do. */
		appAccess: AppAccess | null;
		clientIp: string;
	};
};

/** Anything Hono can mount under /api; sub-apps declare their own (narrower) context types. */
// biome-ignore lint/suspicious/noExplicitAny: Hono's route() accepts any sub-app environment
export type SubApp = Hono<any, any, any>;

/**
 * Headers set before the handler runs (security policy, request id, Vary, rate limit). Under Node
 * they go on the socket's own response, which merges them under whatever the handler's answer
 * sets, so the answer still wins a clash: building a WHATWG Headers object for them cost a small
 * API call more than everything else it did. In-process calls (tests) have no socket and get them
 * through the context.
 */
export function presetHeaders(c: Context, headers: readonly (readonly [string, string])[]): void {
	const outgoing = (c.env as { outgoing?: { setHeader?: unknown } } | undefined)?.outgoing;
	if (outgoing && typeof outgoing.setHeader === 'function') {
		for (const [name, value] of headers) (outgoing as ServerResponse).setHeader(name, value);
	} else {
		for (const [name, value] of headers) c.header(name, value);
	}
}
