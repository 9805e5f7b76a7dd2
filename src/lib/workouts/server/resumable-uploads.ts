import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';
import {
	ERRORS,
	type Lock,
	type Locker,
	MemoryLocker,
	type RequestRelease,
	Server,
	type Upload,
} from '@tus/server';
import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import * as v from 'valibot';
import { WORKOUT_FILE_BODY_LIMIT } from '../../api/body';
import { formatApiDateTime } from '../../core/dates';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../../core/server/deps';
import { diskFullError, isDiskFull } from '../../core/server/member-files';
import { isDatabaseUnavailable } from '../../db/errors';
import {
	WORKOUT_UPLOADS_PATH,
	type WorkoutUploadMetadata,
	WorkoutUploadMetadataSchema,
	type WorkoutUploadView,
} from '../contract';
import { hasUnknownTimes, UNKNOWN_TIMES_NOTICE } from '../unknown-times';
import { type CreateOutcome, importWorkoutFile } from './service';
import { workouts, workoutUploads } from './tables';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'logger'>;
type UploadRow = typeof workoutUploads.$inferSelect;

/**
 * An unfinished upload may be resumed for a day (a member on a train, a laptop closed overnight);
 * then its bytes leave the disk. A finished upload's outcome is kept as long, for a client that
 * lost the answer.
 */
export const UPLOAD_EXPIRY_MS = 24 * 3600 * 1000;
/** Unfinished uploads one member may have at once: each may hold up to the upload cap on disk. */
export const MAX_OPEN_UPLOADS = 10;
/**
 * How long a request may hold an upload without renewing its claim. A process killed while writing
 * lets the upload go this long after; a live holder renews every third of it.
 */
const LOCK_LEASE_MS = 10_000;
/** How long a request waits for another request (here or in another process) to let go of an upload. */
const LOCK_WAIT_MS = 15_000;
/** How long one import may hold a finished upload before another request may take it over. */
const IMPORT_LEASE_MS = 120_000;

export function resumableUploadFolder(config: Pick<Deps['config'], 'dataDir'>): string {
	return path.resolve(config.dataDir, 'uploads', 'resumable');
}

/** What a tus hook needs of the request that called it: tus hands hooks only the Request. */
type RequestContext = {
	deps: Deps;
	ownerId: number;
	refusal?: AppError;
	/** The upload this request began, if it began one. */
	created?: string;
	/** An upload this request imported: its files leave the disk once tus has answered (it reads them). */
	settled?: string;
};
const requestContexts = new WeakMap<Request, RequestContext>();

/** The refusal a hook throws: tus answers it, and the API's error mapper words it (see `refusalOf`). */
function refuse(request: Request, error: AppError): never {
	const context = requestContexts.get(request);
	if (context) context.refusal = error;
	throw { status_code: error.status, body: error.message };
}

/** The AppError a hook refused this request with, if one did. */
export function refusalOf(request: Request): AppError | undefined {
	return requestContexts.get(request)?.refusal;
}

/**
 * The write lock of an upload, held by one request at a time across every process: a row lease
 * that the holder renews, behind tus's own in-process lock (which asks a stalled request in this
 * process to let go at once, as when a client reconnects after a drop).
 */
const LOCKED = {
	status_code: 423,
	body: 'This upload is being written by another request; try again shortly.',
};

class UploadLock implements Lock {
	private token: string | null = null;
	private renewal: NodeJS.Timeout | undefined;

	constructor(
		private readonly id: string,
		private readonly deps: Deps,
		private readonly local: Lock,
	) {}

	async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
		try {
			await this.local.lock(signal, requestRelease);
		} catch (error) {
			// tus calls a lock wait that runs out a 500; it is the client's cue to try again.
			if (error === ERRORS.ERR_LOCK_TIMEOUT) throw LOCKED;
			throw error;
		}
		const token = randomUUID();
		const deadline = Date.now() + LOCK_WAIT_MS;
		try {
			for (;;) {
				const now = this.deps.clock();
				const taken = await this.deps.db
					.update(workoutUploads)
					.set({ lockToken: token, lockedUntil: new Date(now.getTime() + LOCK_LEASE_MS) })
					.where(
						and(
							eq(workoutUploads.id, this.id),
							or(isNull(workoutUploads.lockToken), lt(workoutUploads.lockedUntil, now)),
						),
					)
					.returning({ id: workoutUploads.id });
				if (taken.length > 0) break;
				if (signal.aborted || Date.now() > deadline) throw LOCKED;
				await new Promise((resolve) => setTimeout(resolve, 200));
			}
		} catch (error) {
			await this.local.unlock();
			throw error;
		}
		this.token = token;
		this.renewal = setInterval(() => {
			void this.deps.db
				.update(workoutUploads)
				.set({ lockedUntil: new Date(this.deps.clock().getTime() + LOCK_LEASE_MS) })
				.where(and(eq(workoutUploads.id, this.id), eq(workoutUploads.lockToken, token)))
				.catch(() => {});
		}, LOCK_LEASE_MS / 3);
		this.renewal.unref();
	}

	async unlock(): Promise<void> {
		clearInterval(this.renewal);
		const token = this.token;
		this.token = null;
		try {
			if (token)
				await this.deps.db
					.update(workoutUploads)
					.set({ lockToken: null, lockedUntil: null })
					.where(and(eq(workoutUploads.id, this.id), eq(workoutUploads.lockToken, token)));
		} finally {
			await this.local.unlock();
		}
	}
}

/**
 * FileStore turns every failed write into one "something went wrong" 500, losing why. This write is
 * FileStore's own, except that a full disk is thrown as itself, so the member hears 507 and comes
 * back later; the bytes that fitted stay, and HEAD tells the client where to resume.
 */
class DiskAwareFileStore extends FileStore {
	/** An upload begun without room leaves nothing behind: neither its empty file nor its record. */
	override async create(upload: Upload): Promise<Upload> {
		try {
			return await super.create(upload);
		} catch (error) {
			await Promise.all(
				[upload.id, `${upload.id}.json`].map((name) => rm(path.join(this.directory, name), { force: true })),
			);
			throw isDiskFull(error) ? error : ERRORS.FILE_WRITE_ERROR;
		}
	}

	override async write(readable: Readable, id: string, offset: number): Promise<number> {
		const file = createWriteStream(path.join(this.directory, id), { flags: 'r+', start: offset });
		let received = 0;
		const counted = new Transform({
			transform(chunk: Buffer, _encoding, callback) {
				received += chunk.length;
				callback(null, chunk);
			},
		});
		try {
			await pipeline(readable, counted, file);
		} catch (error) {
			throw isDiskFull(error) ? error : ERRORS.FILE_WRITE_ERROR;
		}
		return offset + received;
	}
}

const receivers = new Map<string, Server>();

/**
 * The tus server of a data folder: partial files and their tus records live in
 * DATA_DIR/uploads/resumable, which every process on the machine shares; who may touch an upload
 * and what becomes of it live in `workout_uploads`.
 */
function receiverFor(deps: Deps): Server {
	const folder = resumableUploadFolder(deps.config);
	const existing = receivers.get(folder);
	if (existing) return existing;
	mkdirSync(folder, { recursive: true, mode: 0o700 });
	const store = new DiskAwareFileStore({
		directory: folder,
		expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS,
	});
	const local = new MemoryLocker({ acquireLockTimeout: LOCK_WAIT_MS });
	const server = new Server({
		path: WORKOUT_UPLOADS_PATH.replace(/\/$/, ''),
		datastore: store,
		maxSize: WORKOUT_FILE_BODY_LIMIT,
		relativeLocation: true,
		// Only this site's own pages; bearer tokens are never sent cross-site by a browser on its own.
		allowedOrigins: [new URL(deps.config.publicUrl).origin],
		locker: (request) => {
			const context = requestContexts.get(request as unknown as Request);
			if (!context) return local;
			return {
				newLock: (id: string) => new UploadLock(id, context.deps, local.newLock(id)),
			} satisfies Locker;
		},
		// tus answers a failed write 500; a full disk is the member's cue to come back later (507).
		onResponseError: (request, error) => {
			if (!isDiskFull(error)) return undefined;
			const refusal = diskFullError();
			const context = requestContexts.get(request as unknown as Request);
			if (context) context.refusal = refusal;
			return { status_code: refusal.status, body: refusal.message };
		},
		onUploadCreate: async (request, upload) => {
			await recordNewUpload(request as unknown as Request, upload);
			return {};
		},
		onUploadFinish: async (request, upload) => {
			const context = requestContexts.get(request as unknown as Request);
			// The bytes are safe on disk: the import's outcome is read with GET, so a lost answer costs nothing.
			if (context) {
				const finished = await finishUpload(context.deps, upload.id, { keepFiles: true }).catch((error) => {
					context.deps.logger.warn({ err: error, upload: upload.id }, 'upload import put off');
					return null;
				});
				if (finished && isFinished(finished)) context.settled = upload.id;
			}
			return {};
		},
	});
	receivers.set(folder, server);
	return server;
}

/**
 * Hands a tus request (creation, HEAD, PATCH, DELETE) to the receiver for a member who is allowed
 * it; the caller has checked that an upload named in the URL is the member's own. OPTIONS, which
 * only describes the server, comes without a member.
 */
export async function receiveUploadRequest(
	deps: Deps,
	ownerId: number | null,
	request: Request,
): Promise<Response> {
	const context: RequestContext | null = ownerId === null ? null : { deps, ownerId };
	if (context) requestContexts.set(request, context);
	try {
		const answer = await receiverFor(deps).handleWeb(request as never);
		// An upload whose creation found no room is forgotten: nothing of it was kept.
		if (context?.created && context.refusal?.status === 507)
			await forgetUpload(deps, ownerId as number, context.created);
		return answer;
	} finally {
		if (context?.settled) await removeUploadFiles(deps.config, context.settled);
	}
}

/** Validates the metadata and keeps the upload's owner and choices before tus creates its file. */
async function recordNewUpload(request: Request, upload: Upload): Promise<void> {
	const context = requestContexts.get(request);
	if (!context) throw { status_code: 401, body: 'Sign in to upload workouts.' };
	const { deps, ownerId } = context;
	context.created = upload.id;
	if (upload.sizeIsDeferred || upload.size === undefined)
		refuse(
			request,
			new AppError('bad_request', 'Send Upload-Length: a workout file is uploaded at its known size.', {
				detail: 'upload_length_required',
			}),
		);
	const parsed = v.safeParse(WorkoutUploadMetadataSchema, upload.metadata ?? {});
	if (!parsed.success)
		refuse(
			request,
			new AppError('validation_failed', 'The upload metadata is not valid', {
				failures: parsed.issues.map((issue) => ({
					field: `Upload-Metadata.${v.getDotPath(issue) ?? '__all__'}`,
					message: issue.message,
				})),
			}),
		);
	const [open] = await deps.db
		.select({ n: sql<number>`count(*)::int`.mapWith(Number) })
		.from(workoutUploads)
		.where(and(eq(workoutUploads.ownerId, ownerId), eq(workoutUploads.status, 'receiving')));
	if ((open?.n ?? 0) >= MAX_OPEN_UPLOADS)
		refuse(
			request,
			new AppError(
				'rate_limited',
				`You have ${MAX_OPEN_UPLOADS} uploads under way; finish or cancel one before starting another.`,
				{ detail: 'uploads_under_way' },
			),
		);
	const { filename, idempotency_key, ...choices } = parsed.output as WorkoutUploadMetadata;
	const now = deps.clock();
	await deps.db.insert(workoutUploads).values({
		id: upload.id,
		ownerId,
		size: upload.size as number,
		fileName: filename,
		choices: Object.fromEntries(Object.entries(choices).filter(([, value]) => value !== undefined)),
		idempotencyKey: idempotency_key ?? null,
		createdAt: now,
		expiresAt: new Date(now.getTime() + UPLOAD_EXPIRY_MS),
	});
}

/** The member's own upload, or null: someone else's answers as if it did not exist. */
export async function findOwnUpload(
	deps: Pick<Deps, 'db'>,
	ownerId: number,
	id: string,
): Promise<UploadRow | null> {
	const [row] = await deps.db
		.select()
		.from(workoutUploads)
		.where(and(eq(workoutUploads.id, id), eq(workoutUploads.ownerId, ownerId)));
	return row ?? null;
}

/** Bytes of an upload on disk; null when its file is gone. */
async function bytesOnDisk(deps: Deps, id: string): Promise<number | null> {
	try {
		return (await stat(path.join(resumableUploadFolder(deps.config), id))).size;
	} catch {
		return null;
	}
}

/** Removes an upload's file and tus record; nothing to remove is fine. */
async function removeUploadFiles(config: Pick<Deps['config'], 'dataDir'>, id: string): Promise<void> {
	const folder = resumableUploadFolder(config);
	await rm(path.join(folder, id), { force: true });
	await rm(path.join(folder, `${id}.json`), { force: true });
}

/** Errors that say nothing about the file: the import is tried again on the next request. */
function isPassing(error: unknown): boolean {
	return (
		isDatabaseUnavailable(error) ||
		(error instanceof AppError && (error.code === 'unavailable' || error.code === 'conflict'))
	);
}

/**
 * Imports a finished upload through the workouts' one import path, once: the request that claims
 * the upload reads the file (on the parse pool) while any other (a retry, another process) finds
 * it claimed. The upload's Idempotency-Key goes with it, so an import repeated after a process died
 * mid-way answers with the workout the first one stored. Answers the upload as it then stands.
 * `keepFiles` leaves the upload's files for the caller to remove, when tus still reads them.
 */
export async function finishUpload(
	deps: Deps,
	id: string,
	options: { keepFiles?: boolean } = {},
): Promise<UploadRow | null> {
	const now = deps.clock();
	const [claimed] = await deps.db
		.update(workoutUploads)
		.set({ status: 'importing', importUntil: new Date(now.getTime() + IMPORT_LEASE_MS) })
		.where(
			and(
				eq(workoutUploads.id, id),
				or(
					eq(workoutUploads.status, 'receiving'),
					and(eq(workoutUploads.status, 'importing'), lt(workoutUploads.importUntil, now)),
				),
			),
		)
		.returning();
	if (!claimed) return currentUpload(deps, id);
	const release = () =>
		deps.db
			.update(workoutUploads)
			.set({ status: 'receiving', importUntil: null })
			.where(and(eq(workoutUploads.id, id), eq(workoutUploads.status, 'importing')));
	if ((await bytesOnDisk(deps, id)) !== claimed.size) {
		await release();
		return currentUpload(deps, id);
	}
	let outcome: CreateOutcome;
	try {
		const bytes = new Uint8Array(await readFile(path.join(resumableUploadFolder(deps.config), id)));
		outcome = await importWorkoutFile(
			deps,
			{ id: claimed.ownerId },
			bytes,
			{ ...claimed.choices, fileName: claimed.fileName },
			claimed.idempotencyKey ?? `upload-${id}`,
		);
	} catch (error) {
		if (!(error instanceof AppError) || isPassing(error)) {
			await release();
			throw error;
		}
		await settle(
			deps,
			id,
			{
				status: 'refused',
				refusal: { status: error.status, error: error.detail ?? error.code, message: error.message },
			},
			options.keepFiles,
		);
		return currentUpload(deps, id);
	}
	await settle(
		deps,
		id,
		outcome.created
			? { status: 'imported', workoutId: outcome.workout.id }
			: { status: 'duplicate', workoutId: outcome.existing.id },
		options.keepFiles,
	);
	return currentUpload(deps, id);
}

async function settle(
	deps: Deps,
	id: string,
	change: Pick<Partial<UploadRow>, 'status' | 'workoutId' | 'refusal'>,
	keepFiles = false,
): Promise<void> {
	await deps.db
		.update(workoutUploads)
		.set({ ...change, importUntil: null })
		.where(and(eq(workoutUploads.id, id), eq(workoutUploads.status, 'importing')));
	// The workout keeps its own copy of the file; the upload's leaves the disk.
	if (!keepFiles) await removeUploadFiles(deps.config, id);
}

async function currentUpload(deps: Pick<Deps, 'db'>, id: string): Promise<UploadRow | null> {
	const [row] = await deps.db.select().from(workoutUploads).where(eq(workoutUploads.id, id));
	return row ?? null;
}

const FINISHED = new Set(['imported', 'duplicate', 'refused']);

export function isFinished(row: Pick<UploadRow, 'status'>): boolean {
	return FINISHED.has(row.status);
}

/**
 * The upload as its owner asks after it. Once every byte is in, asking finishes it (a process that
 * died before importing, or an answer lost mid-import); an import under way elsewhere is waited for
 * up to `waitMs`.
 */
export async function readUpload(
	deps: Deps,
	ownerId: number,
	id: string,
	waitMs = 20_000,
): Promise<WorkoutUploadView> {
	let row = await findOwnUpload(deps, ownerId, id);
	if (!row) throw new AppError('not_found', 'No such upload');
	const deadline = Date.now() + waitMs;
	for (;;) {
		if (row.status === 'receiving' && (await bytesOnDisk(deps, id)) === row.size)
			row = (await finishUpload(deps, id)) ?? row;
		if (row.status !== 'importing' || Date.now() > deadline) break;
		await new Promise((resolve) => setTimeout(resolve, 250));
		row = (await findOwnUpload(deps, ownerId, id)) ?? row;
	}
	return representUpload(deps, row);
}

/** What the member should know of an imported file, in one line: an unset clock first, then the reader's notes. */
function importNotice(workout: Parameters<typeof hasUnknownTimes>[0] & { fileNotes: string[] }): {
	notice?: string;
} {
	const notes = [...(hasUnknownTimes(workout) ? [UNKNOWN_TIMES_NOTICE] : []), ...workout.fileNotes];
	return notes.length > 0 ? { notice: notes.join(' ') } : {};
}

async function representUpload(deps: Deps, row: UploadRow): Promise<WorkoutUploadView> {
	const href = `${WORKOUT_UPLOADS_PATH}${row.id}`;
	const [workout] = row.workoutId
		? await deps.db
				.select({
					id: workouts.id,
					name: workouts.name,
					origin: workouts.origin,
					sampleCount: workouts.sampleCount,
					distanceTotal: workouts.distanceTotal,
					elapsedTimeTotal: workouts.elapsedTimeTotal,
					fileNotes: workouts.fileNotes,
					heldBack: workouts.heldBack,
				})
				.from(workouts)
				.where(eq(workouts.id, row.workoutId))
		: [];
	return {
		id: row.id,
		status: row.status,
		size: row.size,
		offset: isFinished(row) ? row.size : ((await bytesOnDisk(deps, row.id)) ?? 0),
		file_name: row.fileName,
		created_datetime: formatApiDateTime(row.createdAt),
		expires_datetime: formatApiDateTime(row.expiresAt),
		...(workout
			? {
					workout: {
						id: workout.id,
						name: workout.name,
						...importNotice(workout),
						...(workout.heldBack.length ? { held_back: workout.heldBack } : {}),
					},
				}
			: {}),
		...(row.refusal ? { refusal: row.refusal } : {}),
		_links: {
			self: [{ href, id: row.id }],
			...(workout ? { workout: [{ href: `/v7.1/workout/${workout.id}/`, id: String(workout.id) }] } : {}),
		},
	};
}

/** Forgets an upload the member cancelled (tus has removed its file). */
export async function forgetUpload(deps: Pick<Deps, 'db'>, ownerId: number, id: string): Promise<void> {
	await deps.db
		.delete(workoutUploads)
		.where(and(eq(workoutUploads.id, id), eq(workoutUploads.ownerId, ownerId)));
}

/**
 * Removes what no client can use any more: uploads past their expiry (unfinished ones with their
 * bytes, finished ones' outcomes), and files in the upload folder that no upload names (a member
 * deleted, a process stopped between writing a file and its row). Runs at start and every hour.
 */
export async function sweepWorkoutUploads(deps: Deps): Promise<{ expired: number; orphans: number }> {
	const expired = await deps.db
		.delete(workoutUploads)
		.where(lt(workoutUploads.expiresAt, deps.clock()))
		.returning({ id: workoutUploads.id });
	for (const { id } of expired) await removeUploadFiles(deps.config, id);
	let names: string[];
	try {
		names = await readdir(resumableUploadFolder(deps.config));
	} catch {
		return { expired: expired.length, orphans: 0 };
	}
	const ids = [...new Set(names.map((name) => name.replace(/\.json$/, '')))];
	let orphans = 0;
	for (let start = 0; start < ids.length; start += 500) {
		const batch = ids.slice(start, start + 500);
		const kept = await deps.db
			.select({ id: workoutUploads.id })
			.from(workoutUploads)
			.where(and(inArray(workoutUploads.id, batch), eq(workoutUploads.status, 'receiving')));
		const known = new Set(kept.map((row) => row.id));
		for (const id of batch)
			if (!known.has(id) && !(await isImporting(deps, id))) {
				await removeUploadFiles(deps.config, id);
				orphans++;
			}
	}
	return { expired: expired.length, orphans };
}

async function isImporting(deps: Pick<Deps, 'db'>, id: string): Promise<boolean> {
	return (await currentUpload(deps, id))?.status === 'importing';
}

/** Every upload file of a member, for account deletion (their rows go with the member). */
export async function removeMemberUploadFiles(
	deps: Pick<Deps, 'db' | 'config'>,
	ownerId: number,
): Promise<void> {
	const rows = await deps.db
		.select({ id: workoutUploads.id })
		.from(workoutUploads)
		.where(eq(workoutUploads.ownerId, ownerId));
	for (const { id } of rows) await removeUploadFiles(deps.config, id);
}
