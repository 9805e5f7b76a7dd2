/** A member's profile header, as the viewer may see it. */
import { canView as canViewProfile } from '../../account/privacy';
import { isBlockedEitherWay } from './relations';
import {
	type Deps,
	displayNameOf,
	type FriendStatus,
	findMember,
	friendStatusOf,
	friendshipBetween,
} from './social-shared';

type Viewer = { id: number } | null;

export type Profile = {
	id: number;
	username: string;
	displayName: string;
	locality: string;
	region: string;
	memberSince: number;
	status: FriendStatus;
};

/**
 * A member's profile header as the viewer may see it, or null — for a missing member, a private
 * profile or a block alike, so the answer never tells whether the member exists.
 */
export async function getProfile(deps: Deps, viewer: Viewer, id: number): Promise<Profile | null> {
	const row = await findMember(deps.db, id);
	if (!row) return null;
	let status: FriendStatus = 'none';
	if (viewer) {
		if (viewer.id !== id && (await isBlockedEitherWay(deps.db, viewer.id, id))) return null;
		status = friendStatusOf(viewer.id, id, await friendshipBetween(deps.db, viewer.id, id));
	}
	// A block returned above, before the friendship was read.
	if (!canViewProfile(viewer?.id, id, row.profilePrivacy, { isFriend: status === 'friend', blocked: false }))
		return null;
	return {
		id: row.id,
		username: row.username,
		displayName: displayNameOf(row),
		locality: row.locality,
		region: row.region,
		memberSince: row.createdAt.getUTCFullYear(),
		status,
	};
}
