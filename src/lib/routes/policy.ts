import { timingSafeEqual } from 'node:crypto';
import { RoutePrivacy } from './contract';

/** What the privacy decision needs to know about a route. */
export type RouteAccessFacts = { ownerId: number; privacy: number; linkToken: string };

export type ViewContext = {
	/** Whether the viewer and the owner are accepted friends (only asked for friends-only routes). */
	isFriend: boolean;
	/** Whether either blocked the other. */
	blocked: boolean;
	/** The link token the request carried, if any. */
	token?: string | null;
};

/**
 * The single privacy decision for routes. Private: the owner only. Friends: the owner and accepted
 * friends. Public: everyone. Accessible: the owner and anyone holding the link token — never the
 * numeric id alone. A block either way hides every route, the link token's too, from the other
 * member while signed in (signed out, nobody is known, so public stays public). Everything that
 * shows a route (detail, lists, search, counts, bookmarks, GPX, embed, pages, feed) asks this, or
 * the SQL twin in the service that tests hold to the same matrix.
 */
export function canView(
	viewer: { id: number } | null,
	route: RouteAccessFacts,
	context: ViewContext,
): boolean {
	if (viewer && viewer.id === route.ownerId) return true;
	if (viewer && context.blocked) return false;
	switch (route.privacy) {
		case RoutePrivacy.public:
			return true;
		case RoutePrivacy.friends:
			return viewer !== null && context.isFriend;
		case RoutePrivacy.accessible:
			return tokenMatches(context.token, route.linkToken);
		default:
			return false;
	}
}

/**
 * Lists, counts and search show the owner's own routes, public ones and friends' friends-only ones;
 * link-only routes never, and nothing of a member blocked either way.
 */
export function canList(
	viewer: { id: number } | null,
	route: RouteAccessFacts,
	context: Omit<ViewContext, 'token'>,
): boolean {
	if (viewer && viewer.id === route.ownerId) return true;
	if (viewer && context.blocked) return false;
	if (route.privacy === RoutePrivacy.public) return true;
	return route.privacy === RoutePrivacy.friends && viewer !== null && context.isFriend;
}

/** Only the owner edits, deletes, changes privacy or sees the link token. */
export function canEdit(viewer: { id: number } | null, route: { ownerId: number }): boolean {
	return viewer !== null && viewer.id === route.ownerId;
}

function tokenMatches(given: string | null | undefined, expected: string): boolean {
	if (!given || !expected) return false;
	const a = Buffer.from(given);
	const b = Buffer.from(expected);
	return a.length === b.length && timingSafeEqual(a, b);
}
