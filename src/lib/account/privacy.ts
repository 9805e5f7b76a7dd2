/** Privacy levels: 0 only me, 1 friends, 3 everyone. */
export const PRIVACY = { private: 0, friends: 1, public: 3 } as const;
export type PrivacyLevel = (typeof PRIVACY)[keyof typeof PRIVACY];
export const PRIVACY_LEVELS: PrivacyLevel[] = [0, 1, 3];

/**
 * The one privacy decision: may `viewerId` see something of `ownerId` kept at `level`?
 * `isFriend` says whether the two are active friends (the social domain knows).
 */
export function canView(
	viewerId: number | null | undefined,
	ownerId: number,
	level: number,
	isFriend = false,
): boolean {
	if (viewerId !== null && viewerId !== undefined && viewerId === ownerId) return true;
	if (level === PRIVACY.public) return true;
	if (level === PRIVACY.friends) return isFriend && viewerId !== null && viewerId !== undefined;
	return false;
}
