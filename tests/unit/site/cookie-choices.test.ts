import { afterEach, describe, expect, it, vi } from 'vitest';
import { drainEvents, peekEvents, trackEvent } from '~/lib/analytics/queue';
import {
	type BrowserStorage,
	COOKIE_CHOICES_COOKIE,
	globalPrivacyControlOn,
	MAP_TYPE_STORAGE_KEY,
	parseCookieChoices,
	readCookieChoices,
	recallPreference,
	rememberPreference,
	saveCookieChoices,
	serializeCookieChoices,
} from '~/lib/site/cookie-choices';
import { PROMO_DISMISSED_KEY } from '~/lib/site/promo';

/** A browser's cookie jar and storages, enough to see what was written and kept. */
function fakeBrowser(cookie = ''): BrowserStorage & { jar: Map<string, string> } {
	const jar = new Map<string, string>();
	for (const part of cookie.split(';').filter(Boolean)) {
		const [name, value] = part.trim().split('=');
		jar.set(name, value);
	}
	const storage = () => {
		const items = new Map<string, string>();
		return {
			getItem: (key: string) => items.get(key) ?? null,
			setItem: (key: string, value: string) => void items.set(key, value),
			removeItem: (key: string) => void items.delete(key),
		};
	};
	return {
		jar,
		document: {
			get cookie() {
				return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
			},
			set cookie(line: string) {
				const [pair] = line.split(';');
				const [name, value] = pair.split('=');
				jar.set(name, value);
			},
		},
		localStorage: storage(),
		sessionStorage: storage(),
		secure: false,
	};
}

describe('cookie choices', () => {
	it('reads no choice from a missing or unknown cookie value', () => {
		expect(parseCookieChoices(null)).toBeNull();
		expect(parseCookieChoices('ms_hint=abc')).toBeNull();
		expect(parseCookieChoices(`${COOKIE_CHOICES_COOKIE}=maybe`)).toBeNull();
		expect(parseCookieChoices(`a=1; ${COOKIE_CHOICES_COOKIE}=preferences-off`)).toEqual({
			preferences: false,
			gpc: false,
		});
	});

	it('saves the choice for a year, Secure only over https', () => {
		expect(serializeCookieChoices({ preferences: false, gpc: false }, false)).toBe(
			`${COOKIE_CHOICES_COOKIE}=preferences-off; Path=/; Max-Age=31536000; SameSite=Lax`,
		);
		expect(serializeCookieChoices({ preferences: true, gpc: false }, true)).toMatch(
			/=preferences-on; .*; Secure$/,
		);
	});

	it('remembers preferences until the visitor says no', () => {
		const env = fakeBrowser();
		expect(readCookieChoices(env)).toEqual({ preferences: true, gpc: false });
		expect(rememberPreference('local', MAP_TYPE_STORAGE_KEY, 'terrain', env)).toBe(true);
		expect(recallPreference('local', MAP_TYPE_STORAGE_KEY, env)).toBe('terrain');
	});

	it('turning preferences off forgets what was kept and keeps nothing new', () => {
		const env = fakeBrowser();
		rememberPreference('local', MAP_TYPE_STORAGE_KEY, 'terrain', env);
		rememberPreference('session', PROMO_DISMISSED_KEY, '1', env);

		saveCookieChoices({ preferences: false, gpc: false }, env);

		expect(readCookieChoices(env)).toEqual({ preferences: false, gpc: false });
		expect(env.localStorage.getItem(MAP_TYPE_STORAGE_KEY)).toBeNull();
		expect(env.sessionStorage.getItem(PROMO_DISMISSED_KEY)).toBeNull();
		expect(rememberPreference('local', MAP_TYPE_STORAGE_KEY, 'OSM', env)).toBe(false);
		expect(env.localStorage.getItem(MAP_TYPE_STORAGE_KEY)).toBeNull();
		expect(recallPreference('session', PROMO_DISMISSED_KEY, env)).toBeNull();
	});

	it('turning preferences back on lets them be kept again', () => {
		const env = fakeBrowser(`${COOKIE_CHOICES_COOKIE}=preferences-off`);
		saveCookieChoices({ preferences: true, gpc: false }, env);
		expect(env.jar.get(COOKIE_CHOICES_COOKIE)).toBe('preferences-on');
		expect(rememberPreference('session', PROMO_DISMISSED_KEY, '1', env)).toBe(true);
	});

	it('survives storage the browser refuses', () => {
		const env = fakeBrowser();
		const refuse = () => {
			throw new DOMException('denied', 'SecurityError');
		};
		env.localStorage = { getItem: refuse, setItem: refuse, removeItem: refuse };
		expect(rememberPreference('local', MAP_TYPE_STORAGE_KEY, 'terrain', env)).toBe(false);
		expect(recallPreference('local', MAP_TYPE_STORAGE_KEY, env)).toBeNull();
		expect(() => saveCookieChoices({ preferences: false, gpc: false }, env)).not.toThrow();
	});
});

describe('Global Privacy Control', () => {
	afterEach(() => {
		vi.unstubAllGlobals();
		drainEvents();
	});

	it('is kept beside the preferences choice and read back from either', () => {
		const kept = serializeCookieChoices({ preferences: false, gpc: true }, false);
		expect(kept).toMatch(/^ms_cookie_choices=preferences-off\.gpc; /);
		expect(parseCookieChoices(kept.split(';')[0])).toEqual({ preferences: false, gpc: true });
		expect(parseCookieChoices(`${COOKIE_CHOICES_COOKIE}=preferences-on.gpc`)).toEqual({
			preferences: true,
			gpc: true,
		});
		expect(parseCookieChoices(`${COOKIE_CHOICES_COOKIE}=preferences-on.gp`)).toBeNull();
	});

	it('is on when the browser says so now or the cookie kept an earlier signal', () => {
		expect(globalPrivacyControlOn({ document: { cookie: '' }, navigator: {} })).toBe(false);
		expect(
			globalPrivacyControlOn({ document: { cookie: '' }, navigator: { globalPrivacyControl: true } }),
		).toBe(true);
		const kept = { cookie: `${COOKIE_CHOICES_COOKIE}=preferences-on.gpc` };
		expect(globalPrivacyControlOn({ document: kept, navigator: { globalPrivacyControl: false } })).toBe(true);
	});

	it('a visitor who keeps a preferences choice keeps their opt-out too', () => {
		const env = fakeBrowser(`${COOKIE_CHOICES_COOKIE}=preferences-on.gpc`);
		saveCookieChoices({ ...readCookieChoices(env), preferences: false }, env);
		expect(env.jar.get(COOKIE_CHOICES_COOKIE)).toBe('preferences-off.gpc');
	});

	it('keeps analytics events off the queue in a browser that opted out', () => {
		vi.stubGlobal('document', { cookie: `${COOKIE_CHOICES_COOKIE}=preferences-on` });
		vi.stubGlobal('navigator', {});
		trackEvent('route_created', { route_id: 1 });
		expect(peekEvents().map((event) => event.name)).toEqual(['route_created']);
		drainEvents();

		vi.stubGlobal('document', { cookie: `${COOKIE_CHOICES_COOKIE}=preferences-on.gpc` });
		trackEvent('route_created', { route_id: 2 });
		vi.stubGlobal('document', { cookie: '' });
		vi.stubGlobal('navigator', { globalPrivacyControl: true });
		trackEvent('route_control_performed', { control: 'undo' });
		expect(peekEvents()).toEqual([]);
	});
});
