import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { AppError } from '../core/errors';
import type { ApiEnv } from './context';

/** JSON bodies above this are refused before they are read; upload routes set their own limit. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
const PHOTO_BODY_LIMIT = 2 * 1024 * 1024;
/** A device file of a long workout (a 12-hour GPX with heart rate runs to tens of MB), plus multipart framing. */
export const WORKOUT_FILE_BODY_LIMIT = 32 * 1024 * 1024;
const WORKOUT_FILE_PATH = '/device/file_import';
/** A zip of many device files (a Strava or Garmin export); its import checks the archive itself. */
export const BULK_IMPORT_BODY_LIMIT = 200 * 1024 * 1024;
const BULK_IMPORT_PATH = '/device/bulk_import';
/** Resumable uploads: tus sends a file's bytes (all or part of them) as application/offset+octet-stream. */
const RESUMABLE_UPLOAD_PATH = '/api/workout_uploads';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const ACCEPTED_BODY_TYPES = ['application/json', 'multipart/form-data', 'application/x-www-form-urlencoded'];

/**
 * A body must say what it is. Refusing text/plain also closes the cross-site "simple request"
 * hole that Origin checks alone miss on JSON endpoints. A request without a body (a DELETE from
 * a browser or `curl -X DELETE`) has nothing to describe and passes, whatever its method.
 */
export const requireKnownBodyType: MiddlewareHandler<ApiEnv> = async (c, next) => {
	if (BODY_METHODS.has(c.req.method) && carriesBody(c)) {
		const type = (c.req.header('content-type') ?? '').split(';')[0].trim().toLowerCase();
		const isOctetUpload =
			type === 'application/octet-stream' &&
			(c.req.path.includes('/upload') ||
				c.req.path.includes(WORKOUT_FILE_PATH) ||
				c.req.path.includes(BULK_IMPORT_PATH));
		const isTusUpload =
			type === 'application/offset+octet-stream' && c.req.path.startsWith(RESUMABLE_UPLOAD_PATH);
		if (!ACCEPTED_BODY_TYPES.includes(type) && !isOctetUpload && !isTusUpload) {
			throw new AppError(
				'unsupported_media_type',
				`Content-Type ${type || '(none)'} is not accepted; send application/json`,
			);
		}
	}
	await next();
};

/**
 * Over HTTP/1.x a request has a body exactly when it says Content-Length (above 0) or
 * Transfer-Encoding (RFC 9112 §6.3), read from Node's own request since the Request built from it
 * drops Transfer-Encoding. The Node adapter hands every non-GET request a body stream, empty or
 * not, so the stream alone cannot tell; it can for in-process calls and HTTP/2.
 */
function carriesBody(c: Context<ApiEnv>): boolean {
	const incoming = (c.env as { incoming?: NodeRequestFraming } | undefined)?.incoming;
	if (incoming?.httpVersionMajor === 1) {
		const { 'content-length': length, 'transfer-encoding': encoding } = incoming.headers;
		return encoding !== undefined || (length !== undefined && length.trim() !== '0');
	}
	const length = c.req.header('content-length');
	if (length !== undefined) return length.trim() !== '0';
	return c.req.raw.body !== null;
}

/** The part of @hono/node-server's `incoming` (a Node IncomingMessage) that says how a body is framed. */
type NodeRequestFraming = {
	httpVersionMajor: number;
	headers: { 'content-length'?: string; 'transfer-encoding'?: string };
};

const defaultLimit = bodyLimit({
	maxSize: DEFAULT_BODY_LIMIT,
	onError: () => {
		throw new AppError('payload_too_large', `The request body is larger than ${DEFAULT_BODY_LIMIT} bytes`);
	},
});

// Photos may be up to 1,000,000 bytes plus multipart framing; the photo endpoint itself answers
// 'too-big' past 1,000,000 bytes, so the member sees the product's own message.
const photoLimit = bodyLimit({
	maxSize: PHOTO_BODY_LIMIT,
	onError: () => {
		throw new AppError('payload_too_large', 'The photo is larger than 1,000,000 bytes', {
			detail: 'too-big',
		});
	},
});

// Workout photos: 12 MB each plus multipart framing; the endpoint words the refusal itself.
const workoutPhotoLimit = bodyLimit({
	maxSize: 13 * 1024 * 1024,
	onError: () => {
		throw new AppError('payload_too_large', 'A photo may be at most 12 MB.', { detail: 'too-big' });
	},
});
const WORKOUT_PHOTO_PATH = /\/workout\/\d+\/photo\/?$/;

const workoutFileLimit = bodyLimit({
	maxSize: WORKOUT_FILE_BODY_LIMIT,
	onError: () => {
		throw new AppError(
			'payload_too_large',
			`The file is larger than ${WORKOUT_FILE_BODY_LIMIT / 1024 / 1024} MB, more than we accept.`,
			{ detail: 'file_too_large' },
		);
	},
});

const bulkImportLimit = bodyLimit({
	maxSize: BULK_IMPORT_BODY_LIMIT,
	onError: () => {
		throw new AppError(
			'payload_too_large',
			`The zip is larger than ${BULK_IMPORT_BODY_LIMIT / 1024 / 1024} MB; split the export into smaller zips.`,
			{ detail: 'file_too_large' },
		);
	},
});

/**
 * Only methods that carry a body: the limit reads `raw.body`, which makes the Node adapter build a
 * full Request, a cost every GET would otherwise pay.
 */
export const limitBodySize: MiddlewareHandler<ApiEnv> = (c, next) => {
	if (!BODY_METHODS.has(c.req.method)) return next();
	if (c.req.path.includes('/user_profile_photo/')) return photoLimit(c, next);
	if (c.req.path.includes(WORKOUT_FILE_PATH) || c.req.path.startsWith(RESUMABLE_UPLOAD_PATH))
		return workoutFileLimit(c, next);
	if (c.req.path.includes(BULK_IMPORT_PATH)) return bulkImportLimit(c, next);
	if (WORKOUT_PHOTO_PATH.test(c.req.path)) return workoutPhotoLimit(c, next);
	return defaultLimit(c, next);
};
