/** Whether a failed write broke a unique index (PostgreSQL's 23505, however the driver wraps it). */
export function isUniqueViolation(error: unknown): boolean {
	const outer = error as { code?: string; cause?: { code?: string } };
	return outer.code === '23505' || outer.cause?.code === '23505';
}

/**
 * Whether a write or a lookup failed on text PostgreSQL cannot hold: a NUL character (22021) or
 * one the encoding has no place for (22P05). The input was bad, so it deserves a 400, not a 500.
 */
export function isUnstorableText(error: unknown): boolean {
	for (let current = error, depth = 0; current && depth < 5; depth++) {
		const code = (current as { code?: unknown }).code;
		if (code === '22021' || code === '22P05') return true;
		current = (current as { cause?: unknown }).cause;
	}
	return false;
}

/** SQLSTATEs that mean the database went away, not that the statement was wrong. */
const UNAVAILABLE_STATES = /^(08|57P0[123]$|53300$)/;
/** What node-postgres and the socket say when the connection is gone or cannot be made. */
const UNAVAILABLE_CODES = new Set([
	'ECONNREFUSED',
	'ECONNRESET',
	'EPIPE',
	'ETIMEDOUT',
	'ENOTFOUND',
	'EHOSTUNREACH',
]);
const UNAVAILABLE_MESSAGES =
	/Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Cannot use a pool after calling end|is not currently accepting connections/;

/**
 * Whether a failure means the database cannot be reached (restart, failover, a terminated
 * backend): the request may be retried, so it deserves a 503, not a 500. Drizzle and
 * rate-limiter-flexible wrap the driver's error, so the whole cause chain is read.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
	for (let current = error, depth = 0; current && depth < 5; depth++) {
		const candidate = current as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
		if (typeof candidate.code === 'string') {
			if (UNAVAILABLE_STATES.test(candidate.code) || UNAVAILABLE_CODES.has(candidate.code)) return true;
		}
		if (typeof candidate.message === 'string' && UNAVAILABLE_MESSAGES.test(candidate.message)) return true;
		// A refused connection to every address of a host arrives as an AggregateError.
		if (Array.isArray(candidate.errors) && candidate.errors.some(isDatabaseUnavailable)) return true;
		current = candidate.cause;
	}
	return false;
}
