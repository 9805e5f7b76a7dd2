import * as v from 'valibot';
import { type Viewer, ViewerSchema } from './contract';

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
			const json = decodeBase64Url(rest.join('='));
			const parsed = v.safeParse(ViewerSchema, JSON.parse(json));
			return parsed.success ? parsed.output : null;
		} catch {
			return null;
		}
	}
	return null;
}

function decodeBase64Url(value: string): string {
	const base64 = value.replace(/-/g, '+').replace(/_/g, '/');
	const binary = atob(base64);
	return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}
