import { RoutePrivacy } from './contract';

/**
 * What a route page's address carries: the route id in the path and, for link-only routes, the
 * link token in `?token=`. Shared by the view, print, embed and download pages.
 */
export type RoutePageAddress = { id: number | null; token: string | null };

export function readRoutePageAddress(idParam: string | undefined, url: URL): RoutePageAddress {
	return {
		id: /^\d{1,9}$/.test(idParam ?? '') ? Number(idParam) : null,
		token: url.searchParams.get('token')?.slice(0, 100) || null,
	};
}

/** The `?token=…` a link-only route's own links must keep; other routes need none, so none leaks. */
export function linkTokenQuery(route: { privacy: number }, token: string | null): string {
	return route.privacy === RoutePrivacy.accessible && token ? `?token=${encodeURIComponent(token)}` : '';
}
