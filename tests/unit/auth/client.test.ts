// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { api, ensureSession, refreshToken, reloadUser } from '../../../src/lib/api/client';
import { encodeSessionHint, SESSION_HINT_COOKIE } from '../../../src/lib/auth/hint';
import {
	$premiumStatus,
	$refreshingToken,
	$session,
	$userError,
	applyToken,
} from '../../../src/lib/auth/store';
import { $notices } from '../../../src/lib/site/store';

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;

const user = { id: 7, username: 'ada' } as never;
const json = (status: number, body: unknown) =>
	new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let calls: { url: string; auth: string | null }[];

function serve(handler: Handler) {
	vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
		const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
		const headers = new Headers(init.headers);
		calls.push({ url: new URL(url, 'http://localhost').pathname, auth: headers.get('authorization') });
		return handler(url, init);
	});
}

beforeEach(() => {
	calls = [];
	$session.set(null);
	window.history.replaceState(null, '', '/account/settings?tab=1');
});
afterEach(() => vi.unstubAllGlobals());

describe('api client', () => {
	test('sends the bearer token', async () => {
		applyToken({ access_token: 'tok-1', expires_in: 600, user });
		serve(() => json(200, { ok: true }));
		expect(await api('/v7.1/user/self/')).toEqual({ ok: true });
		expect(calls).toEqual([{ url: '/api/v7.1/user/self/', auth: 'Bearer tok-1' }]);
	});

	test('a 401 refreshes exactly once, shows the modal meanwhile, then retries with the new token', async () => {
		applyToken({ access_token: 'old', expires_in: 600, user });
		const modalSeen: boolean[] = [];
		serve((url, init) => {
			const auth = new Headers(init.headers).get('authorization');
			if (url.includes('/refresh-token')) {
				modalSeen.push($refreshingToken.get(), $notices.get().refreshingToken);
				return json(200, { access_token: 'new', expires_in: 600, user });
			}
			return auth === 'Bearer new' ? json(200, { ok: true }) : json(401, { error: 'invalid_token' });
		});
		const [a, b] = await Promise.all([api('/v7.1/user/self/'), api('/v7.1/heart_rate_zones/')]);
		expect(a).toEqual({ ok: true });
		expect(b).toEqual({ ok: true });
		expect(calls.filter((call) => call.url === '/api/auth/refresh-token')).toHaveLength(1);
		expect(modalSeen).toEqual([true, true]);
		expect($refreshingToken.get()).toBe(false);
		expect($notices.get().refreshingToken).toBe(false);
	});

	test('a failed refresh sends the member to log in with next', async () => {
		applyToken({ access_token: 'old', expires_in: 600, user });
		const assign = vi.fn();
		vi.spyOn(window.location, 'assign').mockImplementation(assign);
		serve(() => json(401, { error: 'invalid_session' }));
		await expect(api('/v7.1/user/self/')).rejects.toThrow();
		expect(assign).toHaveBeenCalledWith('/auth/login?next=%2Faccount%2Fsettings%3Ftab%3D1');
		expect($session.get()).toBeNull();
		expect(calls.map((call) => call.url)).toEqual(['/api/v7.1/user/self/', '/api/auth/refresh-token']);
	});

	test('a wrong password on login does not trigger a refresh', async () => {
		serve(() => json(401, { error: 'access_denied' }));
		await expect(api('/auth/login', { method: 'POST', body: {}, noRefresh: true })).rejects.toThrow();
		expect(calls).toHaveLength(1);
	});

	test('retries once on a gateway error', async () => {
		let first = true;
		serve(() => {
			if (first) {
				first = false;
				return json(503, {});
			}
			return json(200, { ok: 1 });
		});
		expect(await api('/v7.1/user/self/')).toEqual({ ok: 1 });
		expect(calls).toHaveLength(2);
	});

	test('a visitor, with no session hint cookie, is signed out without asking the server', async () => {
		serve(() => json(401, { error: 'invalid_session' }));
		expect(await ensureSession()).toBeNull();
		expect(calls).toEqual([]);
	});

	test("a signed-in member's first call carries a token fetched before it, never a 401 and a retry", async () => {
		// biome-ignore lint/suspicious/noDocumentCookie: the client reads the hint from document.cookie, as in a page
		document.cookie = `${SESSION_HINT_COOKIE}=${encodeSessionHint({ id: 7, username: 'ada', displayName: 'Ada', isPremium: false })}; path=/`;
		try {
			serve((url, init) => {
				if (url.includes('/refresh-token'))
					return json(200, { access_token: 'fresh', expires_in: 600, user });
				const auth = new Headers(init.headers).get('authorization');
				return auth === 'Bearer fresh' ? json(201, { id: 'pi_1' }) : json(401, { error: 'invalid_token' });
			});
			expect(await api('/checkoutapi/paymentIntent', { method: 'POST', body: { product_id: 'p' } })).toEqual({
				id: 'pi_1',
			});
			expect(calls).toEqual([
				{ url: '/api/auth/refresh-token', auth: null },
				{ url: '/api/checkoutapi/paymentIntent', auth: 'Bearer fresh' },
			]);
		} finally {
			// biome-ignore lint/suspicious/noDocumentCookie: the test's hint is removed as a page would
			document.cookie = `${SESSION_HINT_COOKIE}=; path=/; max-age=0`;
		}
	});

	test('ensureSession answers null for a visitor without showing the modal', async () => {
		serve(() => json(401, { error: 'invalid_session' }));
		const seen: boolean[] = [];
		const stop = $refreshingToken.listen((value) => seen.push(value));
		expect(await ensureSession()).toBeNull();
		stop();
		expect(seen).toEqual([]);
		expect(await refreshToken({ quiet: true })).toBe(false);
	});
});

describe('reloadUser', () => {
	test('premium when any subscription is active; billing failures below 500 are swallowed', async () => {
		applyToken({ access_token: 't', expires_in: 600, user });
		serve((url) =>
			url.includes('paid-subscriptions')
				? json(200, {
						_embedded: {
							paid_subscriptions: [{ subscription_status: 'canceled' }, { subscription_status: 'active' }],
						},
					})
				: json(200, { id: 7, username: 'ada', first_name: 'Ada' }),
		);
		await reloadUser();
		expect($premiumStatus.get()).toEqual({ is_ad_free: true, days_remaining: -1 });
		expect(($session.get()?.user as unknown as { first_name?: string } | undefined)?.first_name).toBe('Ada');

		serve((url) => (url.includes('paid-subscriptions') ? json(404, {}) : json(200, { id: 7 })));
		await reloadUser();
		expect($premiumStatus.get()).toEqual({ is_ad_free: false, days_remaining: 0 });
		expect($userError.get()).toBeNull();

		serve((url) => (url.includes('paid-subscriptions') ? json(200, {}) : json(500, {})));
		await reloadUser();
		expect($userError.get()).toMatch(/could not load/);
	});
});
