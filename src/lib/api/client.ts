import { FetchError, ofetch } from 'ofetch';
import type { SelfUser } from '../account/contract';
import { readSessionHint } from '../auth/hint';
import {
	$premiumStatus,
	$refreshingToken,
	$session,
	$userError,
	applyToken,
	clearSession,
	premiumStatusFrom,
	type TokenAnswer,
} from '../auth/store';
import { loginPathFor } from '../site/guards';
import { hideNotice, showNotice } from '../site/store';

/**
 * The islands' one way to the API: sends the bearer token (fetching one first when the member is
 * signed in but the page has none yet), retries once on a gateway error
 * (502, 503 or 504), and on a 401 refreshes the token once — the shell's "Refreshing auth token" modal
 * shows meanwhile — then retries once. A failed refresh sends the member to log in again.
 */

let refreshing: Promise<boolean> | null = null;

/** One refresh at a time per page: concurrent 401s wait on the same one (a reused token would end the session). */
export function refreshToken(options: { quiet?: boolean } = {}): Promise<boolean> {
	refreshing ??= (async () => {
		if (!options.quiet) {
			$refreshingToken.set(true);
			showNotice('refreshingToken');
		}
		try {
			const answer = await ofetch<TokenAnswer>('/api/auth/refresh-token', {
				credentials: 'same-origin',
				retry: 0,
			});
			applyToken(answer);
			return true;
		} catch {
			clearSession();
			return false;
		} finally {
			$refreshingToken.set(false);
			hideNotice('refreshingToken');
			refreshing = null;
		}
	})();
	return refreshing;
}

/** Whether the page holds a token that will still be good for the call about to be made. */
function hasLiveToken(): boolean {
	const current = $session.get();
	return current !== null && current.expiresAt - Date.now() > 30_000;
}

/** The session for an island that needs one; null for a visitor. */
export async function ensureSession() {
	const current = $session.get();
	if (current && hasLiveToken()) return current;
	// The readable hint cookie lives exactly as long as the session cookie: without it the visitor is
	// signed out, which is an answer, not an error to ask the server for (and log as a 401).
	if (!readSessionHint(document.cookie)) {
		clearSession();
		return null;
	}
	await refreshToken({ quiet: true });
	return $session.get();
}

export function loginPath(): string {
	return loginPathFor(window.location);
}

export type ApiOptions = {
	method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
	body?: Record<string, unknown> | FormData;
	query?: Record<string, string | number | undefined>;
	/** Auth endpoints answer 401 for a wrong password: that must not trigger a refresh. */
	noRefresh?: boolean;
	signal?: AbortSignal;
	/** Extra request headers, such as an Idempotency-Key. */
	headers?: Record<string, string>;
};

export async function api<T>(path: string, options: ApiOptions = {}): Promise<T> {
	// A signed-in member's first call carries a token: fetched before it (quietly), not after a 401.
	// With a live token the call starts at once, as before.
	if (!options.noRefresh && !hasLiveToken()) await ensureSession();
	const call = () => {
		const token = $session.get()?.accessToken;
		return ofetch<T>(path, {
			baseURL: '/api',
			method: options.method ?? 'GET',
			body: options.body,
			query: options.query,
			credentials: 'same-origin',
			signal: options.signal,
			headers: { ...options.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
			retry: 1,
			retryDelay: 300,
			retryStatusCodes: [502, 503, 504],
		});
	};
	try {
		return await call();
	} catch (error) {
		if (!(error instanceof FetchError) || error.status !== 401 || options.noRefresh) throw error;
		if (!(await refreshToken())) {
			window.location.assign(loginPath());
			throw error;
		}
		return call();
	}
}

/** The error code an API answer carries (`{ error }`), unknown_error when none. */
export function errorCode(error: unknown): string {
	if (error instanceof FetchError) {
		const data = error.data as { error?: unknown } | undefined;
		if (typeof data?.error === 'string') return data.error;
	}
	return 'unknown_error';
}

export function errorData(error: unknown): {
	error?: string;
	message?: string;
	fields?: { field: string; message: string; code?: string }[];
	_diagnostics?: { validation_failures?: Record<string, string[]>[] };
} {
	return error instanceof FetchError && error.data && typeof error.data === 'object'
		? (error.data as ReturnType<typeof errorData>)
		: {};
}

/**
 * Reloading the member: the profile and the paid subscriptions, fetched in parallel. A failure
 * of 500 or above becomes the member's error; lower ones (no billing yet, 404) are swallowed.
 */
export async function reloadUser(): Promise<void> {
	const [self, subscriptions] = await Promise.allSettled([
		api<SelfUser>('/v7.1/user/self/'),
		api<{ _embedded?: { paid_subscriptions?: { subscription_status?: string }[] } }>(
			'/billing/paid-subscriptions',
		),
	]);
	$userError.set(null);
	for (const result of [self, subscriptions]) {
		if (result.status === 'rejected') {
			const status = result.reason instanceof FetchError ? (result.reason.status ?? 500) : 500;
			if (status >= 500) $userError.set('We could not load your account. Please refresh and try again.');
		}
	}
	const session = $session.get();
	if (self.status === 'fulfilled' && session) $session.set({ ...session, user: self.value });
	$premiumStatus.set(
		premiumStatusFrom(
			subscriptions.status === 'fulfilled' ? (subscriptions.value._embedded?.paid_subscriptions ?? []) : [],
		),
	);
}
