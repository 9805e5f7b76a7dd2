import { sql } from 'drizzle-orm';
import {
	check,
	doublePrecision,
	index,
	integer,
	jsonb,
	pgTable,
	serial,
	smallint,
	text,
	timestamp,
	uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from '../../auth/server/tables';
import { userGear } from '../../gear/server/tables';
import type { BulkImportStatus } from '../contract';
import type { StoredSeries } from '../series';

/** One lap as a device recorded it; offsets count from the workout's start. */
export type StoredLap = {
	start_offset_s: number | null;
	elapsed_time_total: number | null;
	active_time_total: number | null;
	distance_total: number | null;
	metabolic_energy_total: number | null;
	heartrate_avg: number | null;
	heartrate_max: number | null;
	/** The lap's samples in the series: from `first_sample` up to, not including, `end_sample`. */
	first_sample: number;
	end_sample: number;
};

/**
 * Workouts. Aggregates in SI units (metres, joules, seconds, m/s, bpm, rpm, watts), null when not
 * known. The time series lives in `workout_series` so lists, stats and counts never read it.
 */
export const workouts = pgTable(
	'workouts',
	{
		id: serial('id').primaryKey(),
		ownerId: integer('owner_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		name: text('name').notNull(),
		notes: text('notes').notNull().default(''),
		activityTypeId: integer('activity_type_id').notNull(),
		/** 0 only me, 1 friends, 3 everyone. */
		privacy: integer('privacy').notNull().default(0),
		startDatetime: timestamp('start_datetime', { withTimezone: true }).notNull(),
		/** The IANA zone the workout happened in, for showing its local day and time. */
		startLocaleTimezone: text('start_locale_timezone').notNull().default('UTC'),
		/** Who recorded it: a client's name, or the file format and creator of an import. */
		source: text('source').notNull().default(''),
		/**
		 * The device or coaching feature that recorded it (ua_footpod…, tizen_watch, tizen_ua_watch,
		 * apple_watch, gait_coaching); only the owner is shown it.
		 */
		attribution: text('attribution'),
		/** How it arrived: `manual` (logged or sent as JSON) or `file` (device file import). */
		origin: text('origin').notNull().default('manual'),
		/**
		 * What reading the file noticed and the member should know (a recording cut off, activities left
		 * out, a route read as a track); shown to the owner on the workout page.
		 */
		fileNotes: text('file_notes').array().notNull().default(sql`'{}'::text[]`),
		/**
		 * The processing consents (precise_location, health_data) the owner had not given when this was
		 * stored: what needs them waits in `workout_held_data`, out of every view, until they are given.
		 */
		heldBack: text('held_back').array().notNull().default(sql`'{}'::text[]`),
		distanceTotal: doublePrecision('distance_total'),
		metabolicEnergyTotal: doublePrecision('metabolic_energy_total'),
		activeTimeTotal: doublePrecision('active_time_total'),
		elapsedTimeTotal: doublePrecision('elapsed_time_total'),
		stepsTotal: integer('steps_total'),
		heartrateMin: doublePrecision('heartrate_min'),
		heartrateMax: doublePrecision('heartrate_max'),
		heartrateAvg: doublePrecision('heartrate_avg'),
		speedMin: doublePrecision('speed_min'),
		speedMax: doublePrecision('speed_max'),
		speedAvg: doublePrecision('speed_avg'),
		cadenceMin: doublePrecision('cadence_min'),
		cadenceMax: doublePrecision('cadence_max'),
		cadenceAvg: doublePrecision('cadence_avg'),
		powerMin: doublePrecision('power_min'),
		powerMax: doublePrecision('power_max'),
		powerAvg: doublePrecision('power_avg'),
		sampleCount: integer('sample_count').notNull().default(0),
		/**
		 * A hundred of the recording's positions (`previewSeriesOf`), for thumbnails: the feed draws
		 * them without reading the series. Null for a workout stored before it was kept.
		 */
		previewSeries: jsonb('preview_series').$type<StoredSeries>(),
		/**
		 * How hard the workout felt to its owner, 1 (very easy) to 10 (all out), or null: the training
		 * load of a workout without heart rate is drawn from it.
		 */
		perceivedEffort: smallint('perceived_effort'),
		/** The shoes or bike worn, one of the owner's gear; its distance worn counts this workout. */
		gearId: integer('gear_id').references(() => userGear.id, { onDelete: 'set null' }),
		/**
		 * SHA-256 of the stored series and start: the same recording sent twice (as the same file,
		 * or gzipped) has the same hash and start, and the unique index refuses the second copy.
		 */
		contentHash: text('content_hash'),
		/**
		 * The Idempotency-Key the client sent with the request that made it, and a hash of that
		 * request: the same key with the same request answers with this workout again (a retry after
		 * an answer was lost), never a second copy.
		 */
		idempotencyKey: text('idempotency_key'),
		requestHash: text('request_hash'),
		version: integer('version').notNull().default(1),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
		updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(t) => [
		index('workouts_owner_start_idx').on(t.ownerId, t.startDatetime),
		index('workouts_privacy_start_idx').on(t.privacy, t.startDatetime),
		index('workouts_gear_idx').on(t.gearId),
		uniqueIndex('workouts_owner_duplicate_idx').on(t.ownerId, t.startDatetime, t.contentHash),
		uniqueIndex('workouts_owner_idempotency_idx').on(t.ownerId, t.idempotencyKey),
		check('workouts_privacy_check', sql`${t.privacy} in (0, 1, 3)`),
		check('workouts_perceived_effort_check', sql`${t.perceivedEffort} between 1 and 10`),
	],
);

/** A workout's samples and laps, one row per workout that has them. */
export const workoutSeries = pgTable('workout_series', {
	workoutId: integer('workout_id')
		.primaryKey()
		.references(() => workouts.id, { onDelete: 'cascade' }),
	series: jsonb('series').$type<StoredSeries>().notNull(),
	laps: jsonb('laps').$type<StoredLap[]>().notNull().default([]),
});

/**
 * What a workout recorded that its owner has not consented to have processed: the whole series and
 * laps and the heart-rate figures, exactly as recorded. Read only to release them when consent is
 * given (or to hold them back again when it is withdrawn); no page, answer or export reads it.
 */
export const workoutHeldData = pgTable('workout_held_data', {
	workoutId: integer('workout_id')
		.primaryKey()
		.references(() => workouts.id, { onDelete: 'cascade' }),
	series: jsonb('series').$type<StoredSeries>(),
	laps: jsonb('laps').$type<StoredLap[]>().notNull().default([]),
	heartRate: jsonb('heart_rate').$type<HeldHeartRate>().notNull(),
});

/** A workout's heart-rate figures, kept back with its series. */
export type HeldHeartRate = { min: number | null; max: number | null; avg: number | null };

/** The file a workout was imported from, exactly as uploaded, for its owner to download again. */
export const workoutOriginals = pgTable('workout_originals', {
	workoutId: integer('workout_id')
		.primaryKey()
		.references(() => workouts.id, { onDelete: 'cascade' }),
	/** The name the member's file had, as the browser sent it (shown and offered only to the owner). */
	fileName: text('file_name').notNull().default(''),
	/**
	 * The file gzipped, as base64 text: the embedded database writes text several times faster than
	 * bytea, and on the request thread, so a large file costs tens of milliseconds rather than hundreds.
	 */
	contentGzipBase64: text('content_gzip_base64').notNull(),
});

/**
 * Photos a member added to a workout. The files live on disk under the owner's and the workout's
 * folder (see photo-files.ts), re-encoded as JPEG, so deleting a workout or a member removes a folder.
 */
export const workoutPhotos = pgTable(
	'workout_photos',
	{
		id: serial('id').primaryKey(),
		workoutId: integer('workout_id')
			.notNull()
			.references(() => workouts.id, { onDelete: 'cascade' }),
		/** A random stem: the two files are `{stem}-large.jpg` and `{stem}-thumbnail.jpg`. */
		fileStem: text('file_stem').notNull(),
		width: integer('width').notNull(),
		height: integer('height').notNull(),
		bytes: integer('bytes').notNull(),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(table) => [index('workout_photos_workout').on(table.workoutId)],
);

/** One file's outcome in a bulk import, in the order the archive lists them. */
export type BulkImportFileResult = {
	file: string;
	outcome: 'imported' | 'duplicate' | 'failed';
	/** Why it failed, in words for the member. */
	reason?: string;
	workoutId?: number;
};

/**
 * A zip of device files (a Strava or Garmin export) being imported in the background. The archive
 * waits under DATA_DIR/imports until the job has read it, then leaves the disk.
 */
export const workoutBulkImports = pgTable(
	'workout_bulk_imports',
	{
		id: serial('id').primaryKey(),
		userId: integer('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		status: text('status').$type<BulkImportStatus>().notNull().default('queued'),
		/** The stored archive's file name under DATA_DIR/imports; null once read. */
		fileName: text('file_name'),
		/** Workout files in the archive; the rest (photos, CSV) are passed over. */
		total: integer('total').notNull().default(0),
		results: jsonb('results').$type<BulkImportFileResult[]>().notNull().default([]),
		/** Why the whole import stopped, when it did. */
		error: text('error'),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
		finishedAt: timestamp('finished_at', { withTimezone: true }),
	},
	(t) => [index('workout_bulk_imports_user_idx').on(t.userId)],
);

/** Where a resumable upload stands: bytes arriving, the file being read, or how its import ended. */
export type WorkoutUploadStatus = 'receiving' | 'importing' | 'imported' | 'duplicate' | 'refused';

/**
 * A resumable (tus) upload of one device file. The bytes wait under DATA_DIR/uploads/resumable until
 * the last one arrives; then the file is imported once and leaves the disk, and this row keeps the
 * outcome for the client that asks after a lost answer.
 */
export const workoutUploads = pgTable(
	'workout_uploads',
	{
		/** The tus upload id: 32 random hex digits, the last part of the upload's URL. */
		id: text('id').primaryKey(),
		ownerId: integer('owner_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		/** Bytes the client announced (Upload-Length). */
		size: integer('size').notNull(),
		fileName: text('file_name').notNull().default(''),
		/** What the member chose for the workout (name, privacy, activity type, time zone), as the import query. */
		choices: jsonb('choices').$type<Record<string, string | number>>().notNull().default({}),
		/** The client's own Idempotency-Key, when it sent one; otherwise the upload's id stands in. */
		idempotencyKey: text('idempotency_key'),
		status: text('status').$type<WorkoutUploadStatus>().notNull().default('receiving'),
		workoutId: integer('workout_id').references(() => workouts.id, { onDelete: 'set null' }),
		/** Why the file was refused: the HTTP status, the error code and the member's message. */
		refusal: jsonb('refusal').$type<{ status: number; error: string; message: string }>(),
		/** The request writing the file holds it until then (every process shares the row). */
		lockToken: text('lock_token'),
		lockedUntil: timestamp('locked_until', { withTimezone: true }),
		/** The import under way holds the upload until then; a process that died lets it go. */
		importUntil: timestamp('import_until', { withTimezone: true }),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
		/** Past this an unfinished upload is gone, and a finished one's outcome is forgotten. */
		expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
	},
	(t) => [
		index('workout_uploads_owner_idx').on(t.ownerId, t.status),
		index('workout_uploads_expires_idx').on(t.expiresAt),
	],
);
