import { PROMO_DISMISSED_KEY } from './promo';

/**
 * The visitor's cookie choices (the footer's "Manage Cookie Preferences"). Strictly necessary
 * cookies cannot be switched off; the optional categories are remembering preferences in this
 * browser and first-party product analytics (no advertising, no third parties). A browser's
 * Global Privacy Control signal is kept here too, so a visitor's opt-out holds without an account
 * and follows them into one at signup.
 *
 * Browser-safe: the footer script and islands import this file.
 */

/** The first-party cookie holding the choice itself, so it is strictly necessary. */
export const COOKIE_CHOICES_COOKIE = 'ms_cookie_choices';
export const COOKIE_CHOICES_MAX_AGE_SECONDS = 365 * 24 * 3600;

export type CookieChoices = {
	/** Remember preferences (map type, a dismissed MVP banner) in this browser's storage. */
	preferences: boolean;
	/**
	 * The browser sent a Global Privacy Control signal: an opt-out of the sale and sharing of
	 * personal data and of product analytics, kept once seen.
	 */
	gpc: boolean;
	/**
	 * First-party product analytics: true when the visitor said yes, false when they said no, left
	 * out while they have not chosen (then where they are decides, see analytics/consent.ts).
	 */
	analytics?: boolean;
};

/**
 * Until a visitor chooses, preferences are remembered: the values never leave the browser and are
 * only what the visitor picked on purpose.
 */
export const DEFAULT_COOKIE_CHOICES: CookieChoices = { preferences: true, gpc: false };

const GPC_FLAG = 'gpc';
const ANALYTICS_FLAGS = { on: 'analytics-on', off: 'analytics-off' } as const;

export type StorageArea = 'local' | 'session';

/** Where the member's last map type choice is kept (local storage), across routes and visits. */
export const MAP_TYPE_STORAGE_KEY = 'mapstride:map-type';
/** Where the route planner's last map position is kept (local storage), so it opens where the member left it. */
export const MAP_VIEW_STORAGE_KEY = 'mapstride:planner-view';

/** Every optional storage key the product writes, so turning preferences off can remove them. */
export const PREFERENCE_STORAGE_KEYS: readonly { area: StorageArea; key: string }[] = [
	{ area: 'local', key: MAP_TYPE_STORAGE_KEY },
	{ area: 'local', key: MAP_VIEW_STORAGE_KEY },
	{ area: 'session', key: PROMO_DISMISSED_KEY },
];

/**
 * The saved choice in a `document.cookie` or Cookie header string; null when none was made. The
 * value is the preferences choice followed by dot-separated flags: `preferences-on.analytics-on.gpc`.
 */
export function parseCookieChoices(cookieHeader: string | null | undefined): CookieChoices | null {
	for (const part of (cookieHeader ?? '').split(';')) {
		const [name, value] = part.trim().split('=');
		if (name !== COOKIE_CHOICES_COOKIE) continue;
		const [preferences, ...flags] = (value ?? '').split('.');
		if (preferences !== 'preferences-on' && preferences !== 'preferences-off') return null;
		// A value this code did not write is no choice at all.
		if (
			flags.some((flag) => flag !== GPC_FLAG && flag !== ANALYTICS_FLAGS.on && flag !== ANALYTICS_FLAGS.off)
		)
			return null;
		const choices: CookieChoices = {
			preferences: preferences === 'preferences-on',
			gpc: flags.includes(GPC_FLAG),
		};
		if (flags.includes(ANALYTICS_FLAGS.on)) choices.analytics = true;
		else if (flags.includes(ANALYTICS_FLAGS.off)) choices.analytics = false;
		return choices;
	}
	return null;
}

/** The `document.cookie` assignment that saves a choice for a year. */
export function serializeCookieChoices(choices: CookieChoices, secure: boolean): string {
	const parts = [choices.preferences ? 'preferences-on' : 'preferences-off'];
	if (choices.analytics !== undefined) parts.push(ANALYTICS_FLAGS[choices.analytics ? 'on' : 'off']);
	if (choices.gpc) parts.push(GPC_FLAG);
	const attributes = `Path=/; Max-Age=${COOKIE_CHOICES_MAX_AGE_SECONDS}; SameSite=Lax${secure ? '; Secure' : ''}`;
	return `${COOKIE_CHOICES_COOKIE}=${parts.join('.')}; ${attributes}`;
}

/** What the browser offers the functions below; tests pass their own. */
export type BrowserStorage = {
	document: { cookie: string };
	localStorage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
	sessionStorage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
	secure: boolean;
};

function browser(): BrowserStorage {
	return {
		document,
		localStorage: window.localStorage,
		sessionStorage: window.sessionStorage,
		secure: window.location.protocol === 'https:',
	};
}

function storageOf(env: BrowserStorage, area: StorageArea) {
	return area === 'local' ? env.localStorage : env.sessionStorage;
}

export function readCookieChoices(env: Pick<BrowserStorage, 'document'> = browser()): CookieChoices {
	return parseCookieChoices(env.document.cookie) ?? DEFAULT_COOKIE_CHOICES;
}

/**
 * Whether this browser signals Global Privacy Control now or did on an earlier visit (the server
 * keeps a `Sec-GPC: 1` request in the choices cookie).
 */
export function globalPrivacyControlOn(
	env: Pick<BrowserStorage, 'document'> & { navigator?: { globalPrivacyControl?: boolean } } = {
		document,
		navigator: navigator as Navigator & { globalPrivacyControl?: boolean },
	},
): boolean {
	return readCookieChoices(env).gpc || env.navigator?.globalPrivacyControl === true;
}

/** Saves the choice; turning preferences off also forgets what was remembered. */
export function saveCookieChoices(choices: CookieChoices, env: BrowserStorage = browser()): void {
	env.document.cookie = serializeCookieChoices(choices, env.secure);
	if (choices.preferences) return;
	for (const { area, key } of PREFERENCE_STORAGE_KEYS) {
		try {
			storageOf(env, area).removeItem(key);
		} catch {
			// Storage switched off in the browser holds nothing to forget.
		}
	}
}

/**
 * Writes an optional preference only when the visitor allows it; false when it was not kept
 * (not allowed, or storage is off), so the caller applies it to this page only.
 */
export function rememberPreference(
	area: StorageArea,
	key: string,
	value: string,
	env: BrowserStorage = browser(),
): boolean {
	if (!readCookieChoices(env).preferences) return false;
	try {
		storageOf(env, area).setItem(key, value);
		return true;
	} catch {
		return false;
	}
}

/** Reads an optional preference; null when none is kept or remembering is off. */
export function recallPreference(
	area: StorageArea,
	key: string,
	env: BrowserStorage = browser(),
): string | null {
	if (!readCookieChoices(env).preferences) return null;
	try {
		return storageOf(env, area).getItem(key);
	} catch {
		return null;
	}
}
