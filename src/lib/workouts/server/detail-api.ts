import { Hono } from 'hono';
import type { ApiEnv } from '../../api/context';
import { both, expectedVersion, preconditionFailed } from '../../api/hal';
import { validate } from '../../api/validate';
import { requireViewer } from '../../auth/server/middleware';
import { AppError } from '../../core/errors';
import { WorkoutCutSchema, WorkoutExportQuerySchema, WorkoutIdParamSchema } from '../contract';
import { cutWorkout, exportWorkout, originalFile } from './detail';
import { representWorkout } from './represent';

/**
 * Cutting a recorded workout (owner only) and downloading it as GPX, TCX or FIT (whoever may see it)
 * or as the file it was imported from (owner only).
 */
export function createWorkoutDetailApi(): Hono<ApiEnv> {
	const app = new Hono<ApiEnv>();

	for (const path of both('/internal/cutWorkout/:id/')) {
		app.post(
			path,
			requireViewer,
			validate('param', WorkoutIdParamSchema),
			validate('json', WorkoutCutSchema),
			async (c) => {
				const input = c.req.valid('json');
				const version = expectedVersion(c, input.version, 'workout');
				const outcome = await cutWorkout(c.var.deps, c.var.viewer, Number(c.req.valid('param').id), {
					...input,
					version: version ?? undefined,
				});
				if (!outcome.ok)
					return preconditionFailed(
						c,
						'workout',
						version,
						outcome.current,
						representWorkout(outcome.current, c.var.viewer),
					);
				c.header('ETag', `"${outcome.workout.version}"`);
				return c.json(representWorkout(outcome.workout, c.var.viewer));
			},
		);
	}

	for (const path of both('/v7.1/workout/:id/export/')) {
		app.get(
			path,
			validate('param', WorkoutIdParamSchema),
			validate('query', WorkoutExportQuerySchema),
			async (c) => {
				const id = Number(c.req.valid('param').id);
				const format = c.req.valid('query').format;
				const file =
					format === 'original'
						? await originalFile(c.var.deps, c.var.viewer, id)
						: await exportWorkout(c.var.deps, c.var.viewer, id, format);
				c.header('Content-Type', file.contentType);
				c.header('Content-Disposition', `attachment; filename="${file.fileName}"`);
				c.header('Cache-Control', 'private, no-cache');
				return c.body(typeof file.body === 'string' ? file.body : new Uint8Array(file.body));
			},
		);
	}

	return app;
}
