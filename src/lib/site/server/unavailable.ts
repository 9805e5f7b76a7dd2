import type { Logger } from 'pino';
import { isDatabaseUnavailable, isUnstorableText } from '../../db/errors';

/** Seconds a client is asked to wait while the database is away; a pool reconnects within that. */
export const DATABASE_RETRY_AFTER_S = 5;

/**
 * The answer for a page that could not be made because the database is away (restart, failover):
 * 503 with Retry-After, never a 500, and nothing of the error itself. Null for any other error,
 * which stays the bug it is.
 */
export function databaseUnavailablePage(error: unknown): Response | null {
	if (!isDatabaseUnavailable(error)) return null;
	return new Response(
		'<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Back in a moment</title></head><body><h1>Back in a moment</h1><p>We cannot reach our database right now. Try again in a few seconds.</p></body></html>',
		{
			status: 503,
			headers: {
				'content-type': 'text/html; charset=utf-8',
				'retry-after': String(DATABASE_RETRY_AFTER_S),
				'cache-control': 'no-store',
			},
		},
	);
}

/**
 * The answer for a page asked with text no page can hold (a NUL in its address or a form field):
 * 400, as the API answers, never a 500. Null for any other error.
 */
export function unstorableTextPage(error: unknown): Response | null {
	if (!isUnstorableText(error)) return null;
	return new Response(
		'<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Not a valid request</title></head><body><h1>Not a valid request</h1><p>The address or the form holds characters we cannot read. Check it and try again.</p></body></html>',
		{ status: 400, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } },
	);
}

/**
 * The answer for a page that failed for a reason nobody foresaw: logged through the product's logger,
 * which keeps the error's class, code and a scrubbed first line (never a query's parameters, the
 * database's detail or the failing row, which the framework's own log would print), and a 500 page
 * that says nothing of the error.
 */
export function pageErrorPage(error: unknown, logger: Pick<Logger, 'error'>, path: string): Response {
	logger.error({ err: error, path }, 'page error');
	return new Response(
		'<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Something went wrong</title></head><body><h1>Something went wrong on our side</h1><p>We have noted it. Try again in a moment, or go back to <a href="/">the home page</a>.</p></body></html>',
		{ status: 500, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } },
	);
}
