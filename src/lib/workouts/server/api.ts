import type { Context } from 'hono';
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { BULK_IMPORT_BODY_LIMIT, WORKOUT_FILE_BODY_LIMIT } from '../../api/body';
import type { ApiEnv } from '../../api/context';
import { answerVersionedEdit, both, link, pageLinks, requireOwnLink } from '../../api/hal';
import { IdempotencyHeaderSchema } from '../../api/idempotency-header';
import { validate } from '../../api/validate';
import { requireViewer } from '../../auth/server/middleware';
import { formatApiDateTime } from '../../core/dates';
import { AppError } from '../../core/errors';
import {
	ActivityTypeListQuerySchema,
	ActivityTypeParamSchema,
	AllWorkoutsQuerySchema,
	BulkImportIdParamSchema,
	CaloriesBodySchema,
	type CaloriesInput,
	CaloriesQuerySchema,
	UserStatsParamSchema,
	UserStatsQuerySchema,
	WorkoutIdParamSchema,
	WorkoutImportQuerySchema,
	WorkoutItemQuerySchema,
	WorkoutListQuerySchema,
	WorkoutSaveSchema,
	WorkoutUpdateSchema,
} from '../contract';
import { ACTIVITY_TYPES_ATTRIBUTION, findActivityType, listActivityTypes } from './activity-types';
import { getBulkImport, startBulkImport } from './bulk-import';
import { listWorkoutPhotos, representWorkoutPhoto } from './photos';
import { recordingForViewer } from './recording';
import { representActivityType, representWorkout } from './represent';
import {
	type ActivityTotals,
	aggregatesOf,
	type CreateOutcome,
	calculateCalories,
	createWorkout,
	deleteWorkout,
	getVisibleWorkout,
	getWorkoutSeries,
	importWorkoutFile,
	listAllOwnWorkouts,
	listWorkouts,
	updateWorkout,
	userStats,
	type WorkoutWithOwner,
} from './service';

/**
 * 201 with the stored workout, or 409 naming the copy the member already has. A retry with the
 * same Idempotency-Key gets the first answer again, marked Idempotent-Replayed.
 */
function answerCreate(c: Context<ApiEnv>, outcome: CreateOutcome) {
	if (!outcome.created) {
		const href = `/api/v7.1/workout/${outcome.existing.id}/`;
		c.header('Location', href);
		return c.json(
			{
				error: 'duplicate_workout',
				message: 'You already have this workout; it was not stored twice.',
				_diagnostics: { validation_failures: [] },
				_links: { existing: link('workout', outcome.existing.id) },
			},
			409,
		);
	}
	if (outcome.replayed) c.header('Idempotent-Replayed', 'true');
	c.header('ETag', `"${outcome.workout.version}"`);
	c.header('Location', `/api/v7.1/workout/${outcome.workout.id}/`);
	return c.json(representWorkout(outcome.workout, c.var.viewer), 201);
}

function representTotals(totals: Omit<ActivityTotals, 'activityTypeId'>) {
	return {
		count: totals.count,
		distance_total: totals.distanceTotal,
		active_time_total: totals.activeTimeTotal,
		elapsed_time_total: totals.elapsedTimeTotal,
		metabolic_energy_total: totals.metabolicEnergyTotal,
		steps_total: totals.stepsTotal,
	};
}

function representCalories(result: Awaited<ReturnType<typeof calculateCalories>>, input: CaloriesInput) {
	return {
		activity_type: input.activity_type,
		duration: input.duration,
		weight: result.weightKg,
		met: result.met,
		calories: Math.round(result.kcal * 10) / 10,
		metabolic_energy_total: Math.round(result.joules),
		compendium_code: result.code,
		compendium_activity: result.description,
		compendium_edition: result.edition,
	};
}

/** The uploaded file: the multipart field "file", or the raw bytes. */
async function readUpload(
	c: Context<ApiEnv>,
	limit: number,
): Promise<{ bytes: Uint8Array; fileName?: string }> {
	const type = (c.req.header('content-type') ?? '').split(';')[0].trim().toLowerCase();
	let bytes: Uint8Array;
	let fileName: string | undefined;
	if (type === 'multipart/form-data') {
		const form = await c.req.parseBody().catch(() => {
			throw new AppError('bad_request', 'Send the file in the multipart field "file".');
		});
		if (!(form.file instanceof File))
			throw new AppError('bad_request', 'Send the file in the multipart field "file".');
		bytes = new Uint8Array(await form.file.arrayBuffer());
		fileName = form.file.name.slice(0, 200);
	} else if (type === 'application/octet-stream') {
		bytes = new Uint8Array(await c.req.arrayBuffer());
	} else {
		throw new AppError(
			'unsupported_media_type',
			'Send the file as multipart/form-data (field "file") or application/octet-stream.',
		);
	}
	if (bytes.length > limit)
		throw new AppError('payload_too_large', `The file is larger than ${limit} bytes.`, {
			detail: 'file_too_large',
		});
	return { bytes, fileName };
}

/** Workouts, file import, per-member totals, calorie estimates and activity types: the v7.1 workout API. */
export function createWorkoutsApi(): Hono<ApiEnv> {
	const app = new Hono<ApiEnv>();

	for (const path of both('/v7.1/workout/')) {
		app.get(path, validate('query', WorkoutListQuerySchema), async (c) => {
			const query = c.req.valid('query');
			const page = await listWorkouts(c.var.deps, c.var.viewer, query);
			return c.json({
				_embedded: {
					workouts: page.workouts.map((workout: WorkoutWithOwner) => representWorkout(workout, c.var.viewer)),
				},
				total_count: page.totalCount,
				_links: pageLinks('/v7.1/workout/', new URL(c.req.url).searchParams, page),
			});
		});
		app.post(
			path,
			requireViewer,
			validate('header', IdempotencyHeaderSchema),
			validate('json', WorkoutSaveSchema),
			async (c) => {
				const input = c.req.valid('json');
				requireOwnLink(c.var.viewer as { id: number }, input.links?.user, 'workouts');
				return answerCreate(
					c,
					await createWorkout(c.var.deps, c.var.viewer, input, c.req.valid('header')['idempotency-key']),
				);
			},
		);
	}

	for (const path of both('/v7.1/workout/:id/')) {
		app.get(
			path,
			validate('param', WorkoutIdParamSchema),
			validate('query', WorkoutItemQuerySchema),
			async (c) => {
				const workout = await getVisibleWorkout(c.var.deps, c.var.viewer, Number(c.req.valid('param').id));
				const withSeries = c.req.valid('query').field_set === 'time_series';
				const stored = withSeries ? await getWorkoutSeries(c.var.deps, workout.id) : null;
				const recording = withSeries
					? await recordingForViewer(
							c.var.deps,
							workout,
							stored ?? { series: { v: 1, t: [] }, laps: [] },
							c.var.viewer,
						)
					: null;
				const photos = await listWorkoutPhotos(c.var.deps, workout.id);
				c.header('ETag', `"${workout.version}"`);
				c.header('Cache-Control', 'private, no-cache');
				return c.json({
					...representWorkout(workout, c.var.viewer, recording),
					attachments: {
						_embedded: { attachments: photos.map((photo) => representWorkoutPhoto(workout.id, photo)) },
						total_count: photos.length,
					},
				});
			},
		);
		app.put(
			path,
			requireViewer,
			validate('param', WorkoutIdParamSchema),
			validate('json', WorkoutUpdateSchema),
			async (c) => {
				const input = c.req.valid('json');
				requireOwnLink(c.var.viewer as { id: number }, input.links?.user, 'workouts');
				const id = Number(c.req.valid('param').id);
				return answerVersionedEdit(
					c,
					'workout',
					input.version,
					(expected) => updateWorkout(c.var.deps, c.var.viewer, id, input, expected),
					(workout: WorkoutWithOwner) => representWorkout(workout, c.var.viewer),
				);
			},
		);
		app.delete(path, requireViewer, validate('param', WorkoutIdParamSchema), async (c) => {
			await deleteWorkout(c.var.deps, c.var.viewer, Number(c.req.valid('param').id));
			return c.body(null, 204);
		});
	}

	// A device file (GPX, TCX or FIT, bare or in .gz/.zip) in the multipart field "file", or the raw bytes.
	for (const path of both('/v7.1/device/file_import/')) {
		app.post(
			path,
			requireViewer,
			validate('header', IdempotencyHeaderSchema),
			validate('query', WorkoutImportQuerySchema),
			async (c) => {
				const { bytes, fileName } = await readUpload(c, WORKOUT_FILE_BODY_LIMIT);
				const outcome = await importWorkoutFile(
					c.var.deps,
					c.var.viewer,
					bytes,
					{ ...c.req.valid('query'), fileName },
					c.req.valid('header')['idempotency-key'],
				);
				return answerCreate(c, outcome);
			},
		);
	}

	// A zip of device files (a Strava or Garmin export), imported in the background.
	for (const path of both('/v7.1/device/bulk_import/')) {
		app.post(
			path,
			describeRoute({
				summary: 'Import a zip of GPX, TCX and FIT files; answers 202 with the import to poll',
			}),
			requireViewer,
			async (c) => {
				const { bytes } = await readUpload(c, BULK_IMPORT_BODY_LIMIT);
				const started = await startBulkImport(c.var.deps, c.var.viewer, bytes);
				c.header('Location', `/api/v7.1/device/bulk_import/${started.id}/`);
				return c.json(
					{
						...(await getBulkImport(c.var.deps, c.var.viewer, started.id)),
						_links: { self: [{ href: `/v7.1/device/bulk_import/${started.id}/`, id: String(started.id) }] },
					},
					202,
				);
			},
		);
	}
	for (const path of both('/v7.1/device/bulk_import/:id/')) {
		app.get(path, requireViewer, validate('param', BulkImportIdParamSchema), async (c) => {
			const id = Number(c.req.valid('param').id);
			c.header('Cache-Control', 'private, no-store');
			return c.json({
				...(await getBulkImport(c.var.deps, c.var.viewer, id)),
				_links: { self: [{ href: `/v7.1/device/bulk_import/${id}/`, id: String(id) }] },
			});
		});
	}

	for (const path of both('/internal/allWorkouts/')) {
		app.get(path, requireViewer, validate('query', AllWorkoutsQuerySchema), async (c) => {
			const page = await listAllOwnWorkouts(c.var.deps, c.var.viewer, c.req.valid('query'));
			c.header('Cache-Control', 'private, no-store');
			return c.json({
				_embedded: {
					workouts: page.workouts.map((workout) => ({
						id: workout.id,
						name: workout.name,
						start_datetime: formatApiDateTime(workout.startDatetime),
						start_locale_timezone: workout.startLocaleTimezone,
						activity_type: workout.activityTypeId,
						privacy: workout.privacy,
						has_time_series: workout.sampleCount > 0,
						aggregates: aggregatesOf(workout),
						_links: { self: link('workout', workout.id) },
					})),
				},
				total_count: page.totalCount,
				_links: pageLinks('/internal/allWorkouts/', new URL(c.req.url).searchParams, page),
			});
		});
	}

	for (const path of both('/v7.1/user_stats/:id/')) {
		app.get(
			path,
			validate('param', UserStatsParamSchema),
			validate('query', UserStatsQuerySchema),
			async (c) => {
				const userId = Number(c.req.valid('param').id);
				const query = c.req.valid('query');
				const stats = await userStats(c.var.deps, c.var.viewer, userId, query);
				const body: Record<string, unknown> = {
					start_date: query.start_date ?? null,
					end_date: query.end_date ?? null,
					_embedded: {
						stats: stats.perActivity.map((row) => ({
							activity_type: row.activityTypeId,
							...representTotals(row),
							_links: { activity_type: link('activity_type', row.activityTypeId) },
						})),
					},
					_links: { self: link('user_stats', userId), user: link('user', userId) },
				};
				if (query.include_summary_stats) body.summary_stats = representTotals(stats.summary);
				return c.json(body);
			},
		);
	}

	// The SPEC names this GET with a query; clients that send a body use POST.
	for (const path of both('/_api/workout/calculate/calories/')) {
		app.get(path, validate('query', CaloriesQuerySchema), async (c) => {
			const input = c.req.valid('query');
			return c.json(representCalories(await calculateCalories(c.var.deps, c.var.viewer, input), input));
		});
		app.post(path, validate('json', CaloriesBodySchema), async (c) => {
			const input = c.req.valid('json');
			return c.json(representCalories(await calculateCalories(c.var.deps, c.var.viewer, input), input));
		});
	}

	for (const path of both('/v7.1/activity_type/')) {
		app.get(path, validate('query', ActivityTypeListQuerySchema), (c) => {
			const query = c.req.valid('query');
			const all = listActivityTypes().filter(
				(type) => query.parent === undefined || type.parent === query.parent,
			);
			const limit = query.limit ?? all.length;
			const offset = query.offset ?? 0;
			const page = { limit: Math.max(1, limit), offset, totalCount: all.length };
			c.header('Cache-Control', 'public, max-age=86400');
			return c.json({
				_embedded: { activity_types: all.slice(offset, offset + limit).map(representActivityType) },
				total_count: all.length,
				attribution: ACTIVITY_TYPES_ATTRIBUTION,
				_links: pageLinks('/v7.1/activity_type/', new URL(c.req.url).searchParams, page),
			});
		});
	}
	for (const path of both('/v7.1/activity_type/:id/')) {
		app.get(path, validate('param', ActivityTypeParamSchema), (c) => {
			const type = findActivityType(Number(c.req.valid('param').id));
			if (!type) throw new AppError('not_found', 'No such activity type');
			c.header('Cache-Control', 'public, max-age=86400');
			return c.json(representActivityType(type));
		});
	}

	return app;
}
