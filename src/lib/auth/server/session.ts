import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Config } from '../../core/config';
import type { AppDeps } from '../../core/server/deps';
import type { Viewer } from '../contract';
import { refreshTokens, users } from './tables';

/** A session lives at most this long after login, however often it is refreshed. */
export const SESSION_ABSOLUTE_SECONDS = 30 * 24 * 3600;

type SessionDeps = Pick<AppDeps, 'db' | 'clock' | 'config'>;

export function hashToken(token: string): string {
	return createHash('sha256').update(token).digest('hex');
}

export function newOpaqueToken(): string {
	return randomBytes(32).toString('base64url');
}

/** `__Host-` needs Secure, which plain-http development cannot use. */
export function sessionCookieName(config: Pick<Config, 'publicUrl'>): string {
	return isSecureOrigin(config.publicUrl) ? '__Host-ms_session' : 'ms_session';
}

export function isSecureOrigin(publicUrl: string): boolean {
	return publicUrl.startsWith('https://');
}

export function readCookie(cookieHeader: string | null | undefined, name: string): string | undefined {
	if (!cookieHeader) return undefined;
	for (const part of cookieHeader.split(';')) {
		const index = part.indexOf('=');
		if (index > 0 && part.slice(0, index).trim() === name)
			return decodeURIComponent(part.slice(index + 1).trim());
	}
	return undefined;
}

/** How long a just-rotated session cookie still identifies its member on page requests. */
export const ROTATED_COOKIE_GRACE_SECONDS = 10;

/** A new sign-in: the refresh token for the cookie, and the session id access tokens carry. */
export async function createSession(
	deps: SessionDeps,
	userId: number,
	userAgent = '',
): Promise<{ token: string; sessionId: string }> {
	const token = newOpaqueToken();
	const sessionId = randomUUID();
	const now = deps.clock();
	await deps.db.insert(refreshTokens).values({
		userId,
		familyId: sessionId,
		tokenHash: hashToken(token),
		createdAt: now,
		familyExpiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_SECONDS * 1000),
		userAgent: userAgent.slice(0, 300),
	});
	return { token, sessionId };
}

export type RotationResult =
	| { ok: true; token: string; sessionId: string; viewer: Viewer; familyExpiresAt: Date }
	| { ok: false; reason: 'unknown' | 'expired' | 'revoked' | 'reused' };

/**
 * Trades a refresh token for its successor. A token presented again more than
 * ROTATED_COOKIE_GRACE_SECONDS after it was rotated means it was copied: the whole family is
 * revoked, the thief's copy and the member's alike.
 */
export async function rotateSession(deps: SessionDeps, token: string): Promise<RotationResult> {
	const now = deps.clock();
	return deps.db.transaction(async (tx) => {
		const [row] = await tx
			.select()
			.from(refreshTokens)
			.where(eq(refreshTokens.tokenHash, hashToken(token)))
			.for('update');
		if (!row) return { ok: false, reason: 'unknown' } as const;
		if (row.revokedAt) return { ok: false, reason: 'revoked' } as const;
		// A token replaced moments ago is most likely the member's own: the answer carrying its
		// successor was lost to a navigation, or a second tab refreshed at the same moment. It gets a
		// successor of its own; later than that, it can only be a copy.
		const justReplaced =
			row.rotatedAt !== null &&
			now.getTime() - row.rotatedAt.getTime() <= ROTATED_COOKIE_GRACE_SECONDS * 1000;
		if (row.rotatedAt && !justReplaced) {
			await tx
				.update(refreshTokens)
				.set({ revokedAt: now })
				.where(and(eq(refreshTokens.familyId, row.familyId), isNull(refreshTokens.revokedAt)));
			forgetSession(row.familyId);
			return { ok: false, reason: 'reused' } as const;
		}
		if (row.familyExpiresAt <= now) return { ok: false, reason: 'expired' } as const;
		// Inside the transaction: PGlite has one connection, so a query outside it would wait forever.
		const viewer = await findViewerById({ db: tx as unknown as AppDeps['db'] }, row.userId);
		if (!viewer) return { ok: false, reason: 'unknown' } as const;
		const next = newOpaqueToken();
		if (!justReplaced)
			await tx.update(refreshTokens).set({ rotatedAt: now }).where(eq(refreshTokens.id, row.id));
		await tx.insert(refreshTokens).values({
			userId: row.userId,
			familyId: row.familyId,
			tokenHash: hashToken(next),
			createdAt: now,
			familyExpiresAt: row.familyExpiresAt,
			userAgent: row.userAgent,
		});
		return {
			ok: true,
			token: next,
			sessionId: row.familyId,
			viewer,
			familyExpiresAt: row.familyExpiresAt,
		} as const;
	});
}

export async function revokeSessionFamily(deps: SessionDeps, token: string): Promise<void> {
	const [row] = await deps.db
		.select({ familyId: refreshTokens.familyId })
		.from(refreshTokens)
		.where(eq(refreshTokens.tokenHash, hashToken(token)));
	if (!row) return;
	await deps.db
		.update(refreshTokens)
		.set({ revokedAt: deps.clock() })
		.where(and(eq(refreshTokens.familyId, row.familyId), isNull(refreshTokens.revokedAt)));
	forgetSession(row.familyId);
}

/** The sign-in (refresh-token family) a member's live session token belongs to; null when it is not live. */
export async function findSessionFamily(
	deps: SessionDeps,
	userId: number,
	token: string,
): Promise<string | null> {
	const [row] = await deps.db
		.select({ familyId: refreshTokens.familyId })
		.from(refreshTokens)
		.where(
			and(
				eq(refreshTokens.tokenHash, hashToken(token)),
				eq(refreshTokens.userId, userId),
				isNull(refreshTokens.revokedAt),
			),
		);
	return row?.familyId ?? null;
}

/** Logs a member out everywhere: after a password change, a reset or account deletion. */
export async function revokeAllSessions(deps: SessionDeps, userId: number): Promise<void> {
	await deps.db
		.update(refreshTokens)
		.set({ revokedAt: deps.clock() })
		.where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
	forgetSessionsOf(userId);
}

export async function findViewerById(deps: Pick<AppDeps, 'db'>, userId: number): Promise<Viewer | null> {
	const [user] = await deps.db
		.select({
			id: users.id,
			username: users.username,
			displayName: users.displayName,
			isPremium: users.isPremium,
		})
		.from(users)
		.where(eq(users.id, userId));
	return user ? { ...user, displayName: user.displayName || user.username } : null;
}

/** Who an on-demand page is rendered for: the current (unrotated, unrevoked, unexpired) session token's owner. */
export async function findViewerBySessionCookie(
	deps: SessionDeps,
	cookieHeader: string | null,
): Promise<Viewer | null> {
	const token = readCookie(cookieHeader, sessionCookieName(deps.config));
	if (!token) return null;
	const [row] = await deps.db
		.select({
			userId: refreshTokens.userId,
			familyExpiresAt: refreshTokens.familyExpiresAt,
			rotatedAt: refreshTokens.rotatedAt,
		})
		.from(refreshTokens)
		.where(and(eq(refreshTokens.tokenHash, hashToken(token)), isNull(refreshTokens.revokedAt)));
	const now = deps.clock();
	if (!row || row.familyExpiresAt <= now) return null;
	// A page or link followed while an island's refresh is in flight still carries the token that
	// refresh just replaced; for reading who is here it stays good a few seconds. Refreshing with it
	// is still reuse (rotateSession).
	if (row.rotatedAt && now.getTime() - row.rotatedAt.getTime() > ROTATED_COOKIE_GRACE_SECONDS * 1000)
		return null;
	return findViewerById(deps, row.userId);
}

const viewersOfRequests = new WeakMap<Request, Promise<Viewer | null>>();

/**
 * Who is signed in on this request, looked up once however many steps ask: the guard of a
 * members-only path, then the page itself.
 */
export function findViewerOfRequest(deps: SessionDeps, request: Request): Promise<Viewer | null> {
	let viewer = viewersOfRequests.get(request);
	if (!viewer) {
		viewer = findViewerBySessionCookie(deps, request.headers.get('cookie'));
		viewersOfRequests.set(request, viewer);
	}
	return viewer;
}

export type SessionSummary = {
	id: string;
	createdAt: Date;
	lastUsedAt: Date;
	expiresAt: Date;
	userAgent: string;
};

/** The member's live sign-ins (one per refresh-token family), newest first, for "Where you're logged in". */
export async function listSessions(deps: SessionDeps, userId: number): Promise<SessionSummary[]> {
	const rows = await deps.db
		.select()
		.from(refreshTokens)
		.where(
			and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt), isNull(refreshTokens.rotatedAt)),
		);
	const now = deps.clock();
	const families = new Map<string, SessionSummary>();
	for (const row of rows) {
		if (row.familyExpiresAt <= now) continue;
		families.set(row.familyId, {
			id: row.familyId,
			createdAt: new Date(row.familyExpiresAt.getTime() - SESSION_ABSOLUTE_SECONDS * 1000),
			lastUsedAt: row.createdAt,
			expiresAt: row.familyExpiresAt,
			userAgent: row.userAgent,
		});
	}
	return [...families.values()].sort((a, b) => b.lastUsedAt.getTime() - a.lastUsedAt.getTime());
}

/** Ends one sign-in of the member's; false when no such live session of theirs exists. */
export async function revokeSessionById(
	deps: SessionDeps,
	userId: number,
	familyId: string,
): Promise<boolean> {
	const revoked = await deps.db
		.update(refreshTokens)
		.set({ revokedAt: deps.clock() })
		.where(
			and(
				eq(refreshTokens.userId, userId),
				eq(refreshTokens.familyId, familyId),
				isNull(refreshTokens.revokedAt),
			),
		)
		.returning({ id: refreshTokens.id });
	forgetSession(familyId);
	return revoked.length > 0;
}

/**
 * How long this process trusts its last answer about a session. Ending a session here forgets
 * the answer at once; other processes (several servers on one PostgreSQL) see it within this time.
 */
const LIVENESS_CACHE_MS = 1000;
const LIVENESS_CACHE_ENTRIES = 10_000;
const liveness = new Map<string, { userId: number; live: boolean; until: number }>();

function forgetSession(sessionId: string): void {
	liveness.delete(sessionId);
}

function forgetSessionsOf(userId: number): void {
	for (const [sessionId, entry] of liveness) if (entry.userId === userId) liveness.delete(sessionId);
}

/**
 * Whether the member's sign-in is still live: not logged out, revoked, expired or gone with the
 * account. Consulted on every request that carries an access token (ASVS 7.4.1).
 */
export async function isSessionLive(deps: SessionDeps, userId: number, sessionId: string): Promise<boolean> {
	const now = performance.now();
	const known = liveness.get(sessionId);
	if (known && known.until > now) return known.live && known.userId === userId;
	const [row] = await deps.db
		.select({ id: refreshTokens.id })
		.from(refreshTokens)
		.where(
			and(
				eq(refreshTokens.userId, userId),
				eq(refreshTokens.familyId, sessionId),
				isNull(refreshTokens.revokedAt),
				gt(refreshTokens.familyExpiresAt, deps.clock()),
			),
		)
		.limit(1);
	if (liveness.size >= LIVENESS_CACHE_ENTRIES) {
		for (const [id, entry] of liveness) if (entry.until <= now) liveness.delete(id);
		if (liveness.size >= LIVENESS_CACHE_ENTRIES) liveness.clear();
	}
	liveness.set(sessionId, { userId, live: row !== undefined, until: now + LIVENESS_CACHE_MS });
	return row !== undefined;
}
