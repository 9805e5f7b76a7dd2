import { createHash } from 'node:crypto';
import { and, eq, gt, inArray, like, sql } from 'drizzle-orm';
import type { AppDeps } from '../../api/context';
import { AppError } from '../../core/errors';
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

/** Throws 429 with Retry-After when any key is blocked. */
export async function assertNotBlocked(deps: ThrottleDeps, keys: string[]): Promise<void> {
	const now = deps.clock();
	const rows = await deps.db
		.select({ blockedUntil: loginAttempts.blockedUntil })
		.from(loginAttempts)
		.where(and(inArray(loginAttempts.key, keys), gt(loginAttempts.blockedUntil, now)));
	const until = Math.max(0, ...rows.map((row) => row.blockedUntil?.getTime() ?? 0));
	if (until > now.getTime()) {
		const seconds = Math.max(1, Math.ceil((until - now.getTime()) / 1000));
		throw new AppError('rate_limited', 'Too many attempts. Try again later or reset your password.', {
			detail: 'too_many_attempts',
			headers: { 'Retry-After': String(seconds) },
		});
	}
}

/** Counts one event against a key; blocks the key once it reaches the limit within its window. */
export async function countEvent(deps: ThrottleDeps, key: string, limit: Limit): Promise<number> {
	const now = deps.clock();
	const windowStart = new Date(now.getTime() - limit.windowSeconds * 1000);
	const expired = sql`${loginAttempts.windowStartedAt} <= ${windowStart.toISOString()}::timestamptz`;
	const [row] = await deps.db
		.insert(loginAttempts)
		.values({ key, failures: 1, windowStartedAt: now, blockedUntil: null })
		.onConflictDoUpdate({
			target: loginAttempts.key,
			set: {
				failures: sql`case when ${expired} then 1 else ${loginAttempts.failures} + 1 end`,
				windowStartedAt: sql`case when ${expired} then ${now.toISOString()}::timestamptz else ${loginAttempts.windowStartedAt} end`,
			},
		})
		.returning({ failures: loginAttempts.failures });
	if (row.failures >= limit.max) {
		await deps.db
			.update(loginAttempts)
			.set({ blockedUntil: new Date(now.getTime() + limit.blockSeconds * 1000) })
			.where(eq(loginAttempts.key, key));
	}
	return row.failures;
}

export async function clearKeys(deps: Pick<AppDeps, 'db'>, keys: string[]): Promise<void> {
	if (keys.length) await deps.db.delete(loginAttempts).where(inArray(loginAttempts.key, keys));
}

/** After a reset or deletion: the account's counters from every address go. */
export async function clearAccountKeys(deps: Pick<AppDeps, 'db'>, email: string): Promise<void> {
	await deps.db.delete(loginAttempts).where(like(loginAttempts.key, `${accountKeyPrefix(email)}%`));
}

/** For request limits (signup, reset mail): count, then refuse beyond the limit. */
export async function limitRequests(deps: ThrottleDeps, key: string, limit: Limit): Promise<void> {
	await assertNotBlocked(deps, [key]);
	await countEvent(deps, key, limit);
}
