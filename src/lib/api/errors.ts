import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { routePath } from 'hono/route';
import { AppError } from '../core/errors';
import { diskFullError, isDiskFull } from '../core/server/member-files';
import { isDatabaseUnavailable } from '../db/errors';
import { DATABASE_RETRY_AFTER_S } from '../site/server/unavailable';
import type { ApiEnv } from './context';

/**
 * The one place that turns a thrown error into an HTTP answer. Each API family keeps the body
 * shape its clients know (DESIGN §4): auth `{ error }`, billing `{ error_details, error_description }`,
 * the OAuth endpoints RFC 6749's `{ error, error_description }`, the main API
 * `{ _diagnostics: { validation_failures } }`. Anything unexpected is a 500 and a bug.
 */
export function respondWithError(error: unknown, c: Context<ApiEnv>): Response {
	const appError = toAppError(error);
	if (!appError) {
		// The logger keeps only allow-listed fields and a scrubbed message: never the query's parameters.
		c.var.deps?.logger.error(
			{ err: error, requestId: c.var.requestId, method: c.req.method, path: routePath(c, -1) },
			'unhandled error',
		);
		return c.json({ error: 'unknown_error', message: 'Something went wrong on our side.' }, 500);
	}
	for (const [name, value] of Object.entries(appError.headers ?? {})) c.header(name, value);
	const status = appError.status as 400;
	const path = c.req.path;
	if (path.startsWith('/api/auth/')) {
		return c.json(
			{ error: appError.detail ?? appError.code, message: appError.message, fields: appError.failures },
			status,
		);
	}
	if (path.startsWith('/api/oauth2/')) {
		c.header('Cache-Control', 'no-store');
		return c.json({ error: appError.detail ?? appError.code, error_description: appError.message }, status);
	}
	if (path.startsWith('/api/billing/') || path.startsWith('/api/checkoutapi/')) {
		return c.json(
			{ error_details: { code: appError.detail ?? appError.code }, error_description: appError.message },
			status,
		);
	}
	return c.json(
		{
			error: appError.detail ?? appError.code,
			message: appError.message,
			_diagnostics: {
				validation_failures: (appError.failures ?? []).map((failure) => ({
					[failure.field]: [failure.message],
				})),
			},
		},
		status,
	);
}

function toAppError(error: unknown): AppError | null {
	if (error instanceof AppError) return error;
	if (isDatabaseUnavailable(error))
		return new AppError('unavailable', 'The database is not answering right now; try again shortly.', {
			detail: 'database_unavailable',
			headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_S) },
		});
	if (isDiskFull(error)) return diskFullError();
	if (error instanceof HTTPException) {
		const message = error.message || 'The request could not be processed';
		if (error.status === 400)
			return new AppError('bad_request', message.includes('JSON') ? 'The body is not valid JSON' : message);
		if (error.status === 413) return new AppError('payload_too_large', 'The request body is too large');
		if (error.status === 415) return new AppError('unsupported_media_type', message);
		if (error.status === 401) return new AppError('unauthenticated', message);
		if (error.status === 403) return new AppError('forbidden', message);
		if (error.status === 404) return new AppError('not_found', message);
	}
	return null;
}
