import { randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { formatApiDateTime } from '../../core/dates';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../../core/server/deps';
import { ImageRefused, reencodeImage } from '../../core/server/images';
import { writeMemberFiles } from '../../core/server/member-files';
import { WORKOUT_PHOTO_MAX_BYTES, WORKOUT_PHOTOS_PER_WORKOUT, type WorkoutPhotoSize } from '../contract';
import { workoutPhotoFolder } from './photo-files';
import { getOwnWorkout, getVisibleWorkout } from './service';
import { workoutPhotos } from './tables';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'config'>;
type Viewer = { id: number } | null;

/** A 50-megapixel phone photo is the largest we decode; anything bigger is refused unread. */
const PHOTO_MAX_PIXELS = 60_000_000;
const SIZES = {
	large: { edge: 1600, fit: 'inside' },
	thumbnail: { edge: 320, fit: 'cover' },
} as const;

export type WorkoutPhotoRow = typeof workoutPhotos.$inferSelect;

/** A photo as the API and the workout page show it (MapMyFitness calls photos attachments). */
export function representWorkoutPhoto(workoutId: number, photo: WorkoutPhotoRow) {
	const file = (size: WorkoutPhotoSize) => `/workout/${workoutId}/photo/${photo.id}?size=${size}`;
	return {
		id: photo.id,
		object_type: 'photo',
		status: 'READY',
		uri: file('large'),
		thumbnail_uri: file('thumbnail'),
		width: photo.width,
		height: photo.height,
		created_datetime: formatApiDateTime(photo.createdAt),
		_links: { self: [{ href: `/v7.1/workout/${workoutId}/photo/${photo.id}/`, id: String(photo.id) }] },
	};
}

/**
 * Adds a photo to the member's own workout: checked by its bytes, decoded under a pixel cap and
 * re-encoded, so the location in the camera's EXIF never reaches anyone else.
 */
export async function addWorkoutPhoto(deps: Deps, viewer: Viewer, workoutId: number, bytes: Uint8Array) {
	const workout = await getOwnWorkout(deps, viewer, workoutId);
	if (bytes.byteLength > WORKOUT_PHOTO_MAX_BYTES)
		throw new AppError('payload_too_large', 'A photo may be at most 12 MB.', { detail: 'too-big' });
	const [{ photos }] = await deps.db
		.select({ photos: count() })
		.from(workoutPhotos)
		.where(eq(workoutPhotos.workoutId, workout.id));
	if (photos >= WORKOUT_PHOTOS_PER_WORKOUT)
		throw new AppError('conflict', `A workout holds at most ${WORKOUT_PHOTOS_PER_WORKOUT} photos.`, {
			detail: 'too-many-photos',
		});
	let image: Awaited<ReturnType<typeof reencodeImage<keyof typeof SIZES>>>;
	try {
		image = await reencodeImage(bytes, PHOTO_MAX_PIXELS, SIZES);
	} catch (error) {
		if (!(error instanceof ImageRefused)) throw error;
		if (error.reason === 'too-many-pixels')
			throw new AppError('payload_too_large', 'The photo has too many pixels.', { detail: 'too-big' });
		throw new AppError('unsupported_media_type', 'A photo must be a JPEG, PNG or GIF image.', {
			detail: 'invalid-image-type',
		});
	}
	const stem = randomBytes(12).toString('hex');
	const [row] = await writeMemberFiles(
		workoutPhotoFolder(deps.config, workout.ownerId, workout.id),
		{ [`${stem}-large.jpg`]: image.jpegs.large, [`${stem}-thumbnail.jpg`]: image.jpegs.thumbnail },
		() =>
			deps.db
				.insert(workoutPhotos)
				.values({
					workoutId: workout.id,
					fileStem: stem,
					width: image.width,
					height: image.height,
					bytes: image.jpegs.large.byteLength,
					createdAt: deps.clock(),
				})
				.returning(),
	);
	return representWorkoutPhoto(workout.id, row);
}

/** The photos of a workout the caller has already been allowed to see, oldest first. */
export async function listWorkoutPhotos(
	deps: Pick<AppDeps, 'db'>,
	workoutId: number,
): Promise<WorkoutPhotoRow[]> {
	return deps.db
		.select()
		.from(workoutPhotos)
		.where(eq(workoutPhotos.workoutId, workoutId))
		.orderBy(asc(workoutPhotos.createdAt), asc(workoutPhotos.id));
}

/**
 * How many photos each workout holds and its first `shown`, oldest first, in one query: for lists
 * of workouts the caller has already been allowed to see, such as the activity feed.
 */
export async function photosOfWorkouts(
	deps: Pick<AppDeps, 'db'>,
	workoutIds: number[],
	shown: number,
): Promise<Map<number, { total: number; first: ReturnType<typeof representWorkoutPhoto>[] }>> {
	const found = new Map<number, { total: number; first: ReturnType<typeof representWorkoutPhoto>[] }>();
	if (workoutIds.length === 0) return found;
	const rows = await deps.db
		.select()
		.from(workoutPhotos)
		.where(inArray(workoutPhotos.workoutId, workoutIds))
		.orderBy(asc(workoutPhotos.createdAt), asc(workoutPhotos.id));
	for (const row of rows) {
		const entry = found.get(row.workoutId) ?? { total: 0, first: [] };
		entry.total++;
		if (entry.first.length < shown) entry.first.push(representWorkoutPhoto(row.workoutId, row));
		found.set(row.workoutId, entry);
	}
	return found;
}

export async function removeWorkoutPhoto(deps: Deps, viewer: Viewer, workoutId: number, photoId: number) {
	const workout = await getOwnWorkout(deps, viewer, workoutId);
	const [row] = await deps.db
		.delete(workoutPhotos)
		.where(and(eq(workoutPhotos.id, photoId), eq(workoutPhotos.workoutId, workout.id)))
		.returning();
	if (!row) throw new AppError('not_found', 'No such photo');
	const folder = workoutPhotoFolder(deps.config, workout.ownerId, workout.id);
	for (const size of Object.keys(SIZES))
		await rm(path.join(folder, `${row.fileStem}-${size}.jpg`), { force: true });
}

/** A photo's JPEG for whoever may see its workout; null when there is none for them. */
export async function readWorkoutPhoto(
	deps: Deps,
	viewer: Viewer,
	workoutId: number,
	photoId: number,
	size: WorkoutPhotoSize,
): Promise<{ bytes: Buffer; createdAt: Date } | null> {
	const workout = await getVisibleWorkout(deps, viewer, workoutId).catch((error) => {
		if (error instanceof AppError && error.code === 'not_found') return null;
		throw error;
	});
	if (!workout) return null;
	const [row] = await deps.db
		.select()
		.from(workoutPhotos)
		.where(and(eq(workoutPhotos.id, photoId), eq(workoutPhotos.workoutId, workout.id)));
	if (!row) return null;
	const file = path.join(
		workoutPhotoFolder(deps.config, workout.ownerId, workout.id),
		`${row.fileStem}-${size}.jpg`,
	);
	const bytes = await readFile(file).catch(() => null);
	return bytes ? { bytes, createdAt: row.createdAt } : null;
}

const PHOTO_DONE = { added: 'Added your photos.', removed: 'Removed the photo.' } as const;

/** The note shown after the photo form redirected back to the workout page. */
export function photoDoneMessage(value: string | null): string | null {
	return value && value in PHOTO_DONE ? PHOTO_DONE[value as keyof typeof PHOTO_DONE] : null;
}

/**
 * The workout page's photo forms, which work before any script has loaded: add photos (several at
 * once) or remove one. Photos before a refused one are kept, and the message names the refused one.
 */
export async function handleWorkoutPhotoForm(
	deps: Deps,
	viewer: Viewer,
	workoutId: number,
	form: FormData | null,
): Promise<
	| { ok: true; done: keyof typeof PHOTO_DONE }
	| { ok: false; message: string; status: number; headers?: Record<string, string> }
> {
	const action = form?.get('action');
	if (action === 'add-photos') {
		const files = (form?.getAll('photos') ?? []).filter(
			(entry): entry is File => entry instanceof File && entry.size > 0,
		);
		if (files.length === 0) return { ok: false, message: 'Choose one or more photos to add.', status: 400 };
		for (const [index, file] of files.entries()) {
			try {
				await addWorkoutPhoto(deps, viewer, workoutId, new Uint8Array(await file.arrayBuffer()));
			} catch (error) {
				if (!(error instanceof AppError)) throw error;
				const which = files.length > 1 ? `Photo ${index + 1} of ${files.length}: ` : '';
				return { ok: false, message: `${which}${error.message}`, ...formStatus(error) };
			}
		}
		return { ok: true, done: 'added' };
	}
	if (action === 'remove-photo') {
		const photoId = String(form?.get('photo') ?? '');
		if (!/^\d{1,9}$/.test(photoId)) return { ok: false, message: 'Choose a photo to remove.', status: 400 };
		try {
			await removeWorkoutPhoto(deps, viewer, workoutId, Number(photoId));
		} catch (error) {
			if (error instanceof AppError) return { ok: false, message: error.message, ...formStatus(error) };
			throw error;
		}
		return { ok: true, done: 'removed' };
	}
	return { ok: false, message: 'That form could not be read.', status: 400 };
}

/**
 * A refused photo form answers 400; trouble on our side (a full disk) keeps its own status and
 * Retry-After, so the browser and any proxy know to come back later.
 */
function formStatus(error: AppError): { status: number; headers?: Record<string, string> } {
	return error.status >= 500 ? { status: error.status, headers: error.headers } : { status: 400 };
}
