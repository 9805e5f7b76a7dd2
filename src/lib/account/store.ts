import { atom } from 'nanostores';

/**
 * Bumped when the member's profile photo changes, so the header (and any island showing the
 * photo) asks for the new picture at once instead of keeping the one it loaded.
 */
export const $avatarVersion = atom(0);

export function announceNewAvatar(now = Date.now()): number {
	$avatarVersion.set(now);
	return now;
}

/** A picture address that no cache can answer with the photo from before `version`. */
export function withAvatarVersion(src: string, version: number): string {
	if (!version) return src;
	const url = new URL(src, 'http://placeholder.invalid');
	url.searchParams.set('v', String(version));
	return `${url.pathname}${url.search}`;
}
