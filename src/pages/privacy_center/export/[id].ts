import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { APIRoute } from 'astro';
import { getRuntime } from '../../../lib/api/runtime';
import { AppError } from '../../../lib/core/errors';
import { attachmentDisposition } from '../../../lib/core/server/downloads';
import { openExport } from '../../../lib/privacy/server/service';
import { loginPathFor } from '../../../lib/site/guards';

export const prerender = false;

/**
 * The archive, for the member it was made for, while it lives: from the e-mailed link (with its
 * token) or from the privacy centre's page (without one: being signed in as its owner is enough).
 */
export const GET: APIRoute = async ({ params, url, locals, redirect }) => {
	if (!locals.viewer) return redirect(loginPathFor(url), 302);
	const id = params.id ?? '';
	const token = url.searchParams.get('token');
	const notFound = () =>
		new Response(
			'This download link does not work (it may have expired). Ask for a new export in the privacy centre.',
			{
				status: 404,
				headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
			},
		);
	if (!/^\d{1,12}$/.test(id) || (token !== null && !/^[A-Za-z0-9_-]{20,100}$/.test(token))) return notFound();
	const { deps } = await getRuntime();
	try {
		const archive = await openExport(deps, locals.viewer.id, Number(id), token);
		const body = Readable.toWeb(createReadStream(archive.filePath)) as ReadableStream<Uint8Array>;
		return new Response(body, {
			headers: {
				'Content-Type': 'application/zip',
				'Content-Disposition': attachmentDisposition(archive.downloadName, 'zip', 'mapstride-data'),
				'Cache-Control': 'private, no-store',
			},
		});
	} catch (error) {
		if (error instanceof AppError && error.code === 'not_found') return notFound();
		throw error;
	}
};
