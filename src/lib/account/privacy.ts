/** Privacy levels: 0 only me, 1 friends, 3 everyone. */
export const PRIVACY = { private: 0, friends: 1, public: 3 } as const;
export type PrivacyLevel = (typeof PRIVACY)[keyof typeof PRIVACY];
export const PRIVACY_LEVELS: PrivacyLevel[] = [0, 1, 3];

/**
 * The one privacy decision: may `viewerId` see something of `ownerId` kept at `level`?
 * `relation` says whether the two are active friends and whether either blocked the other (the
 * social domain knows); a block hides the profile from a signed-in member, whatever its level.
 */
export function canView(
	viewerId: number | null | undefined,
	ownerId: number,
	level: number,
	relation: { isFriend: boolean; blocked: boolean },
): boolean {
	const signedIn = viewerId !== null && viewerId !== undefined;
	if (signedIn && viewerId === ownerId) return true;
	if (signedIn && relation.blocked) return false;
	if (level === PRIVACY.public) return true;
	if (level === PRIVACY.friends) return relation.isFriend && signedIn;
	return false;
}
