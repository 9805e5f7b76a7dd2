import { afterAll, beforeAll, expect, test } from 'vitest';
import type { AppDeps } from '../../../src/lib/api/context';
import {
	createSession,
	findViewerBySessionCookie,
	ROTATED_COOKIE_GRACE_SECONDS,
	rotateSession,
	sessionCookieName,
} from '../../../src/lib/auth/server/session';
import { addSignedInMember, createTestClock, createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';

let database: TestDatabase;
let deps: AppDeps;
let clock: ReturnType<typeof createTestClock>;

beforeAll(async () => {
	database = await openTestDb();
	clock = createTestClock();
	deps = createTestDeps(database.db, { clock });
});
afterAll(() => database.close());

test('a link followed while a refresh is in flight still knows the member; the replaced cookie soon does not', async () => {
	const { viewer } = await addSignedInMember(deps, 'grace');
	const cookie = (token: string) => `${sessionCookieName(deps.config)}=${token}`;
	const { token } = await createSession(deps, viewer.id, 'test');
	const rotated = await rotateSession(deps, token);
	expect(rotated.ok).toBe(true);
	expect((await findViewerBySessionCookie(deps, cookie(token)))?.id).toBe(viewer.id);
	clock.advance(ROTATED_COOKIE_GRACE_SECONDS + 1);
	expect(await findViewerBySessionCookie(deps, cookie(token))).toBeNull();
	if (rotated.ok) expect((await findViewerBySessionCookie(deps, cookie(rotated.token)))?.id).toBe(viewer.id);
	// Refreshing with the replaced token is still reuse, and ends the whole sign-in.
	expect(await rotateSession(deps, token)).toEqual({ ok: false, reason: 'reused' });
	if (rotated.ok) expect(await findViewerBySessionCookie(deps, cookie(rotated.token))).toBeNull();
});
