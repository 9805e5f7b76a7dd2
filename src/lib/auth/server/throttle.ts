import { createHash, randomInt } from 'node:crypto';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { createLimiter, spend } from '../../api/rate-limit';
import { AppError } from '../../core/errors';
import type { AppDeps, Db } from '../../core/server/deps';

type ThrottleDeps = Pick<AppDeps, 'db'>;

const HOUR = 3600;
const DAY = 24 * HOUR;

/** 10 consecutive failures for one account from one address pause it there for 15 minutes (ASVS 6.3.1). */
export const FAILURES_PER_ACCOUNT_AND_ADDRESS = 10;
export const PAUSE_SECONDS = 15 * 60;
/** However many accounts an address tries, at most 100 failures a day; then it waits a day. */
export const FAILURES_PER_ADDRESS_A_DAY = 100;
/** Signups, reset requests and email look-ups per caller an hour. */
export const REQUESTS_PER_HOUR = 30;

/**
 * rate-limiter-flexible's login recipe on the house's limiters: consecutive failures per account
 * and address, and failures per address per day. The recipe blocks an account's key once its
 * points are spent and forgets the count when the block lapses; here the count stays for its day,
 * and past it one attempt gets through per pause (`pauses`: one point per 15 minutes), so a
 * guesser gets one more try each pause, not ten.
 */
type LoginBudgets = {
	failures: RateLimiterAbstract;
	pauses: RateLimiterAbstract;
	addressFailures: RateLimiterAbstract;
	generations: RateLimiterAbstract;
	requests: Map<string, RateLimiterAbstract>;
};

// One set per database, so the API and the pages count together (in memory, counts must outlive
// the request that made them).
const budgetsByDb = new WeakMap<Db, LoginBudgets>();
function budgetsOf(db: Db): LoginBudgets {
	let budgets = budgetsByDb.get(db);
	if (!budgets) {
		budgets = {
			failures: createLimiter(db, {
				name: 'login-failures',
				points: FAILURES_PER_ACCOUNT_AND_ADDRESS,
				duration: DAY,
			}),
			pauses: createLimiter(db, { name: 'login-pause', points: 1, duration: PAUSE_SECONDS }),
			addressFailures: createLimiter(db, {
				name: 'login-address-failures',
				points: FAILURES_PER_ADDRESS_A_DAY,
				duration: DAY,
				blockDuration: DAY,
			}),
			// Outlives every count it names: see clearAccountCounters.
			generations: createLimiter(db, { name: 'login-generation', points: 1, duration: 2 * DAY }),
			requests: new Map(),
		};
		budgetsByDb.set(db, budgets);
	}
	return budgets;
}

function digest(value: string): string {
	return createHash('sha256').update(value.trim().toLowerCase()).digest('hex').slice(0, 32);
}

/** The account behind an email; hashed, so no store of counts holds a readable address. */
export function emailAccount(email: string): string {
	return `email:${digest(email)}`;
}
/** A member's second factor, whose codes are counted like passwords. */
export function secondFactorAccount(userId: number): string {
	return `second-factor:${userId}`;
}

function tooMany(seconds: number): AppError {
	return new AppError('rate_limited', 'Too many attempts. Try again later or reset your password.', {
		detail: 'too_many_attempts',
		headers: { 'Retry-After': String(seconds) },
	});
}

async function generationOf(budgets: LoginBudgets, account: string): Promise<number> {
	const kept = await budgets.generations.get(account);
	// The memory store answers a lapsed entry until its timer removes it.
	return kept && kept.msBeforeNext > 0 ? kept.consumedPoints : 0;
}

/**
 * What a counted attempt is against: the account tried from `ip`, and unless `perAddress` is
 * false, the address's daily allowance.
 */
export type AttemptOf = { ip: string; account?: string; perAddress?: boolean };

/** Call on success: gives back what the attempt took and lifts the account's pause at that address. */
export type CountedAttempt = { succeeded: () => Promise<void> };

/**
 * Counts one attempt before the password or code is checked, refusing with 429 and Retry-After
 * when a budget is spent. Parallel attempts each take their own point, so however fast they come
 * no more than the limit reach the check: the tenth failure's point and the pause's one point
 * are taken by the same attempt, before its check.
 */
export async function countAttempt(deps: ThrottleDeps, of: AttemptOf): Promise<CountedAttempt> {
	const budgets = budgetsOf(deps.db);
	const perAddress = of.perAddress !== false;
	if (perAddress) {
		const { waitSeconds } = await spend(budgets.addressFailures, of.ip);
		if (waitSeconds) throw tooMany(waitSeconds);
	}
	const accountKey = of.account && `${of.account}:${await generationOf(budgets, of.account)}:${of.ip}`;
	if (accountKey) {
		const { spent } = await spend(budgets.failures, accountKey);
		if (!spent || spent.remainingPoints === 0) {
			const pause = await spend(budgets.pauses, accountKey);
			if (pause.waitSeconds) throw tooMany(pause.waitSeconds);
		}
	}
	return {
		succeeded: async () => {
			if (perAddress) await budgets.addressFailures.reward(of.ip);
			if (accountKey) {
				await budgets.failures.delete(accountKey);
				await budgets.pauses.delete(accountKey);
			}
		},
	};
}

/**
 * After a reset or a deletion the account's counts from every address go. Their keys carry the
 * account's generation, a random number under one key per account; drawing a new one puts every
 * old count out of reach at once, where it lapses with its window, without a scan over keys
 * (a LIKE on PostgreSQL, and no such thing in memory). The generation outlives the counts it
 * names, so when it lapses back to none, no count from before is left to be found.
 */
export async function clearAccountCounters(deps: ThrottleDeps, email: string): Promise<void> {
	await budgetsOf(deps.db).generations.set(emailAccount(email), randomInt(1, 2 ** 31 - 1), 2 * DAY);
}

/** Requests (signups, reset mails, look-ups) from one caller for one purpose: refused past `perHour`. */
export async function limitRequests(
	deps: ThrottleDeps,
	purpose: string,
	caller: string,
	perHour = REQUESTS_PER_HOUR,
): Promise<void> {
	const { requests } = budgetsOf(deps.db);
	const name = `requests-${purpose}-${perHour}`;
	let limiter = requests.get(name);
	if (!limiter) {
		limiter = createLimiter(deps.db, { name: `requests-${purpose}`, points: perHour, duration: HOUR });
		requests.set(name, limiter);
	}
	const { waitSeconds } = await spend(limiter, caller);
	if (waitSeconds) throw tooMany(waitSeconds);
}
