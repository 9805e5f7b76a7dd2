import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * The only fields a log line may carry. Anything else a caller passes is dropped, so a new field
 * holding an email, a password hash or a coordinate never reaches the logs by accident: logging
 * something new means adding it here, on purpose.
 */
const LOGGED_FIELDS = new Set([
	'requestId',
	'method',
	'path',
	'status',
	'ms',
	'err',
	'userId',
	'outboxId',
	'reason',
]);

export type LoggedError = {
	type: string;
	code?: string;
	message: string;
	stack?: string;
	cause?: LoggedError;
};

/**
 * What an error may say in a log: its class, its code (an SQLSTATE or a Node code) and a message
 * scrubbed of anything a member typed. Never the error's other properties — database errors keep
 * the query parameters (`params`), the server's `detail` and the failing row there.
 */
export function describeError(error: unknown, depth = 0): LoggedError {
	if (!(error instanceof Error)) return { type: typeof error, message: '(not an Error)' };
	// Some libraries leave `name` as plain "Error"; their class says more.
	const type = error.name === 'Error' && error.constructor?.name ? error.constructor.name : error.name;
	const described: LoggedError = { type, message: scrubMessage(error.message) };
	const code = (error as { code?: unknown }).code;
	if ((typeof code === 'string' || typeof code === 'number') && /^[A-Za-z0-9_]{1,40}$/.test(String(code)))
		described.code = String(code);
	const frames = error.stack
		?.split('\n')
		.filter((line) => line.trimStart().startsWith('at '))
		.slice(0, 12)
		.join('\n');
	if (frames) described.stack = frames;
	if (error.cause !== undefined && depth < 3) described.cause = describeError(error.cause, depth + 1);
	return described;
}

/**
 * The first line only (Drizzle puts the parameters on the second), cut before any `params:`, with
 * quoted text, emails and numbers — values, not wording — replaced. In Drizzle's "Failed query"
 * the values are placeholders, so its quoted table and column names stay readable.
 */
export function scrubMessage(message: string): string {
	const firstLine = message.split('\n')[0].replace(/\bparams:.*$/i, '');
	const isQuery = firstLine.startsWith('Failed query:');
	return firstLine
		.replace(/'[^']*'|`[^`]*`/g, "'…'")
		.replace(/"([^"]*)"/g, (quoted, inner: string) =>
			isQuery && /^[a-z_][a-z0-9_]*$/.test(inner) ? quoted : '"…"',
		)
		.replace(/\S+@\S+/g, '…@…')
		.replace(/\$argon2\S*/g, '…')
		.replace(/(?<![$\w])[-+]?\d+(?:[.,]\d+)*/g, '#')
		.slice(0, 300)
		.trim();
}

function allowListed(object: Record<string, unknown>): Record<string, unknown> {
	const kept: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(object)) {
		if (!LOGGED_FIELDS.has(key)) continue;
		// Errors are described by the `err` serializer, which runs after this.
		if (key === 'err') kept.err = value;
		else if (typeof value === 'number' || typeof value === 'boolean') kept[key] = value;
		else if (typeof value === 'string') kept[key] = value.slice(0, 200);
	}
	return kept;
}

/**
 * Buffered, asynchronous writes keep logging off the request path; `flushLogger` runs at shutdown
 * so the last lines are not lost. Tests pass their own destination to read what was written.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
	return pino(
		{
			level,
			base: undefined,
			formatters: { log: allowListed },
			serializers: { err: (error: unknown) => describeError(error) },
			hooks: {
				// `logger.error(error)` would make the error's raw message the line's message, and extra
				// arguments are interpolated into it: both are replaced by fixed wording.
				logMethod(args, method) {
					const [first, second] = args as unknown[];
					if (first instanceof Error)
						return method.call(this, { err: first }, typeof second === 'string' ? second : 'error');
					if (typeof first === 'string') return method.call(this, first);
					return method.call(this, first as object, typeof second === 'string' ? second : undefined);
				},
			},
		},
		destination ?? pino.destination({ dest: 1, sync: false, minLength: 4096 }),
	);
}

export function flushLogger(logger: Logger): void {
	logger.flush();
}
