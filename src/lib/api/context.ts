import type { Hono } from 'hono';
import type { Logger } from 'pino';
import type { Viewer } from '../auth/contract';
import type { AppAccess } from '../connected-apps/server/service';
import type { Config } from '../core/config';
import type { Db } from '../db/client';

/** The world a request runs in. Services take what they need from it; tests pass their own. */
export type AppDeps = {
	db: Db;
	config: Config;
	logger: Logger;
	/** Injected so tests can move time (token expiry, lockouts) without waiting. */
	clock: () => Date;
};

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
