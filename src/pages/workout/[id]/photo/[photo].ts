import type { APIRoute } from 'astro';
import { getRuntime } from '../../../../lib/api/runtime';
import { readWorkoutPhoto } from '../../../../lib/workouts/server/photos';

export const prerender = false;

/** A workout photo for the signed-in viewer, if they may see the workout; 404 otherwise. */
export const GET: APIRoute = async ({ params, url, locals }) => {
	const id = /^\d{1,9}$/.test(params.id ?? '') ? Number(params.id) : null;
	const photoId = /^\d{1,9}$/.test(params.photo ?? '') ? Number(params.photo) : null;
	const size = url.searchParams.get('size') === 'thumbnail' ? 'thumbnail' : 'large';
	const { deps } = await getRuntime();
	const found =
		id === null || photoId === null ? null : await readWorkoutPhoto(deps, locals.viewer, id, photoId, size);
	if (!found) return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain' } });
	return new Response(new Uint8Array(found.bytes), {
		headers: {
			'Content-Type': 'image/jpeg',
			'X-Content-Type-Options': 'nosniff',
			// Who may see it depends on the viewer; a photo never changes under its address.
			'Cache-Control': 'private, max-age=86400',
			Vary: 'Cookie',
		},
	});
};
