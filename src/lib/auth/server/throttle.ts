import { createHash } from 'node:crypto';
import { eq, inArray, like, sql } from 'drizzle-orm';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../../core/server/deps';
import { loginAttempts } from './tables';

type ThrottleDeps = Pick<AppDeps, 'db' | 'clock'>;

/** Failure counters (brute force) and request counters (abuse) share the login_attempts table. */
export type Limit = { max: number; windowSeconds: number; blockSeconds: number };

/** 10 consecutive failures for one account from one address: a 15-minute pause (ASVS 6.3.1). */
export const ACCOUNT_FROM_ADDRESS: Limit = { max: 10, windowSeconds: 24 * 3600, blockSeconds: 15 * 60 };
/** However many accounts an address tries, at most 100 failures a day. */
export const PER_ADDRESS_DAILY: Limit = { max: 100, windowSeconds: 24 * 3600, blockSeconds: 24 * 3600 };
/** Signups, reset requests and email lookups per address per hour. */
export const REQUESTS_PER_HOUR: Limit = { max: 30, windowSeconds: 3600, blockSeconds: 3600 };

function digest(value: string): string {
	return createHash('sha256').update(value.trim().toLowerCase()).digest('hex').slice(0, 32);
}

/** Emails are hashed in keys so the table holds no readable address. */
export function accountAddressKey(email: string, ip: string): string {
	return `login:acct:${digest(email)}:ip:${ip}`;
}
export function addressKey(purpose: string, ip: string): string {
	return `${purpose}:ip:${ip}`;
}
export function accountKeyPrefix(email: string): string {
	return `login:acct:${digest(email)}:`;
}

/**
 * Counts one attempt against a key, in one statement, before the work it guards is done: parallel
 * attempts each get their own number, so no more than `max` get through however fast they come.
 * Reaching `max` starts the pause at once (a success then lifts it); once a pause lapses, one more
 * attempt is let through and starts the next pause unless it succeeds. Answers how many seconds
 * are left when the attempt is refused.
 */
async function takeAttempt(deps: ThrottleDeps, key: string, limit: Limit): Promise<number | null> {
	const now = deps.clock();
	const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;
	const pauseEnd = new Date(now.getTime() + limit.blockSeconds * 1000);
	const windowStart = new Date(now.getTime() - limit.windowSeconds * 1000);
	const paused = sql`${loginAttempts.blockedUntil} > ${at(now)}`;
	const expired = sql`${loginAttempts.windowStartedAt} <= ${at(windowStart)}`;
	const lapsed = sql`${loginAttempts.blockedUntil} is not null`;
	const [row] = await deps.db
		.insert(loginAttempts)
		.values({ key, failures: 1, windowStartedAt: now, blockedUntil: null })
		.onConflictDoUpdate({
			target: loginAttempts.key,
			set: {
				failures: sql`case when ${paused} then ${loginAttempts.failures} + 1
					when ${expired} then 1
					when ${lapsed} then ${limit.max}
					else ${loginAttempts.failures} + 1 end`,
				windowStartedAt: sql`case when not coalesce(${paused}, false) and ${expired} then ${at(now)}
					else ${loginAttempts.windowStartedAt} end`,
				blockedUntil: sql`case when ${paused} then ${loginAttempts.blockedUntil}
					when ${expired} then null
					when ${lapsed} or ${loginAttempts.failures} + 1 >= ${limit.max} then ${at(pauseEnd)}
					else null end`,
			},
		})
		.returning({ failures: loginAttempts.failures, blockedUntil: loginAttempts.blockedUntil });
	if (row.failures <= limit.max) return null;
	const left = (row.blockedUntil?.getTime() ?? pauseEnd.getTime()) - now.getTime();
	return Math.max(1, Math.ceil(left / 1000));
}

function tooMany(seconds: number): AppError {
	return new AppError('rate_limited', 'Too many attempts. Try again later or reset your password.', {
		detail: 'too_many_attempts',
		headers: { 'Retry-After': String(seconds) },
	});
}

/**
 * Takes one attempt from every budget, refusing with 429 and Retry-After when any is spent. Call it
 * before the password check; on success, `releaseAttempt`/`clearKeys` give back what a failure
 * would have used.
 */
export async function takeAttempts(
	deps: ThrottleDeps,
	budgets: [key: string, limit: Limit][],
): Promise<void> {
	let wait = 0;
	for (const [key, limit] of budgets) wait = Math.max(wait, (await takeAttempt(deps, key, limit)) ?? 0);
	if (wait > 0) throw tooMany(wait);
}

/** Gives back one attempt a success did not use up, lifting a pause that attempt had started. */
export async function releaseAttempt(deps: ThrottleDeps, key: string, limit: Limit): Promise<void> {
	await deps.db
		.update(loginAttempts)
		.set({
			failures: sql`greatest(${loginAttempts.failures} - 1, 0)`,
			blockedUntil: sql`case when ${loginAttempts.failures} - 1 < ${limit.max} then null else ${loginAttempts.blockedUntil} end`,
		})
		.where(eq(loginAttempts.key, key));
}

export async function clearKeys(deps: Pick<AppDeps, 'db'>, keys: string[]): Promise<void> {
	if (keys.length) await deps.db.delete(loginAttempts).where(inArray(loginAttempts.key, keys));
}

/** After a reset or deletion: the account's counters from every address go. */
export async function clearAccountKeys(deps: Pick<AppDeps, 'db'>, email: string): Promise<void> {
	await deps.db.delete(loginAttempts).where(like(loginAttempts.key, `${accountKeyPrefix(email)}%`));
}

/** For request limits (signup, reset mail, look-ups): refuse beyond the limit. */
export async function limitRequests(deps: ThrottleDeps, key: string, limit: Limit): Promise<void> {
	await takeAttempts(deps, [[key, limit]]);
}
