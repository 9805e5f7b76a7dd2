import type { Bootup } from './contract';

let pending: Promise<Bootup | null> | null = null;

/**
 * The page's one request for its bootup configuration. The profile menu (a plain script on every
 * page) and the site store (the islands' rollouts) both need it, and each used to ask on its own.
 * Null when it cannot be had; the session cookie, or `token` for a page that holds the session,
 * says who is asking.
 */
export function requestBootup(fetchImpl: typeof fetch = fetch, token?: string): Promise<Bootup | null> {
	pending ??= fetchImpl('/api/site/bootup', {
		credentials: 'same-origin',
		headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
	})
		.then((response) => (response.ok ? (response.json() as Promise<Bootup>) : null))
		.catch(() => null);
	return pending;
}

/** Forgets the answer, so the next request asks again (a change of sign-in, tests). */
export function forgetBootupRequest(): void {
	pending = null;
}
