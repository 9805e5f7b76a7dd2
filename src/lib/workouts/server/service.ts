import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { and, asc, desc, eq, gte, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { WORKOUT_FILE_BODY_LIMIT } from '../../api/body';
import { users } from '../../auth/server/tables';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../../core/server/deps';
import { emit } from '../../core/server/events';
import { cleanText, truncateText } from '../../core/text';
import { assertGearOfOwner } from '../../gear/server/service';
import { withheldProcessing } from '../../privacy/server/consents';
import { notBlockedWith, relationBetween } from '../../social/server/relations';
import { friendships } from '../../social/server/tables';
import { type Effort, effortsOf } from '../../stats/records';
import { keepEfforts } from '../../stats/server/efforts';
import { workoutChangeMarks } from '../../stats/server/tables';
import { isWorkoutFileError, type ReadLimits } from '../../workout-files';
import { sharedParsePool, uploadRefusal } from '../../workout-files/server/parse-pool';
import { DEFAULT_WEIGHT_KG, estimateCalories } from '../calories';
import {
	type AggregatesInput,
	type AllWorkoutsQuery,
	type CaloriesInput,
	MAX_ALL_WORKOUTS,
	MAX_WORKOUT_NAME,
	NO_ACTIVITIES,
	type UserStatsQuery,
	WORKOUT_PAGE_SIZE,
	type WorkoutImportQuery,
	type WorkoutListQuery,
	type WorkoutSaveInput,
	type WorkoutUpdateInput,
} from '../contract';
import { canEdit, canView } from '../policy';
import { encodeSeries, fromApiTimeSeries, previewSeriesOf, type StoredSeries } from '../series';
import { compendiumEntryFor } from './activity-types';
import { heldBackFor, keepSentHeartRate, type Recorded, withoutWithheld } from './consent-hold';
import { contentHashOf, type DerivedFileWorkout } from './derive-file';
import { removeWorkoutPhotoFiles } from './photo-files';
import { type StoredLap, workoutHeldData, workoutOriginals, workoutSeries, workouts } from './tables';

export type WorkoutRow = typeof workouts.$inferSelect;
/** A workout with what the API shows about its owner. */
export type WorkoutWithOwner = WorkoutRow & { ownerDisplayName: string; ownerUsername: string };
type Viewer = { id: number } | null;
type Deps = Pick<AppDeps, 'db' | 'clock'>;

const ownerColumns = { ownerDisplayName: users.displayName, ownerUsername: users.username };

/**
 * Workout files: as large as the request body may be (a 12-hour GPX with heart rate), 100 MB
 * unpacked and 500,000 samples, over five days at one a second.
 */
export const WORKOUT_FILE_LIMITS: ReadLimits = {
	maxBytes: WORKOUT_FILE_BODY_LIMIT,
	maxDecompressedBytes: 100 * 1024 * 1024,
	maxPoints: 500_000,
};

const AGGREGATE_COLUMNS = {
	distance_total: 'distanceTotal',
	metabolic_energy_total: 'metabolicEnergyTotal',
	active_time_total: 'activeTimeTotal',
	elapsed_time_total: 'elapsedTimeTotal',
	steps_total: 'stepsTotal',
	heartrate_min: 'heartrateMin',
	heartrate_max: 'heartrateMax',
	heartrate_avg: 'heartrateAvg',
	speed_min: 'speedMin',
	speed_max: 'speedMax',
	speed_avg: 'speedAvg',
	cadence_min: 'cadenceMin',
	cadence_max: 'cadenceMax',
	cadence_avg: 'cadenceAvg',
	power_min: 'powerMin',
	power_max: 'powerMax',
	power_avg: 'powerAvg',
} as const satisfies Record<keyof AggregatesInput, keyof WorkoutRow>;

type AggregateColumns = {
	-readonly [K in (typeof AGGREGATE_COLUMNS)[keyof AggregatesInput]]?: number | null;
};

function aggregateColumns(input: AggregatesInput): AggregateColumns {
	const columns: AggregateColumns = {};
	for (const [field, column] of Object.entries(AGGREGATE_COLUMNS) as [
		keyof AggregatesInput,
		keyof AggregateColumns,
	][]) {
		if (input[field] !== undefined) columns[column] = input[field];
	}
	return columns;
}

/** The aggregates as the API names them; unknown ones are left out. */
export function aggregatesOf(row: WorkoutRow): Record<string, number> {
	const out: Record<string, number> = {};
	for (const [field, column] of Object.entries(AGGREGATE_COLUMNS)) {
		const value = row[column as keyof WorkoutRow];
		if (typeof value === 'number') out[field] = value;
	}
	return out;
}

/** What a new workout of the member starts with: their privacy choice, time zone and weight. */
export async function ownerDefaults(deps: Deps, ownerId: number) {
	const [row] = await deps.db
		.select({ privacy: users.workoutPrivacy, timeZone: users.timeZone, weightKg: users.weightKg })
		.from(users)
		.where(eq(users.id, ownerId));
	const privacy = row?.privacy;
	return {
		privacy: privacy === 1 || privacy === 3 ? privacy : 0,
		timeZone: row?.timeZone ?? 'UTC',
		weightKg: row?.weightKg ?? null,
	};
}

type NewWorkout = {
	values: Omit<typeof workouts.$inferInsert, 'ownerId' | 'createdAt' | 'updatedAt'>;
	series: StoredSeries | null;
	laps: StoredLap[];
	/** The uploaded file (packed by `packOriginal`), kept with the workout or not at all. */
	original?: { fileName: string; contentGzipBase64: string };
	idempotency?: Idempotency;
	/** Its best efforts when already found (a file's, on the parse pool); otherwise found here. */
	efforts?: Effort[];
};

/** A client's Idempotency-Key and a hash of the request it came with. */
export type Idempotency = { key: string; requestHash: string };

/** SHA-256 over a request's parts, so a key sent again can be told apart from a key reused. */
export function hashRequest(...parts: (string | Uint8Array)[]): string {
	const hash = createHash('sha256');
	for (const part of parts) hash.update(part).update('\0');
	return hash.digest('hex');
}

/**
 * The workout an earlier request with this Idempotency-Key made, to answer a retry with; null when
 * the key is new. The same key with another request is refused rather than answered wrongly.
 */
async function replayOf(
	deps: Deps,
	ownerId: number,
	idempotency: Idempotency,
): Promise<CreateOutcome | null> {
	const [earlier] = await deps.db
		.select({ id: workouts.id, requestHash: workouts.requestHash })
		.from(workouts)
		.where(and(eq(workouts.ownerId, ownerId), eq(workouts.idempotencyKey, idempotency.key)));
	if (!earlier) return null;
	if (earlier.requestHash !== idempotency.requestHash)
		throw new AppError('unprocessable', 'This Idempotency-Key was already used with a different request.', {
			detail: 'idempotency_key_reused',
		});
	const workout = await findWorkout(deps, earlier.id);
	return workout ? { created: true, workout, replayed: true } : null;
}

/**
 * Challenge standings and weekly goal stories follow every saved, edited, cut or deleted workout;
 * neither failing fails the change.
 */
export async function followWorkoutChange(deps: Deps, ownerId: number): Promise<void> {
	await emit(deps, 'workout.changed', { ownerId });
}

export type CreateOutcome =
	/** `replayed`: the answer to a retried request (same Idempotency-Key), nothing stored again. */
	| { created: true; workout: WorkoutWithOwner; replayed?: true }
	| { created: false; existing: WorkoutWithOwner };

/**
 * Stores a workout and its series together, or neither. A recording the owner already has (same
 * start, same samples) is not stored again: the caller gets the existing one.
 */
async function insertWorkout(deps: Deps, ownerId: number, workout: NewWorkout): Promise<CreateOutcome> {
	if (workout.idempotency) {
		const replay = await replayOf(deps, ownerId, workout.idempotency);
		if (replay) return replay;
	}
	const now = deps.clock();
	const contentHash =
		workout.values.contentHash ??
		(workout.series ? contentHashOf(workout.values.startDatetime as Date, workout.series) : null);
	// Kept with the workout, so reading records later reads nothing back.
	const effortSource = {
		activityTypeId: workout.values.activityTypeId,
		start: workout.values.startDatetime as Date,
		distanceTotal: workout.values.distanceTotal ?? null,
		activeTimeTotal: workout.values.activeTimeTotal ?? null,
		elapsedTimeTotal: workout.values.elapsedTimeTotal ?? null,
	};
	const efforts = workout.efforts ?? effortsOf(effortSource, workout.series);
	// What the owner has not consented to have processed is kept apart, out of every view.
	const recorded: Recorded = {
		series: workout.series,
		laps: workout.laps,
		heartRate: {
			min: workout.values.heartrateMin ?? null,
			max: workout.values.heartrateMax ?? null,
			avg: workout.values.heartrateAvg ?? null,
		},
	};
	const heldBack = await heldBackFor(deps, ownerId, recorded);
	const shown = withoutWithheld(recorded, heldBack);
	const id = await deps.db.transaction(async (tx) => {
		const [row] = await tx
			.insert(workouts)
			.values({
				...workout.values,
				heldBack,
				previewSeries: previewSeriesOf(shown.series),
				heartrateMin: shown.heartRate.min,
				heartrateMax: shown.heartRate.max,
				heartrateAvg: shown.heartRate.avg,
				ownerId,
				contentHash,
				idempotencyKey: workout.idempotency?.key ?? null,
				requestHash: workout.idempotency?.requestHash ?? null,
				sampleCount: workout.series?.t.length ?? 0,
				createdAt: now,
				updatedAt: now,
			})
			.onConflictDoNothing()
			.returning({ id: workouts.id, version: workouts.version });
		if (!row) return null;
		if (shown.series)
			await tx.insert(workoutSeries).values({ workoutId: row.id, series: shown.series, laps: shown.laps });
		if (heldBack.length) await tx.insert(workoutHeldData).values({ workoutId: row.id, ...recorded });
		if (workout.original)
			await tx.insert(workoutOriginals).values({ workoutId: row.id, ...workout.original });
		await keepEfforts(tx, ownerId, [{ workout: { ...effortSource, ...row }, efforts }]);
		return row.id;
	});
	if (id !== null) await followWorkoutChange(deps, ownerId);
	if (id !== null) return { created: true, workout: (await findWorkout(deps, id)) as WorkoutWithOwner };
	// Two requests with one key at once: the one that lost the race answers as a retry.
	if (workout.idempotency) {
		const replay = await replayOf(deps, ownerId, workout.idempotency);
		if (replay) return replay;
	}
	const [existing] = await deps.db
		.select({ id: workouts.id })
		.from(workouts)
		.where(
			and(
				eq(workouts.ownerId, ownerId),
				eq(workouts.startDatetime, workout.values.startDatetime as Date),
				eq(workouts.contentHash, contentHash as string),
			),
		);
	// The copy that blocked this one was deleted in between: the member may simply send it again.
	const found = existing ? await findWorkout(deps, existing.id) : null;
	if (!found)
		throw new AppError('conflict', 'This workout changed while it was being stored. Send it again.');
	return { created: false, existing: found };
}

/** A workout logged by hand or sent by a client, with its time series when it has one. */
export async function createWorkout(
	deps: Deps,
	viewer: Viewer,
	input: WorkoutSaveInput,
	idempotencyKey?: string,
): Promise<CreateOutcome> {
	if (!viewer) throw new AppError('unauthenticated', 'Sign in to save a workout');
	const defaults = await ownerDefaults(deps, viewer.id);
	if (input.gear) await assertGearOfOwner(deps, viewer.id, input.gear);
	const samples = input.time_series ? fromApiTimeSeries(input.time_series) : [];
	return insertWorkout(deps, viewer.id, {
		values: {
			name: input.name || 'Workout',
			notes: input.notes,
			perceivedEffort: input.perceived_effort ?? null,
			source: input.source,
			attribution: input.attribution ?? null,
			activityTypeId: input.activity_type,
			privacy: input.privacy ?? defaults.privacy,
			startDatetime: input.start_datetime,
			startLocaleTimezone: input.start_locale_timezone ?? defaults.timeZone,
			origin: 'manual',
			gearId: input.gear ?? null,
			...aggregateColumns(input.aggregates),
		},
		series: samples.length > 0 ? encodeSeries(samples) : null,
		laps: [],
		idempotency: idempotencyKey
			? { key: idempotencyKey, requestHash: hashRequest(JSON.stringify(input)) }
			: undefined,
	});
}

/**
 * A GPX, TCX or FIT file (bare, .gz or .zip) read on the parse pool and stored as a workout with
 * its series and laps. Refusals name the rule; a refused file stores nothing.
 */
export async function importWorkoutFile(
	deps: Deps,
	viewer: Viewer,
	bytes: Uint8Array,
	query: WorkoutImportQuery & { fileName?: string },
	idempotencyKey?: string,
): Promise<CreateOutcome> {
	if (!viewer) throw new AppError('unauthenticated', 'Sign in to import a workout');
	const idempotency = idempotencyKey
		? { key: idempotencyKey, requestHash: hashRequest(JSON.stringify(query), bytes) }
		: undefined;
	// A retry is answered before the file is read again.
	const replay = idempotency ? await replayOf(deps, viewer.id, idempotency) : null;
	if (replay) return replay;
	const defaults = await ownerDefaults(deps, viewer.id);
	let derived: DerivedFileWorkout | null;
	try {
		derived = await sharedParsePool().deriveWorkoutFile(bytes, {
			limits: WORKOUT_FILE_LIMITS,
			fileName: query.fileName,
			weightKg: defaults.weightKg,
		});
	} catch (error) {
		if (isWorkoutFileError(error)) throw uploadRefusal(error);
		throw error;
	}
	if (!derived)
		throw new AppError(
			'unprocessable',
			'This file has no timed samples, so it holds no workout (a planned route can be imported as a route).',
			{ detail: 'file_no_workout' },
		);
	return storeDerivedWorkout(deps, viewer.id, derived, {
		name: query.name,
		activityType: query.activity_type,
		privacy: query.privacy ?? defaults.privacy,
		// The zone the file was recorded in, unless the member chose one: a run in Zagreb started at 7:00 there.
		timeZone: query.time_zone ?? derived.recordedTimeZone ?? defaults.timeZone,
		original: { fileName: storableFileName(query.fileName), contentGzipBase64: await packOriginal(bytes) },
		idempotency,
	});
}

const gzipAsync = promisify(gzip);

/** Gzipped on libuv's threads, so the request thread only copies the text. */
export async function packOriginal(bytes: Uint8Array): Promise<string> {
	return (await gzipAsync(bytes, { level: 6 })).toString('base64');
}

/** The uploaded file's name as it can be kept: control characters and lone surrogates cleaned away. */
function storableFileName(name: string | undefined): string {
	return truncateText(cleanText(name ?? '', 'single-line').trim(), 200);
}

/** Stores a workout read from a recording, with what the member chose for it over the file's own values. */
export async function storeDerivedWorkout(
	deps: Deps,
	ownerId: number,
	derived: DerivedFileWorkout,
	choice: {
		name?: string;
		activityType?: number;
		privacy: number;
		timeZone: string;
		source?: string;
		original?: NewWorkout['original'];
		idempotency?: Idempotency;
	},
): Promise<CreateOutcome> {
	const { series, laps, efforts, name: fileName, activityType, ...values } = derived;
	const name = truncateText((choice.name ?? fileName ?? '').trim(), MAX_WORKOUT_NAME);
	return insertWorkout(deps, ownerId, {
		values: {
			...values,
			source: choice.source ?? values.source,
			name: name || 'Imported workout',
			activityTypeId: choice.activityType ?? activityType,
			privacy: choice.privacy,
			startLocaleTimezone: choice.timeZone,
		},
		series,
		laps,
		efforts,
		original: choice.original,
		idempotency: choice.idempotency,
	});
}

async function findWorkout(deps: Deps, id: number): Promise<WorkoutWithOwner | null> {
	const [row] = await deps.db
		.select({ workout: workouts, ...ownerColumns })
		.from(workouts)
		.innerJoin(users, eq(users.id, workouts.ownerId))
		.where(eq(workouts.id, id))
		.limit(1);
	return row
		? { ...row.workout, ownerDisplayName: row.ownerDisplayName, ownerUsername: row.ownerUsername }
		: null;
}

const notFound = () => new AppError('not_found', 'No such workout');

/** The workout if the viewer may see it; otherwise 404, the same answer as for one that does not exist. */
export async function getVisibleWorkout(deps: Deps, viewer: Viewer, id: number): Promise<WorkoutWithOwner> {
	const workout = await findWorkout(deps, id);
	if (!workout) throw notFound();
	if (!canView(viewer, workout, await relationBetween(deps.db, viewer, workout.ownerId))) throw notFound();
	return workout;
}

/** The stored samples and laps of a workout the caller has already been allowed to see. */
export async function getWorkoutSeries(
	deps: Deps,
	workoutId: number,
): Promise<{ series: StoredSeries; laps: StoredLap[] } | null> {
	const [row] = await deps.db
		.select({ series: workoutSeries.series, laps: workoutSeries.laps })
		.from(workoutSeries)
		.where(eq(workoutSeries.workoutId, workoutId));
	return row ?? null;
}

/** The stored recordings of several workouts in one query (a feed page's thumbnails). */
export async function getWorkoutSeriesMany(
	deps: Deps,
	workoutIds: number[],
): Promise<Map<number, { series: StoredSeries; laps: StoredLap[] }>> {
	if (workoutIds.length === 0) return new Map();
	const rows = await deps.db
		.select({ workoutId: workoutSeries.workoutId, series: workoutSeries.series, laps: workoutSeries.laps })
		.from(workoutSeries)
		.where(inArray(workoutSeries.workoutId, workoutIds));
	return new Map(rows.map(({ workoutId, ...stored }) => [workoutId, stored]));
}

export async function getOwnWorkout(deps: Deps, viewer: Viewer, id: number): Promise<WorkoutWithOwner> {
	if (!viewer) throw new AppError('unauthenticated', 'Sign in to change a workout');
	const workout = await findWorkout(deps, id);
	// Someone else's workout answers 404 whether or not they could see it: no hint that it exists.
	if (!workout || !canEdit(viewer, workout)) throw notFound();
	return workout;
}

export type UpdateOutcome =
	| { ok: true; workout: WorkoutWithOwner }
	| { ok: false; current: WorkoutWithOwner };

/**
 * Changes the fields sent. With an expected version (If-Match or the body's `version`) the write
 * happens only if nobody saved in between; otherwise the caller gets the saved copy to merge.
 */
export async function updateWorkout(
	deps: Deps,
	viewer: Viewer,
	id: number,
	input: WorkoutUpdateInput,
	expectedVersion: number | null,
): Promise<UpdateOutcome> {
	const current = await getOwnWorkout(deps, viewer, id);
	const conditions = [eq(workouts.id, id), eq(workouts.ownerId, current.ownerId)];
	if (expectedVersion !== null) conditions.push(eq(workouts.version, expectedVersion));
	const changes: Partial<typeof workouts.$inferInsert> = {};
	if (input.name !== undefined) changes.name = input.name || 'Workout';
	if (input.notes !== undefined) changes.notes = input.notes;
	if (input.perceived_effort !== undefined) changes.perceivedEffort = input.perceived_effort;
	if (input.activity_type !== undefined) changes.activityTypeId = input.activity_type;
	if (input.privacy !== undefined) changes.privacy = input.privacy;
	if (input.start_datetime !== undefined) changes.startDatetime = input.start_datetime;
	if (input.start_locale_timezone !== undefined) changes.startLocaleTimezone = input.start_locale_timezone;
	if (input.aggregates) Object.assign(changes, aggregateColumns(input.aggregates));
	// Heart rate waits with the rest of the recording while the owner withholds health data; otherwise
	// it is written with everything else.
	const { heartrateMin: min, heartrateMax: max, heartrateAvg: avg, ...otherChanges } = changes;
	const sentHeartRate = Object.fromEntries(
		Object.entries({ min, max, avg }).filter(([, value]) => value !== undefined),
	);
	const holdHeartRate =
		Object.keys(sentHeartRate).length > 0 &&
		(current.heldBack.includes('health_data') ||
			(await withheldProcessing(deps, current.ownerId)).includes('health_data'));
	const written = holdHeartRate ? otherChanges : changes;
	if (input.gear) await assertGearOfOwner(deps, current.ownerId, input.gear);
	if (input.gear !== undefined) written.gearId = input.gear;
	const updated = await deps.db
		.update(workouts)
		.set({ ...written, version: sql`${workouts.version} + 1`, updatedAt: deps.clock() })
		.where(and(...conditions))
		.returning({ id: workouts.id });
	if (updated.length > 0 && holdHeartRate) await keepSentHeartRate(deps, current.ownerId, id, sentHeartRate);
	if (updated.length > 0) await followWorkoutChange(deps, current.ownerId);
	const fresh = (await findWorkout(deps, id)) as WorkoutWithOwner;
	return updated.length === 0 ? { ok: false, current: fresh } : { ok: true, workout: fresh };
}

export async function deleteWorkout(
	deps: Deps & Pick<AppDeps, 'config'>,
	viewer: Viewer,
	id: number,
): Promise<void> {
	const workout = await getOwnWorkout(deps, viewer, id);
	await deps.db.delete(workouts).where(and(eq(workouts.id, id), eq(workouts.ownerId, workout.ownerId)));
	await removeWorkoutPhotoFiles(deps.config, workout.ownerId, workout.id);
	await followWorkoutChange(deps, workout.ownerId);
}

/**
 * The SQL twin of `canView`: own workouts, everyone's, and friends-only workouts of accepted
 * friends, none of a member blocked either way. Lists, counts and stats filter with it.
 */
export function visibleCondition(viewer: Viewer): SQL {
	if (!viewer) return eq(workouts.privacy, 3);
	const friendOfOwner = sql`exists (select 1 from ${friendships} where ${friendships.status} = 'active' and ((${friendships.fromUserId} = ${viewer.id} and ${friendships.toUserId} = ${workouts.ownerId}) or (${friendships.toUserId} = ${viewer.id} and ${friendships.fromUserId} = ${workouts.ownerId})))`;
	return or(
		eq(workouts.ownerId, viewer.id),
		and(
			notBlockedWith(viewer.id, workouts.ownerId),
			or(eq(workouts.privacy, 3), and(eq(workouts.privacy, 1), friendOfOwner)),
		),
	) as SQL;
}

export type WorkoutPage = { workouts: WorkoutWithOwner[]; totalCount: number; limit: number; offset: number };

async function countWorkouts(deps: Deps, where: SQL | undefined): Promise<number> {
	const [counted] = await deps.db.select({ count: sql<number>`count(*)::int` }).from(workouts).where(where);
	return Number(counted?.count ?? 0);
}

/** How many workouts a member has, as the workouts trigger keeps it (none yet: no row). */
async function keptWorkoutCount(deps: Deps, ownerId: number): Promise<number> {
	const [kept] = await deps.db
		.select({ count: workoutChangeMarks.workoutCount })
		.from(workoutChangeMarks)
		.where(eq(workoutChangeMarks.ownerId, ownerId));
	return kept?.count ?? 0;
}

/**
 * One member's workouts the viewer may see (all of them for the member themself), newest start
 * first. Without `user` a member gets their own; there is no list across members, so public
 * workouts cannot be harvested page by page.
 */
export async function listWorkouts(
	deps: Deps,
	viewer: Viewer,
	query: WorkoutListQuery,
): Promise<WorkoutPage> {
	const ownerId = query.user ?? viewer?.id;
	if (ownerId === undefined)
		throw new AppError('validation_failed', 'Name the member whose workouts to list', {
			failures: [{ field: 'user', message: 'user is required when not signed in.' }],
		});
	const limit = query.limit ?? WORKOUT_PAGE_SIZE;
	const offset = query.offset ?? 0;
	const conditions: SQL[] = [eq(workouts.ownerId, ownerId)];
	if (!(viewer && ownerId === viewer.id)) conditions.push(visibleCondition(viewer));
	if (query.activity_type !== undefined) conditions.push(eq(workouts.activityTypeId, query.activity_type));
	if (query.started_after) conditions.push(gte(workouts.startDatetime, query.started_after));
	if (query.started_before) conditions.push(lt(workouts.startDatetime, query.started_before));
	const where = and(...conditions);
	const order =
		query.order_by === 'start_datetime'
			? [asc(workouts.startDatetime), asc(workouts.id)]
			: [desc(workouts.startDatetime), desc(workouts.id)];
	// The page and the count as two queries: a count over the window would build every matching row,
	// joined, before the limit applies (33 ms for a member with 10,000 workouts, against a few here).
	// A member's own unfiltered list reads the count the workouts trigger keeps instead of counting.
	const wholeOwnList =
		viewer !== null &&
		ownerId === viewer.id &&
		query.activity_type === undefined &&
		!query.started_after &&
		!query.started_before;
	const [rows, totalCount] = await Promise.all([
		deps.db
			.select({ workout: workouts, ...ownerColumns })
			.from(workouts)
			.innerJoin(users, eq(users.id, workouts.ownerId))
			.where(where)
			.orderBy(...order)
			.limit(limit)
			.offset(offset),
		wholeOwnList ? keptWorkoutCount(deps, ownerId) : countWorkouts(deps, where),
	]);
	return {
		workouts: rows.map((row) => ({
			...row.workout,
			ownerDisplayName: row.ownerDisplayName,
			ownerUsername: row.ownerUsername,
		})),
		totalCount,
		limit,
		offset,
	};
}

/** Whether the member has logged, uploaded or synced any workout yet (the dashboard guides those who have not). */
export async function hasOwnWorkouts(deps: Pick<Deps, 'db'>, ownerId: number): Promise<boolean> {
	const [row] = await deps.db
		.select({ id: workouts.id })
		.from(workouts)
		.where(eq(workouts.ownerId, ownerId))
		.limit(1);
	return row !== undefined;
}

/**
 * Every workout of the signed-in member in a time window, oldest first, without series: what a
 * calendar or a year's log draws from. `activity_types` narrows it (all by default; none gives none).
 */
export async function listAllOwnWorkouts(
	deps: Deps,
	viewer: Viewer,
	query: AllWorkoutsQuery,
): Promise<{ workouts: WorkoutRow[]; totalCount: number; limit: number; offset: number }> {
	if (!viewer) throw new AppError('unauthenticated', 'Sign in to see your workouts');
	const limit = query.limit ?? MAX_ALL_WORKOUTS;
	const offset = query.offset ?? 0;
	const types = query.activity_types ?? 'all';
	if (types === NO_ACTIVITIES) return { workouts: [], totalCount: 0, limit, offset };
	const conditions: SQL[] = [eq(workouts.ownerId, viewer.id)];
	if (types !== 'all')
		conditions.push(inArray(workouts.activityTypeId, [...new Set(types.split(',').map(Number))]));
	if (query.started_after) conditions.push(gte(workouts.startDatetime, query.started_after));
	if (query.started_before) conditions.push(lt(workouts.startDatetime, query.started_before));
	const where = and(...conditions);
	const [rows, [counted]] = await Promise.all([
		deps.db
			.select()
			.from(workouts)
			.where(where)
			.orderBy(asc(workouts.startDatetime), asc(workouts.id))
			.limit(limit)
			.offset(offset),
		deps.db.select({ count: sql<number>`count(*)::int` }).from(workouts).where(where),
	]);
	return { workouts: rows, totalCount: Number(counted?.count ?? 0), limit, offset };
}

export type ActivityTotals = {
	activityTypeId: number;
	count: number;
	distanceTotal: number;
	activeTimeTotal: number;
	elapsedTimeTotal: number;
	metabolicEnergyTotal: number;
	stepsTotal: number;
};

/**
 * A member's totals per activity type, over the workouts the viewer may see (all of them for the
 * member themself). A period runs over whole UTC days, both ends included.
 */
export async function userStats(
	deps: Deps,
	viewer: Viewer,
	userId: number,
	query: UserStatsQuery,
): Promise<{ perActivity: ActivityTotals[]; summary: Omit<ActivityTotals, 'activityTypeId'> }> {
	const [member] = await deps.db.select({ id: users.id }).from(users).where(eq(users.id, userId));
	if (!member) throw new AppError('not_found', 'No such member');
	const conditions: SQL[] = [eq(workouts.ownerId, userId)];
	if (!(viewer && viewer.id === userId)) conditions.push(visibleCondition(viewer));
	if (query.start_date)
		conditions.push(gte(workouts.startDatetime, new Date(`${query.start_date}T00:00:00Z`)));
	if (query.end_date) {
		const end = new Date(`${query.end_date}T00:00:00Z`);
		end.setUTCDate(end.getUTCDate() + 1);
		conditions.push(lt(workouts.startDatetime, end));
	}
	if (query.activity_type !== undefined) conditions.push(eq(workouts.activityTypeId, query.activity_type));
	const sum = (column: AnyPgColumn) => sql<number>`coalesce(sum(${column}), 0)::float8`.mapWith(Number);
	const rows = await deps.db
		.select({
			activityTypeId: workouts.activityTypeId,
			count: sql<number>`count(*)::int`.mapWith(Number),
			distanceTotal: sum(workouts.distanceTotal),
			activeTimeTotal: sum(workouts.activeTimeTotal),
			elapsedTimeTotal: sum(workouts.elapsedTimeTotal),
			metabolicEnergyTotal: sum(workouts.metabolicEnergyTotal),
			stepsTotal: sum(workouts.stepsTotal),
		})
		.from(workouts)
		.where(and(...conditions))
		.groupBy(workouts.activityTypeId)
		.orderBy(asc(workouts.activityTypeId));
	const summary = {
		count: 0,
		distanceTotal: 0,
		activeTimeTotal: 0,
		elapsedTimeTotal: 0,
		metabolicEnergyTotal: 0,
		stepsTotal: 0,
	};
	for (const row of rows) {
		summary.count += row.count;
		summary.distanceTotal += row.distanceTotal;
		summary.activeTimeTotal += row.activeTimeTotal;
		summary.elapsedTimeTotal += row.elapsedTimeTotal;
		summary.metabolicEnergyTotal += row.metabolicEnergyTotal;
		summary.stepsTotal += row.stepsTotal;
	}
	return { perActivity: rows, summary };
}

/** The MET estimate for an activity; without a weight, the member's own (or the default). */
export async function calculateCalories(deps: Deps, viewer: Viewer, input: CaloriesInput) {
	let weightKg = input.weight ?? null;
	if (weightKg === null && viewer) weightKg = (await ownerDefaults(deps, viewer.id)).weightKg;
	const weight = weightKg ?? DEFAULT_WEIGHT_KG;
	return {
		weightKg: weight,
		...estimateCalories(compendiumEntryFor(input.activity_type), input.duration, weight),
	};
}
