import type { APIRoute } from 'astro';
import { getRuntime } from '../../../lib/api/runtime';
import { AppError } from '../../../lib/core/errors';
import { WORKOUT_DOWNLOAD_FORMATS, type WorkoutDownloadFormat } from '../../../lib/workouts/contract';
import { exportWorkout, originalFile } from '../../../lib/workouts/server/detail';

export const prerender = false;

/**
 * The detail page's downloads (`?format=gpx|tcx|fit`, or `original` for the owner's uploaded file) for the browser session's member: the API's
 * export, and the page's plain 404 for a workout they may not see.
 */
export const GET: APIRoute = async ({ params, url, locals }) => {
	const id = /^\d{1,9}$/.test(params.id ?? '') ? Number(params.id) : null;
	const format = (url.searchParams.get('format') ?? 'gpx') as WorkoutDownloadFormat;
	if (id === null || !WORKOUT_DOWNLOAD_FORMATS.includes(format))
		return new Response('Not found', { status: 404 });
	const { deps } = await getRuntime();
	try {
		const file =
			format === 'original'
				? await originalFile(deps, locals.viewer, id)
				: await exportWorkout(deps, locals.viewer, id, format);
		return new Response(typeof file.body === 'string' ? file.body : new Uint8Array(file.body), {
			headers: {
				'Content-Type': file.contentType,
				'Content-Disposition': file.disposition,
				'Cache-Control': 'private, no-cache',
			},
		});
	} catch (error) {
		if (error instanceof AppError && error.code === 'not_found')
			return new Response('Not found', { status: 404 });
		if (error instanceof AppError && error.code === 'unprocessable')
			return new Response(error.message, {
				status: 422,
				headers: { 'Content-Type': 'text/plain; charset=utf-8' },
			});
		throw error;
	}
};
