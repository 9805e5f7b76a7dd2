import { atom } from 'nanostores';
import type { SelfUser } from '../account/server/presenter';

/**
 * The signed-in member as islands see them. The access token lives only in memory; the
 * HttpOnly session cookie turns into a new one through /api/auth/refresh-token.
 */
export type Session = { accessToken: string; expiresAt: number; user: SelfUser };

export const $session = atom<Session | null>(null);

/** True while a token refresh runs; the shell shows the "Refreshing auth token" modal from it. */
export const $refreshingToken = atom(false);

export type TokenAnswer = { access_token: string; expires_in: number; user: SelfUser };

export function applyToken(answer: TokenAnswer, now = Date.now()): Session {
	const session = {
		accessToken: answer.access_token,
		expiresAt: now + answer.expires_in * 1000,
		user: answer.user,
	};
	$session.set(session);
	return session;
}

export function clearSession(): void {
	$session.set(null);
}
