/**
 * What an on-demand page returns for an address it does not know. The not-found page is
 * pre-rendered, so the server bundle has no component for it and `Astro.rewrite('/404')` ends in a
 * 500; an empty 404 makes Astro answer with the pre-rendered page, read from disk, and status 404.
 */
export function notFound(): Response {
	return new Response(null, { status: 404 });
}
