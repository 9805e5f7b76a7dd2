/**
 * Every expected failure is an AppError; lib/api/app.ts maps its code to an HTTP status and
 * to the body shape of the API family that raised it.
 */
export const APP_ERROR_STATUS = {
	bad_request: 400,
	validation_failed: 400,
	unauthenticated: 401,
	forbidden: 403,
	not_found: 404,
	conflict: 409,
	payload_too_large: 413,
	unsupported_media_type: 415,
	unprocessable: 422,
	precondition_required: 428,
	rate_limited: 429,
	unavailable: 503,
	insufficient_storage: 507,
} as const;

export type AppErrorCode = keyof typeof APP_ERROR_STATUS;

export type ValidationFailure = { field: string; message: string; code?: string };

export class AppError extends Error {
	readonly code: AppErrorCode;
	/** A finer, client-facing code such as `blank_email` or `email/used`. */
	readonly detail?: string;
	readonly failures?: ValidationFailure[];
	readonly headers?: Record<string, string>;

	constructor(
		code: AppErrorCode,
		message: string,
		options: { detail?: string; failures?: ValidationFailure[]; headers?: Record<string, string> } = {},
	) {
		super(message);
		this.name = 'AppError';
		this.code = code;
		this.detail = options.detail;
		this.failures = options.failures;
		this.headers = options.headers;
	}

	get status(): number {
		return APP_ERROR_STATUS[this.code];
	}
}

/**
 * A save that does not say which version it edited (428, RFC 6585): without it the last write
 * would win and silently undo a save made elsewhere meanwhile.
 */
export function versionRequired(noun: string): AppError {
	return new AppError(
		'precondition_required',
		`Say which version of the ${noun} you edited, as If-Match: "3" or "version": 3 in the body, so a save made elsewhere meanwhile is not lost.`,
		{ failures: [{ field: 'version', message: `The version of the ${noun} you edited is required.` }] },
	);
}
