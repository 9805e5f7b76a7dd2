import { getTableName } from 'drizzle-orm';
import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import pg from 'pg';
import {
	type RateLimiterAbstract,
	RateLimiterMemory,
	RateLimiterPostgres,
	RateLimiterRes,
} from 'rate-limiter-flexible';
import { AppError } from '../core/errors';
import type { Db } from '../core/server/deps';
import { rateLimits } from '../db/rate-limit-table';
import { type ApiEnv, presetHeaders } from './context';
import { requestCost } from './request-costs';

/** Health probes come from the platform, many times a minute, and say nothing about anyone. */
const UNLIMITED = /^\/api\/health(\/|$)/;

export type LimiterOptions = {
	/** Names the budget; callers of different budgets never share a counter. */
	name: string;
	points: number;
	/** Seconds in one window. */
	duration: number;
	/** Seconds a caller who goes past `points` is refused for, counted from that request (0: until the window ends). */
	blockDuration?: number;
};

// The embedded database's budgets, so they can be emptied along with its tables.
const inMemory = new WeakMap<Db, Set<RateLimiterMemory>>();

/**
 * Every request budget is built here, so all of them count in the same place. On PostgreSQL the
 * counters live in the `rate_limits` table, which every process behind the load balancer shares.
 * The embedded PGlite is opened by one process only (its data folder is locked), so that process
 * sees every request and its memory is the right place for the counters.
 */
export function createLimiter(db: Db, options: LimiterOptions): RateLimiterAbstract {
	const { name: keyPrefix, points, duration, blockDuration = 0 } = options;
	const client = (db as { $client?: unknown }).$client;
	if (!(client instanceof pg.Pool)) {
		const limiter = new RateLimiterMemory({ keyPrefix, points, duration, blockDuration });
		const limiters = inMemory.get(db) ?? new Set();
		inMemory.set(db, limiters.add(limiter));
		return limiter;
	}
	return new RateLimiterPostgres({
		storeClient: client,
		storeType: 'pool',
		// The table comes from our migrations, not from the library at run time.
		tableName: getTableName(rateLimits),
		tableCreated: true,
		keyPrefix,
		points,
		duration,
		blockDuration,
	});
}

/** Forgets every count the embedded database's budgets hold in memory, as truncating `rate_limits` does on PostgreSQL. */
export async function forgetBudgetsInMemory(db: Db): Promise<void> {
	for (const limiter of inMemory.get(db) ?? [])
		for (const { key } of limiter.dump().storage) await limiter.delete(key);
}

/** Spends `points` of `key`'s budget, or answers how many seconds to wait (for Retry-After) when it is spent. */
export async function spend(
	limiter: RateLimiterAbstract,
	key: string,
	points = 1,
): Promise<{ spent: RateLimiterRes; waitSeconds?: never } | { spent?: never; waitSeconds: number }> {
	try {
		return { spent: await limiter.consume(key, points) };
	} catch (refusal) {
		if (!(refusal instanceof RateLimiterRes)) throw refusal;
		return { waitSeconds: Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)) };
	}
}

/** Spends `points` of `key`'s budget (one by default), or refuses with 429 and how long to wait (Retry-After). */
export async function spendOrRefuse(
	limiter: RateLimiterAbstract,
	key: string,
	message: string,
	points = 1,
): Promise<RateLimiterRes> {
	const { spent, waitSeconds } = await spend(limiter, key, points);
	if (spent) return spent;
	throw new AppError('rate_limited', message, {
		detail: 'too_many_requests',
		headers: { 'Retry-After': String(waitSeconds) },
	});
}

/**
 * A per-caller request budget for the whole API (security test 26: scraping public lists and
 * profiles). Members are counted by id, so a household behind one address is not one caller;
 * visitors by address. Calls made inside the process (no socket, address 'unknown') are not
 * network callers. Heavy reads (the feed, stats, route search, downloads) cost more than one point
 * each (request-costs.ts).
 */
export function rateLimit(db: Db, perMinute: number): MiddlewareHandler<ApiEnv> {
	if (perMinute <= 0) return (_c, next) => next();
	const limiter = createLimiter(db, { name: 'api', points: perMinute, duration: 60 });
	return async (c, next) => {
		const clientIp = c.get('clientIp');
		if (UNLIMITED.test(c.req.path) || clientIp === 'unknown') return next();
		const viewer = c.get('viewer');
		const key = viewer ? `member:${viewer.id}` : `address:${clientIp}`;
		// Hono has matched the routes before any middleware runs. A price above the whole budget is
		// capped, so a small budget still allows one such call a minute.
		const cost = Math.min(
			perMinute,
			requestCost(
				c.req.method,
				matchedRoutes(c).map((route) => route.path),
				(name) => c.req.query(name),
			),
		);
		const spent = await spendOrRefuse(
			limiter,
			key,
			`More than ${perMinute} requests a minute (heavy reads such as the feed count as several); slow down and try again`,
			cost,
		);
		presetHeaders(c, [
			['RateLimit-Policy', `${perMinute};w=60`],
			['RateLimit', `remaining=${spent.remainingPoints}, reset=${Math.ceil(spent.msBeforeNext / 1000)}`],
		]);
		await next();
	};
}
