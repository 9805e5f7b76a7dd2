import { atom } from 'nanostores';
import type { SelfUser } from '../account/contract';

/**
 * The signed-in member as islands see them. The access token lives only in memory; the
 * HttpOnly session cookie turns into a new one through /api/auth/refresh-token.
 */
export type Session = { accessToken: string; expiresAt: number; user: SelfUser };

export const $session = atom<Session | null>(null);

/** True while a token refresh runs; the shell shows the "Refreshing auth token" modal from it. */
export const $refreshingToken = atom(false);

export type TokenAnswer = {
	access_token: string;
	expires_in: number;
	user: SelfUser;
	/** Login only: the member has consents to answer (a newer matrix) before going on. */
	consents_pending?: boolean;
};

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

/** Ad-free, with days_remaining -1 (lifetime) when any subscription is active. */
export type PremiumStatus = { is_ad_free: boolean; days_remaining: number };
export const $premiumStatus = atom<PremiumStatus>({ is_ad_free: false, days_remaining: 0 });
/** A reload failure the member should see (status 500 or above); lower ones are swallowed. */
export const $userError = atom<string | null>(null);

export function premiumStatusFrom(subscriptions: { subscription_status?: string }[]): PremiumStatus {
	return subscriptions.some((subscription) => subscription.subscription_status === 'active')
		? { is_ad_free: true, days_remaining: -1 }
		: { is_ad_free: false, days_remaining: 0 };
}
