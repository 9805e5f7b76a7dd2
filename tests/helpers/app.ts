import pino from 'pino';
import { type ApiModules, createApi } from '../../src/lib/api/app';
import type { Viewer } from '../../src/lib/auth/contract';
import { signAccessToken } from '../../src/lib/auth/server/access-token';
import { createSession } from '../../src/lib/auth/server/session';
import { users } from '../../src/lib/auth/server/tables';
import { readConfig } from '../../src/lib/core/config';
import type { AppDeps, Db } from '../../src/lib/core/server/deps';
import { currentMatrix, PROCESSING_CONSENTS } from '../../src/lib/privacy/contract';
import { consentRecords } from '../../src/lib/privacy/server/tables';

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

/** An access token from a real sign-in: tokens are believed only while their session is live. */
export async function signInAs(deps: AppDeps, viewer: Viewer, at = deps.clock()): Promise<string> {
	const { sessionId } = await createSession(deps, viewer.id, 'test');
	return signAccessToken(viewer, sessionId, deps.config.sessionSecret, at);
}

/**
 * The member answered at signup that their tracks and heart rate may be used, as the tests of what
 * the product does with them assume; the tests of consent itself sign members up without it.
 */
export async function allowRecordedData(db: Db, userId: number): Promise<void> {
	const { region, version } = currentMatrix('US');
	await db.insert(consentRecords).values(
		PROCESSING_CONSENTS.map((consentKey) => ({
			userId,
			consentKey,
			granted: true,
			region,
			matrixVersion: version,
			source: 'signup',
			recordedAt: new Date(),
		})),
	);
}

/** A member row (no password anyone knows) who allows their recordings' use, and an access token for them. */
export async function addSignedInMember(deps: AppDeps, username: string) {
	const [row] = await deps.db
		.insert(users)
		.values({ username, email: `${username}@example.test`, passwordHash: 'x', displayName: username })
		.returning({ id: users.id });
	await allowRecordedData(deps.db, row.id);
	const viewer: Viewer = { id: row.id, username, displayName: username, isPremium: false };
	return { viewer, token: await signInAs(deps, viewer) };
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
