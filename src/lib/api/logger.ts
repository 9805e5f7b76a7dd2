import pino, { type Logger } from 'pino';

/** Paths whose values must never reach a log line: credentials, tokens and raw locations. */
const REDACTED = [
	'req.headers.authorization',
	'req.headers.cookie',
	'res.headers["set-cookie"]',
	'*.password',
	'*.token',
	'*.refreshToken',
	'*.accessToken',
	'*.sessionSecret',
	'*.lat',
	'*.lng',
];

/**
 * Buffered, asynchronous writes keep logging off the request path; `flushLogger` runs at shutdown
 * so the last lines are not lost.
 */
export function createLogger(level: string): Logger {
	const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
	return pino({ level, redact: { paths: REDACTED, censor: '[redacted]' }, base: undefined }, destination);
}

export function flushLogger(logger: Logger): void {
	logger.flush();
}
