import { jwtVerify, SignJWT } from 'jose';
import type { Viewer } from '../contract';

const ISSUER = 'mapstride';
const AUDIENCE = 'mapstride-api';
/** Short-lived: islands refresh through the HttpOnly cookie; a leaked token dies quickly. */
export const ACCESS_TOKEN_SECONDS = 10 * 60;

function keyFrom(secret: string): Uint8Array {
	return new TextEncoder().encode(secret);
}

/** What a valid access token proves: who the caller is, and which sign-in (session) it belongs to. */
export type AccessClaims = { viewer: Viewer; sessionId: string };

/**
 * `sid` ties the token to its sign-in, so ending that sign-in (logout, "Log out" on another
 * device, a password reset, deleting the account) ends the token too instead of letting it run out.
 */
export async function signAccessToken(
	viewer: Viewer,
	sessionId: string,
	secret: string,
	now: Date,
): Promise<string> {
	const issuedAt = Math.floor(now.getTime() / 1000);
	return new SignJWT({
		username: viewer.username,
		name: viewer.displayName,
		mvp: viewer.isPremium,
		sid: sessionId,
	})
		.setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
		.setSubject(String(viewer.id))
		.setIssuer(ISSUER)
		.setAudience(AUDIENCE)
		.setIssuedAt(issuedAt)
		.setExpirationTime(issuedAt + ACCESS_TOKEN_SECONDS)
		.sign(keyFrom(secret));
}

/**
 * Verifies with an explicit algorithm allow-list, so `alg: none` or a swapped algorithm is refused.
 * Whether the token's session is still live is the caller's question (it needs the database).
 */
export async function verifyAccessToken(
	token: string,
	secret: string,
	now: Date,
): Promise<AccessClaims | null> {
	try {
		const { payload } = await jwtVerify(token, keyFrom(secret), {
			algorithms: ['HS256'],
			issuer: ISSUER,
			audience: AUDIENCE,
			currentDate: now,
		});
		const id = Number(payload.sub);
		if (!Number.isInteger(id) || typeof payload.username !== 'string') return null;
		if (typeof payload.sid !== 'string' || payload.sid.length === 0) return null;
		return {
			viewer: {
				id,
				username: payload.username,
				displayName: typeof payload.name === 'string' ? payload.name : payload.username,
				isPremium: payload.mvp === true,
			},
			sessionId: payload.sid,
		};
	} catch {
		return null;
	}
}
