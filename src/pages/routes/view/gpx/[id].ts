import { routeDownload } from '../../../../lib/routes/server/download';

export const prerender = false;

/**
 * The view page's "Download GPX": the same export as the API, for the signed-in member of the
 * browser session (a friends-only route downloads for a friend) or a link holder.
 */
export const GET = routeDownload('gpx');
