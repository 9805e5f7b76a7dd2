import type { Viewer } from './viewer';

/**
 * Pre-rendered pages cannot know who is signed in, so the server sets this readable cookie
 * beside the HttpOnly session cookie. It carries nothing secret — only what the header shows —
 * and grants nothing: every API call is still authorised by the access token.
 */
export const SESSION_HINT_COOKIE = 'ms_hint';

export function encodeSessionHint(viewer: Viewer): string {
	return Buffer.from(JSON.stringify(viewer), 'utf8').toString('base64url');
}

/** Reads the hint from a `document.cookie` or Cookie header string; null when absent or malformed. */
export function readSessionHint(cookieHeader: string | null | undefined): Viewer | null {
	if (!cookieHeader) return null;
	for (const part of cookieHeader.split(';')) {
		const [name, ...rest] = part.trim().split('=');
		if (name !== SESSION_HINT_COOKIE) continue;
		try {
			const value: unknown = JSON.parse(decodeBase64Url(rest.join('=')));
			if (!isViewer(value)) return null;
			const { id, username, displayName, isPremium } = value;
			return { id, username, displayName, isPremium };
		} catch {
			return null;
		}
	}
	return null;
}

/**
 * The shape check of ViewerSchema, written out: the shell reads the hint on every pre-rendered page,
 * and importing the schema library there would add its whole shared chunk to each page's script.
 * The hint is display-only; nothing is authorised by it. A unit test holds this to the schema.
 */
export function isViewer(value: unknown): value is Viewer {
	if (typeof value !== 'object' || value === null) return false;
	const record = value as Record<string, unknown>;
	return (
		typeof record.id === 'number' &&
		typeof record.username === 'string' &&
		typeof record.displayName === 'string' &&
		typeof record.isPremium === 'boolean'
	);
}

function decodeBase64Url(value: string): string {
	const base64 = value.replace(/-/g, '+').replace(/_/g, '/');
	const binary = atob(base64);
	return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}
