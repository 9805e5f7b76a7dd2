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

export function createLogger(level: string): Logger {
	return pino({ level, redact: { paths: REDACTED, censor: '[redacted]' }, base: undefined });
}
