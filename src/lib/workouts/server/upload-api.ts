import type { Context } from 'hono';
import { Hono } from 'hono';
import { describeRoute, resolver } from 'hono-openapi';
import { WORKOUT_FILE_BODY_LIMIT } from '../../api/body';
import type { ApiEnv } from '../../api/context';
import { both } from '../../api/hal';
import { validate } from '../../api/validate';
import { requireViewer } from '../../auth/server/middleware';
import { AppError } from '../../core/errors';
import { WorkoutUploadIdParamSchema, WorkoutUploadViewSchema } from '../contract';
import {
	findOwnUpload,
	forgetUpload,
	isFinished,
	readUpload,
	receiveUploadRequest,
	refusalOf,
} from './resumable-uploads';

/** The main API's error code for each status tus answers with on its own. */
const TUS_ERRORS: Record<number, string> = {
	400: 'bad_request',
	403: 'bad_request',
	404: 'not_found',
	409: 'upload_offset_conflict',
	410: 'upload_expired',
	412: 'tus_version_required',
	413: 'file_too_large',
	415: 'unsupported_media_type',
	423: 'upload_locked',
	460: 'checksum_mismatch',
};
/** Headers of tus's own refusals a client reads (the offset to resume from, the protocol version). */
const TUS_HEADERS = ['tus-resumable', 'tus-version', 'upload-offset', 'upload-length', 'cache-control'];

/**
 * tus's answer as the API answers: a refusal one of our hooks made goes through the error mapper;
 * tus's own refusals keep their status (409, 410, 412 and 423 steer tus clients) with the API's
 * error body instead of tus's text.
 */
async function answer(c: Context<ApiEnv>, response: Response): Promise<Response> {
	if (response.status < 400) return response;
	const refusal = refusalOf(c.req.raw);
	if (refusal) throw refusal;
	const text = (await response.text()).trim();
	if (response.status >= 500)
		c.var.deps.logger.warn({ requestId: c.var.requestId, status: response.status, text }, 'upload refused');
	for (const name of TUS_HEADERS) {
		const value = response.headers.get(name);
		if (value !== null) c.header(name, value);
	}
	return c.json(
		{
			error: TUS_ERRORS[response.status] ?? 'unknown_error',
			message: text || 'The upload request was refused.',
			_diagnostics: { validation_failures: [] },
		},
		response.status as 400,
	);
}

/** The member's own upload named in the URL; anyone else's answers 404, as if it did not exist. */
async function ownUpload(c: Context<ApiEnv>, id: string) {
	const row = await findOwnUpload(c.var.deps, (c.var.viewer as { id: number }).id, id);
	if (!row) throw new AppError('not_found', 'No such upload');
	return row;
}

const json = (description: string) => ({
	description,
	content: { 'application/json': { schema: resolver(WorkoutUploadViewSchema) } },
});
const tusHeader = (name: string, description: string, required = true) => ({
	in: 'header' as const,
	name,
	required,
	description,
	schema: { type: 'string' as const },
});
const TUS_RESUMABLE = tusHeader('Tus-Resumable', 'The tus protocol version: 1.0.0');

/**
 * Resumable uploads of device files (tus 1.0: core, creation, creation-with-upload, termination,
 * expiration), for links that drop: a client creates an upload, sends its bytes in PATCH requests,
 * and after a drop asks (HEAD) how many arrived and goes on from there. The last byte imports the
 * file through the same path as POST device/file_import/; GET on the upload says how that went.
 */
export function createWorkoutUploadsApi(): Hono<ApiEnv> {
	const app = new Hono<ApiEnv>();

	for (const path of both('/workout_uploads/')) {
		// tus's capability answer (version, extensions, size cap); it names no member's upload.
		app.options(path, (c) => receiveUploadRequest(c.var.deps, null, c.req.raw));
		app.post(
			path,
			describeRoute({
				summary: 'Start a resumable (tus 1.0) upload of a GPX, TCX or FIT file, bare or in .gz or .zip',
				description: `Upload-Metadata carries \`filename\` (required), \`idempotency_key\`, and the file import's choices \`name\`, \`privacy\`, \`activity_type\` and \`time_zone\`, each base64-encoded as tus says. Upload-Length is required and at most ${WORKOUT_FILE_BODY_LIMIT} bytes. Answers 201 with the upload's URL in Location. An unfinished upload expires after a day.`,
				parameters: [
					TUS_RESUMABLE,
					tusHeader('Upload-Length', 'The file size in bytes'),
					tusHeader(
						'Upload-Metadata',
						'filename, and optionally idempotency_key, name, privacy, activity_type, time_zone',
					),
				],
				responses: {
					201: { description: 'Created; Location names the upload' },
					400: { description: 'No Upload-Length, or metadata that is not valid' },
					412: { description: 'No Tus-Resumable header' },
					413: { description: 'Larger than the upload cap' },
					429: { description: 'Ten uploads of the member are already under way' },
				},
			}),
			requireViewer,
			async (c) =>
				answer(c, await receiveUploadRequest(c.var.deps, (c.var.viewer as { id: number }).id, c.req.raw)),
		);
	}

	for (const path of both('/workout_uploads/:id/')) {
		app.options(path, (c) => receiveUploadRequest(c.var.deps, null, c.req.raw));
		// Hono answers HEAD with the GET route: HEAD is tus's "how many bytes arrived".
		app.get(
			path,
			describeRoute({
				summary: 'How a resumable upload stands: its bytes, then the workout it became or why it was refused',
				description:
					'Once every byte is in, this imports the file if no request has yet (a lost answer, a restart), and waits up to 20 s for an import under way. HEAD answers as tus says, with Upload-Offset and Upload-Length.',
				responses: {
					200: json('The upload; `status` is receiving, imported, duplicate or refused'),
					202: json('The file is still being read; ask again after Retry-After'),
					404: { description: 'No such upload of this member' },
				},
			}),
			requireViewer,
			validate('param', WorkoutUploadIdParamSchema),
			async (c) => {
				const id = c.req.valid('param').id;
				const row = await ownUpload(c, id);
				c.header('Cache-Control', 'no-store');
				if (c.req.raw.method === 'HEAD') {
					if (!isFinished(row))
						return answer(c, await receiveUploadRequest(c.var.deps, row.ownerId, c.req.raw));
					// Its file has left the disk: every byte arrived.
					c.header('Tus-Resumable', '1.0.0');
					c.header('Upload-Offset', String(row.size));
					c.header('Upload-Length', String(row.size));
					return c.body(null, 200);
				}
				const view = await readUpload(c.var.deps, row.ownerId, id);
				if (view.status === 'importing') {
					c.header('Retry-After', '2');
					return c.json(view, 202);
				}
				return c.json(view);
			},
		);
		app.patch(
			path,
			describeRoute({
				summary: 'Send bytes of a resumable upload from its Upload-Offset; the last byte imports the file',
				parameters: [
					TUS_RESUMABLE,
					tusHeader('Upload-Offset', 'Where these bytes start: the offset HEAD answered'),
					tusHeader('Content-Type', 'application/offset+octet-stream'),
				],
				responses: {
					204: { description: 'Stored; Upload-Offset says how many bytes the server holds' },
					404: { description: 'No such upload of this member' },
					409: { description: 'Upload-Offset is not where the upload stands; ask with HEAD' },
					410: { description: 'The upload expired' },
					423: { description: 'Another request is writing this upload; try again shortly' },
				},
			}),
			requireViewer,
			validate('param', WorkoutUploadIdParamSchema),
			async (c) => {
				const row = await ownUpload(c, c.req.valid('param').id);
				if (isFinished(row))
					throw new AppError('conflict', 'Every byte of this upload has arrived; ask with GET how it went.', {
						detail: 'upload_offset_conflict',
						headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': String(row.size) },
					});
				return answer(c, await receiveUploadRequest(c.var.deps, row.ownerId, c.req.raw));
			},
		);
		app.delete(
			path,
			describeRoute({
				summary: "Cancel a resumable upload (its bytes leave the disk), or forget a finished one's outcome",
				responses: {
					204: { description: 'Cancelled or forgotten; a workout it made stays' },
					404: { description: 'No such upload of this member' },
					409: { description: 'The file is being imported right now' },
				},
			}),
			requireViewer,
			validate('param', WorkoutUploadIdParamSchema),
			async (c) => {
				const row = await ownUpload(c, c.req.valid('param').id);
				if (row.status === 'importing')
					throw new AppError('conflict', 'This file is being imported right now.', {
						detail: 'upload_importing',
					});
				if (row.status === 'receiving') {
					const response = await receiveUploadRequest(c.var.deps, row.ownerId, c.req.raw);
					if (response.status >= 400 && response.status !== 404 && response.status !== 410)
						return answer(c, response);
				}
				await forgetUpload(c.var.deps, row.ownerId, row.id);
				c.header('Tus-Resumable', '1.0.0');
				return c.body(null, 204);
			},
		);
	}

	return app;
}
