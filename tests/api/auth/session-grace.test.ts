import { afterAll, beforeAll, expect, test } from 'vitest';
import {
	createSession,
	findViewerBySessionCookie,
	ROTATED_COOKIE_GRACE_SECONDS,
	rotateSession,
	sessionCookieName,
} from '../../../src/lib/auth/server/session';
import type { AppDeps } from '../../../src/lib/core/server/deps';
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

test('a refresh whose answer was lost, or a second tab refreshing at once, keeps the member signed in', async () => {
	const { viewer } = await addSignedInMember(deps, 'lost-answer');
	const cookie = (token: string) => `${sessionCookieName(deps.config)}=${token}`;
	const { token } = await createSession(deps, viewer.id, 'test');
	const first = await rotateSession(deps, token);
	clock.advance(ROTATED_COOKIE_GRACE_SECONDS - 2);
	// The browser never stored the first successor and refreshes again with the token it has.
	const second = await rotateSession(deps, token);
	expect(second.ok).toBe(true);
	if (!first.ok || !second.ok) return;
	expect(second.token).not.toBe(first.token);
	expect(second.sessionId).toBe(first.sessionId);
	// Both successors work, whichever one the browser kept.
	for (const next of [first.token, second.token]) {
		expect((await findViewerBySessionCookie(deps, cookie(next)))?.id).toBe(viewer.id);
	}
	// The window counts from the first rotation, so presenting the token again does not stretch it.
	clock.advance(3);
	expect(await rotateSession(deps, token)).toEqual({ ok: false, reason: 'reused' });
	expect(await findViewerBySessionCookie(deps, cookie(second.token))).toBeNull();
});
