import { routeDownload } from '../../../../lib/routes/server/download';

export const prerender = false;

/** The view page's "Download FIT": the route as a FIT course, under the same rules as the GPX. */
export const GET = routeDownload('fit');
