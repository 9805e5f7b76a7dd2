import pino from 'pino';
import { type ApiModules, createApi } from '../../src/lib/api/app';
import type { AppDeps } from '../../src/lib/api/context';
import { readConfig } from '../../src/lib/core/config';
import type { Db } from '../../src/lib/db/client';

/** A clock tests can move: `clock.advance(seconds)`. */
export function createTestClock(start = new Date('2026-06-01T12:00:00Z')) {
	let now = start.getTime();
	const clock = () => new Date(now);
	clock.advance = (seconds: number) => {
		now += seconds * 1000;
	};
	return clock;
}

export function createTestDeps(db: Db, overrides: Partial<AppDeps> = {}): AppDeps {
	return {
		db,
		config: readConfig({ NODE_ENV: 'test', PUBLIC_URL: 'http://localhost:4321', DATA_DIR: './data-test' }),
		logger: pino({ level: 'silent' }),
		clock: createTestClock(),
		...overrides,
	};
}

export function createTestApi(deps: AppDeps, modules?: ApiModules) {
	return createApi(deps, modules);
}

/** JSON request helper over app.request(): no sockets, the whole middleware chain. */
export async function callApi(
	app: { request: (input: string, init?: RequestInit) => Response | Promise<Response> },
	method: string,
	path: string,
	options: { body?: unknown; headers?: Record<string, string>; token?: string } = {},
) {
	const headers: Record<string, string> = { ...options.headers };
	if (options.body !== undefined) headers['content-type'] ??= 'application/json';
	if (options.token) headers.authorization = `Bearer ${options.token}`;
	const response = await app.request(path, {
		method,
		headers,
		body:
			options.body === undefined
				? undefined
				: typeof options.body === 'string'
					? options.body
					: JSON.stringify(options.body),
	});
	const text = await response.text();
	let json: unknown = null;
	try {
		json = text ? JSON.parse(text) : null;
	} catch {
		json = null;
	}
	// Tests read arbitrary response shapes; the assertions are the type check.
	// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by assertions, not types
	return { status: response.status, headers: response.headers, json: json as Record<string, any>, text };
}
