import type { APIRoute } from 'astro';

export const prerender = false;

/** The widget address other sites may know (`/embed/routes/:id`); the page itself lives under /routes/view/embedded/. */
export const GET: APIRoute = ({ params, url, redirect }) => {
	if (!/^\d{1,9}$/.test(params.id ?? '')) return new Response('Not found', { status: 404 });
	const token = url.searchParams.get('token');
	const query = token ? `?token=${encodeURIComponent(token.slice(0, 100))}` : '';
	return redirect(`/routes/view/embedded/${params.id}${query}`, 301);
};
