import * as v from 'valibot';
import { singleLineText } from '../core/text';

/** What an app may ask for. Each API endpoint an app may call declares one of these. */
export const APP_SCOPES = [
	'profile:read',
	'workouts:read',
	'workouts:read:nolocation',
	'workouts:write',
	'routes:read',
	'routes:write',
	'friends:read',
] as const;
export type AppScope = (typeof APP_SCOPES)[number];

/** The consent screen's and the connected-apps page's words for each scope. */
export const SCOPE_LABELS: Record<AppScope, string> = {
	'profile:read': 'See your name, username and profile settings',
	'workouts:read': 'See your workouts, including where they were recorded and your heart rate',
	'workouts:read:nolocation': 'See your workouts without where they were recorded',
	'workouts:write': 'Add, change and delete your workouts',
	'routes:read': 'See your routes and where they go',
	'routes:write': 'Create, change and delete your routes',
	'friends:read': 'See who your friends are',
};

export const MAX_APP_NAME = 80;
export const MAX_REDIRECT_URIS = 10;
export const MAX_REDIRECT_URI_LENGTH = 500;

/** Seconds: an authorization code lives one minute, an app's access token one hour. */
export const CODE_SECONDS = 60;
export const APP_ACCESS_TOKEN_SECONDS = 3600;
/** A grant's refresh tokens end this long after the member agreed, however often they rotate. */
export const GRANT_ABSOLUTE_SECONDS = 90 * 24 * 3600;

/**
 * A redirect URI an app may register: https anywhere, or http only on a loopback address (native
 * apps, RFC 8252). No fragment and no userinfo; it is compared as an exact string, except that a
 * loopback URI matches on any port.
 */
export function redirectUriProblem(text: string): string | null {
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return `${text} is not an address.`;
	}
	if (url.href !== text && `${url.href}` !== `${text}/`)
		return `${text} is not written in its plain form (write ${url.href}).`;
	if (url.username || url.password) return `${text} may not carry a user name or password.`;
	if (url.hash || text.includes('#')) return `${text} may not carry a fragment (#…).`;
	if (url.protocol === 'https:') return null;
	if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return null;
	return `${text} must use https (or http on 127.0.0.1 or [::1] for an app on the member's computer).`;
}

export function isLoopbackHost(hostname: string): boolean {
	return hostname === '127.0.0.1' || hostname === '[::1]';
}

/** The Developer page's form, read from its fields. */
export const AppRegistrationSchema = v.strictObject({
	name: v.pipe(
		singleLineText('The app name', MAX_APP_NAME),
		v.trim(),
		v.minLength(1, 'Give the app a name.'),
	),
	redirect_uris: v.pipe(
		v.array(
			v.pipe(
				singleLineText('A redirect URI', MAX_REDIRECT_URI_LENGTH),
				v.check(
					(uri) => redirectUriProblem(uri) === null,
					'Each redirect URI must be https, or http on loopback, with no fragment.',
				),
			),
		),
		v.minLength(1, 'Give at least one redirect URI.'),
		v.maxLength(MAX_REDIRECT_URIS, `At most ${MAX_REDIRECT_URIS} redirect URIs.`),
	),
	scopes: v.pipe(
		v.array(v.picklist(APP_SCOPES, 'Unknown scope.')),
		v.minLength(1, 'Choose at least one scope.'),
	),
	/** Confidential apps (a server) get a secret; public ones (a phone or browser app) rely on PKCE alone. */
	confidential: v.boolean(),
});
export type AppRegistrationInput = v.InferOutput<typeof AppRegistrationSchema>;

/** An app as its developer sees it. The secret is never here: it is shown once, at registration. */
export type DeveloperApp = {
	clientId: string;
	name: string;
	redirectUris: string[];
	scopes: AppScope[];
	confidential: boolean;
	createdAt: string;
};

/** An app a member has let in, as the connected-apps page lists it. */
export type ConnectedApp = {
	clientId: string;
	name: string;
	scopes: AppScope[];
	authorizedAt: string;
	lastUsedAt: string | null;
};

/** One read of location or health data by an app, for the privacy centre. */
export type AppDataAccess = {
	clientId: string;
	appName: string;
	scope: AppScope;
	method: string;
	path: string;
	at: string;
};

export function parseScopeList(text: string): string[] {
	return text.split(' ').filter((part) => part.length > 0);
}

export function isAppScope(value: string): value is AppScope {
	return (APP_SCOPES as readonly string[]).includes(value);
}

/** A device cloud a member may connect (remoteconnectiontype/). */
export type DeviceCloudView = {
	key: string;
	name: string;
	description: string;
	/** The built-in test cloud: shown as a test connection wherever it appears. */
	test: boolean;
};

/** A member's device connection with the activities it brought in lately (remoteconnection/). */
export type DeviceConnectionView = {
	id: number;
	cloud: string;
	name: string;
	test: boolean;
	connectedAt: string;
	lastSyncAt: string | null;
	lastError: string | null;
	imports: {
		name: string;
		startTime: string;
		status: 'pending' | 'imported' | 'duplicate' | 'refused';
		workoutId: number | null;
		message: string | null;
	}[];
};

/** What the test watch records, as its form offers it. */
export const TEST_WATCH_CHOICES = [
	{ outing: 'run', label: 'A run' },
	{ outing: 'walk', label: 'A walk' },
	{ outing: 'ride', label: 'A ride' },
] as const;
