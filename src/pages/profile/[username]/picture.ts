import { readFile } from 'node:fs/promises';
import type { APIRoute } from 'astro';
import { findProfilePhoto } from '../../../lib/account/server/service';
import { getRuntime } from '../../../lib/api/runtime';

export const prerender = false;

/** A neutral silhouette for members without a photo, or whose profile the viewer may not see. */
const DEFAULT_AVATAR = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64" role="img" aria-label="No profile picture"><rect width="64" height="64" fill="#d4dae4"/><circle cx="32" cy="25" r="12" fill="#8a94a8"/><path d="M10 60c2-13 11-19 22-19s20 6 22 19z" fill="#8a94a8"/></svg>`;

export const GET: APIRoute = async ({ params, url, locals, request }) => {
	const size = url.searchParams.get('size') === 'Small' ? 'Small' : 'Medium';
	const username = (params.username ?? '').slice(0, 80);
	const { deps } = await getRuntime();
	const photo = await findProfilePhoto(deps, locals.viewer?.id ?? null, username, size);
	const common = {
		'X-Content-Type-Options': 'nosniff',
		// Who may see a photo depends on the viewer, so shared caches must not keep it; browsers ask
		// again each time (a 304 when unchanged), so a new photo shows on the next page at once.
		'Cache-Control': 'private, no-cache',
		Vary: 'Cookie',
	};
	if (photo) {
		const etag = `"${photo.updatedAt.getTime().toString(36)}-${size}"`;
		if (request.headers.get('if-none-match') === etag)
			return new Response(null, { status: 304, headers: { ...common, ETag: etag } });
		try {
			const bytes = await readFile(photo.file);
			return new Response(bytes, {
				headers: {
					...common,
					'Content-Type': 'image/jpeg',
					'Last-Modified': photo.updatedAt.toUTCString(),
					ETag: etag,
				},
			});
		} catch {
			// The file went missing: fall through to the default image.
		}
	}
	return new Response(DEFAULT_AVATAR, {
		headers: { ...common, 'Content-Type': 'image/svg+xml' },
	});
};
