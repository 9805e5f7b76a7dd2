import type { MiddlewareHandler } from 'hono';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../core/errors';
import type { ApiEnv } from './context';

/** Health probes come from the platform, many times a minute, and say nothing about anyone. */
const UNLIMITED = /^\/api\/health(\/|$)/;

/**
 * A per-caller request budget for the whole API (security test 26: scraping public lists and
 * profiles). Members are counted by id, so a household behind one address is not one caller;
 * visitors by address. One process holds the counters, which is what this server runs as.
 * Calls made inside the process (no socket, address 'unknown') are not network callers.
 */
export function rateLimit(perMinute: number): MiddlewareHandler<ApiEnv> {
	if (perMinute <= 0) return (_c, next) => next();
	const limiter = new RateLimiterMemory({ points: perMinute, duration: 60 });
	return async (c, next) => {
		if (UNLIMITED.test(c.req.path) || c.var.clientIp === 'unknown') return next();
		const key = c.var.viewer ? `member:${c.var.viewer.id}` : `address:${c.var.clientIp}`;
		try {
			const spent = await limiter.consume(key);
			c.header('RateLimit-Policy', `${perMinute};w=60`);
			c.header(
				'RateLimit',
				`remaining=${spent.remainingPoints}, reset=${Math.ceil(spent.msBeforeNext / 1000)}`,
			);
		} catch (refusal) {
			if (!(refusal instanceof RateLimiterRes)) throw refusal;
			throw new AppError(
				'rate_limited',
				`More than ${perMinute} requests a minute; slow down and try again`,
				{
					detail: 'too_many_requests',
					headers: { 'Retry-After': String(Math.max(1, Math.ceil(refusal.msBeforeNext / 1000))) },
				},
			);
		}
		await next();
	};
}
