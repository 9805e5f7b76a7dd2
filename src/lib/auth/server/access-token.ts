import { jwtVerify, SignJWT } from 'jose';
import type { Viewer } from '../contract';

const ISSUER = 'mapstride';
const AUDIENCE = 'mapstride-api';
/** Short-lived: islands refresh through the HttpOnly cookie; a leaked token dies quickly. */
export const ACCESS_TOKEN_SECONDS = 10 * 60;

function keyFrom(secret: string): Uint8Array {
	return new TextEncoder().encode(secret);
}

export async function signAccessToken(viewer: Viewer, secret: string, now: Date): Promise<string> {
	const issuedAt = Math.floor(now.getTime() / 1000);
	return new SignJWT({ username: viewer.username, name: viewer.displayName, mvp: viewer.isPremium })
		.setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
		.setSubject(String(viewer.id))
		.setIssuer(ISSUER)
		.setAudience(AUDIENCE)
		.setIssuedAt(issuedAt)
		.setExpirationTime(issuedAt + ACCESS_TOKEN_SECONDS)
		.sign(keyFrom(secret));
}

/** Verifies with an explicit algorithm allow-list, so `alg: none` or a swapped algorithm is refused. */
export async function verifyAccessToken(token: string, secret: string, now: Date): Promise<Viewer | null> {
	try {
		const { payload } = await jwtVerify(token, keyFrom(secret), {
			algorithms: ['HS256'],
			issuer: ISSUER,
			audience: AUDIENCE,
			currentDate: now,
		});
		const id = Number(payload.sub);
		if (!Number.isInteger(id) || typeof payload.username !== 'string') return null;
		return {
			id,
			username: payload.username,
			displayName: typeof payload.name === 'string' ? payload.name : payload.username,
			isPremium: payload.mvp === true,
		};
	} catch {
		return null;
	}
}
