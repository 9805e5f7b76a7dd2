import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { and, eq, sql } from 'drizzle-orm';
import { users } from '../../auth/server/tables';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../../core/server/deps';
import { attachmentDisposition, withoutExtension } from '../../core/server/downloads';
import { detectFormat, isWorkoutFileError, writeFit, writeGpx, writeTcx } from '../../workout-files';
import { fileActivityType, trimSamples, workoutFromSamples } from '../analysis';
import type { WorkoutCutInput, WorkoutExportFormat } from '../contract';
import { heldBackNotice } from '../held-back';
import { canEdit } from '../policy';
import { decodeSeries, previewSeriesOf, type SeriesSample, segmentStartsOf } from '../series';
import { activityTypeGroup } from './activity-types';
import { deriveFromFile } from './derive-file';
import { recordingForViewer } from './recording';
import {
	followWorkoutChange,
	getVisibleWorkout,
	getWorkoutSeries,
	type UpdateOutcome,
	type WorkoutWithOwner,
} from './service';
import { type StoredLap, workoutOriginals, workoutSeries, workouts } from './tables';

type Viewer = { id: number } | null;
type Deps = Pick<AppDeps, 'db' | 'clock'>;

export type WorkoutForPage = {
	workout: WorkoutWithOwner;
	isOwner: boolean;
	samples: SeriesSample[];
	laps: StoredLap[];
	/** Where each segment of the recording starts (sample indices, the first 0). */
	segmentStarts: number[];
};

/** A workout and its recording for the detail pages, or null when the viewer may not see it. */
export async function loadWorkoutForPage(
	deps: Deps,
	viewer: Viewer,
	id: number,
): Promise<WorkoutForPage | null> {
	let workout: WorkoutWithOwner;
	try {
		workout = await getVisibleWorkout(deps, viewer, id);
	} catch (error) {
		if (error instanceof AppError && error.code === 'not_found') return null;
		throw error;
	}
	const stored = await getWorkoutSeries(deps, workout.id);
	const recording = stored ? await recordingForViewer(deps, workout, stored, viewer) : null;
	return {
		workout,
		isOwner: canEdit(viewer, workout),
		samples: recording?.samples ?? [],
		laps: recording?.laps ?? [],
		segmentStarts: recording?.segmentStarts ?? [0],
	};
}

const noRecording = () =>
	new AppError(
		'unprocessable',
		'This workout has no recorded samples, so there is nothing to cut or download.',
		{
			detail: 'no_time_series',
		},
	);

/** The sport the metrics and writers use for a workout's activity type. */
function fileTypeOf(workout: WorkoutWithOwner) {
	return fileActivityType(activityTypeGroup(workout.activityTypeId));
}

/**
 * Keeps the part of a recording between two offsets: the start moves to the first kept sample, the
 * aggregates are measured again from the kept samples by the product's metrics, and the version
 * goes up. With an expected version the cut happens only if nobody saved in between.
 */
export async function cutWorkout(
	deps: Deps,
	viewer: Viewer,
	id: number,
	input: WorkoutCutInput,
): Promise<UpdateOutcome> {
	if (!viewer) throw new AppError('unauthenticated', 'Sign in to cut a workout');
	const workout = await getVisibleWorkout(deps, viewer, id);
	// Someone else's workout answers 404, as for one that does not exist.
	if (!canEdit(viewer, workout)) throw new AppError('not_found', 'No such workout');
	// Cutting measures the track again, and the track is not ours to use before consent.
	if (workout.heldBack.length)
		throw new AppError('conflict', `${heldBackNotice(workout.heldBack)} Cut it once it is back.`, {
			detail: 'held_for_consent',
		});
	const stored = await getWorkoutSeries(deps, workout.id);
	if (!stored || stored.series.t.length === 0) throw noRecording();
	const cut = trimSamples(
		decodeSeries(stored.series),
		stored.laps,
		input.start_offset_s,
		input.end_offset_s,
		segmentStartsOf(stored.series),
	);
	if (cut.samples.length < 2)
		throw new AppError('unprocessable', 'Keep at least two recorded samples between the new start and end.', {
			detail: 'cut_too_short',
		});
	const [owner] = await deps.db
		.select({ weightKg: users.weightKg })
		.from(users)
		.where(eq(users.id, workout.ownerId));
	const file = workoutFromSamples(cut.samples, {
		startMs: workout.startDatetime.getTime() + cut.shiftMs,
		activityType: fileTypeOf(workout),
		laps: cut.laps,
		segmentStarts: cut.segmentStarts,
	});
	const derived = deriveFromFile(file, owner?.weightKg ?? null);
	if (!derived) throw noRecording();
	// Only what the samples decide changes; name, notes, source and origin stay the member's.
	const { series, laps, source: _source, origin: _origin, notes: _notes, ...measured } = derived;
	const conditions = [eq(workouts.id, workout.id), eq(workouts.ownerId, workout.ownerId)];
	if (input.version !== undefined) conditions.push(eq(workouts.version, input.version));
	const done = await deps.db.transaction(async (tx) => {
		const updated = await tx
			.update(workouts)
			.set({
				...measured,
				sampleCount: series.t.length,
				previewSeries: previewSeriesOf(series),
				// A cut recording is no longer the file it came from: importing that file again is allowed.
				contentHash: null,
				version: sql`${workouts.version} + 1`,
				updatedAt: deps.clock(),
			})
			.where(and(...conditions))
			.returning({ id: workouts.id });
		if (updated.length === 0) return false;
		await tx.update(workoutSeries).set({ series, laps }).where(eq(workoutSeries.workoutId, workout.id));
		return true;
	});
	if (done) await followWorkoutChange(deps, workout.ownerId);
	const fresh = await getVisibleWorkout(deps, viewer, id);
	return done ? { ok: true, workout: fresh } : { ok: false, current: fresh };
}

const EXPORT_TYPES: Record<WorkoutExportFormat, string> = {
	gpx: 'application/gpx+xml',
	tcx: 'application/vnd.garmin.tcx+xml',
	fit: 'application/vnd.ant.fit',
};

/** A plain file name from the workout's name: letters, digits and dashes. */
export function exportFileName(name: string, id: number, format: WorkoutExportFormat): string {
	const base = name
		.normalize('NFKD')
		.replace(/[^A-Za-z0-9]+/g, '-')
		.replace(/^-+|-+$/g, '')
		.slice(0, 60);
	return `${base || `workout-${id}`}.${format}`;
}

/** A file to download: `fileName` is ASCII and safe in a path, `disposition` its download header. */
export type WorkoutDownload = {
	body: string | Uint8Array;
	contentType: string;
	fileName: string;
	disposition: string;
};

/** A recorded workout as a GPX, TCX or FIT file, for whoever may see it. */
export async function exportWorkout(
	deps: Deps,
	viewer: Viewer,
	id: number,
	format: WorkoutExportFormat,
): Promise<WorkoutDownload> {
	const workout = await getVisibleWorkout(deps, viewer, id);
	const stored = await getWorkoutSeries(deps, workout.id);
	if (!stored || stored.series.t.length === 0) throw noRecording();
	// Anyone but the owner downloads only the part of the recording they may see.
	const recording = await recordingForViewer(deps, workout, stored, viewer);
	const samples = recording.samples.filter((_, i) => !recording.hidden[i]);
	if (samples.length < 2) throw noRecording();
	const first = recording.hidden.indexOf(false);
	// The file keeps the recording's breaks, counted among the samples it holds.
	const keptBefore: number[] = [];
	let kept = 0;
	recording.hidden.forEach((hidden, i) => {
		keptBefore[i] = kept;
		if (!hidden) kept++;
	});
	const segmentStarts = [
		0,
		...new Set(
			recording.segmentStarts.map((start) => keptBefore[start]).filter((start) => start > 0 && start < kept),
		),
	];
	const file = workoutFromSamples(samples, {
		startMs: workout.startDatetime.getTime(),
		activityType: fileTypeOf(workout),
		name: workout.name,
		laps: first > 0 ? [] : stored.laps,
		segmentStarts,
	});
	let body: string | Uint8Array;
	try {
		body = format === 'gpx' ? writeGpx(file) : format === 'tcx' ? writeTcx(file) : writeFit(file);
	} catch (error) {
		if (isWorkoutFileError(error))
			throw new AppError('unprocessable', error.message, { detail: 'cannot_write' });
		throw error;
	}
	return {
		body,
		contentType: EXPORT_TYPES[format],
		fileName: exportFileName(workout.name, workout.id, format),
		disposition: attachmentDisposition(workout.name, format, `workout-${workout.id}`),
	};
}

const gunzipAsync = promisify(gunzip);

/** Whether the owner can download the file this workout was imported from. */
export async function hasOriginalFile(deps: Deps, workoutId: number): Promise<boolean> {
	const [row] = await deps.db
		.select({ id: workoutOriginals.workoutId })
		.from(workoutOriginals)
		.where(eq(workoutOriginals.workoutId, workoutId));
	return row !== undefined;
}

/**
 * The file as the owner uploaded it, under its own name. Only the owner gets it: it holds the
 * whole track, ends and privacy zones included. Anyone else gets the same 404 as for no file.
 */
export async function originalFile(deps: Deps, viewer: Viewer, id: number): Promise<WorkoutDownload> {
	const workout = await getVisibleWorkout(deps, viewer, id);
	const [row] = canEdit(viewer, workout)
		? await deps.db.select().from(workoutOriginals).where(eq(workoutOriginals.workoutId, workout.id))
		: [];
	if (!row) throw new AppError('not_found', 'This workout has no uploaded file to download.');
	const content = new Uint8Array(await gunzipAsync(Buffer.from(row.contentGzipBase64, 'base64')));
	const format = detectFormat(content);
	const extension = format === 'gzip' ? 'gz' : format === 'unknown' ? 'bin' : format;
	// Named by what the bytes are, never by the extension the uploaded name brought along.
	const words = withoutExtension(row.fileName);
	const plain = words
		.normalize('NFKD')
		.replace(/[^A-Za-z0-9._-]+/g, '-')
		.replace(/^[-.]+|[-.]+$/g, '')
		.slice(0, 100);
	return {
		body: content,
		contentType: 'application/octet-stream',
		fileName: `${plain || `workout-${workout.id}`}.${extension}`,
		disposition: attachmentDisposition(words, extension, `workout-${workout.id}`),
	};
}
