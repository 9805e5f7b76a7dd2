import { Hono } from 'hono';
import * as v from 'valibot';
import type { ApiEnv } from '../../api/context';
import { answerVersionedEdit, both } from '../../api/hal';
import { validate } from '../../api/validate';
import { requireViewer } from '../../auth/server/middleware';
import { AppError } from '../../core/errors';
import { idText } from '../../core/integers';
import {
	WORKOUT_PHOTO_MAX_BYTES,
	WorkoutCutSchema,
	WorkoutExportQuerySchema,
	WorkoutIdParamSchema,
	WorkoutPhotoSizeSchema,
} from '../contract';
import { cutWorkout, exportWorkout, originalFile } from './detail';
import { addWorkoutPhoto, readWorkoutPhoto, removeWorkoutPhoto } from './photos';
import { representWorkout } from './represent';
import type { WorkoutWithOwner } from './service';

const PhotoParamSchema = v.object({
	id: WorkoutIdParamSchema.entries.id,
	photo: idText('photo must be a photo id'),
});

/**
 * Cutting a recorded workout (owner only) and downloading it as GPX, TCX or FIT (whoever may see it)
 * or as the file it was imported from (owner only); the workout's photos.
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
				const id = Number(c.req.valid('param').id);
				return answerVersionedEdit(
					c,
					'workout',
					input.version,
					(expected) =>
						cutWorkout(c.var.deps, c.var.viewer, id, { ...input, version: expected ?? undefined }),
					(workout: WorkoutWithOwner) => representWorkout(workout, c.var.viewer),
				);
			},
		);
	}

	for (const path of both('/v7.1/workout/:id/photo/')) {
		app.post(path, requireViewer, validate('param', WorkoutIdParamSchema), async (c) => {
			const declared = Number(c.req.header('content-length') ?? 0);
			if (declared > WORKOUT_PHOTO_MAX_BYTES + 64 * 1024)
				throw new AppError('payload_too_large', 'A photo may be at most 12 MB.', { detail: 'too-big' });
			const form = await c.req.parseBody().catch(() => null);
			const file = form?.image ?? form?.file;
			if (!(file instanceof File))
				throw new AppError('bad_request', 'Send the photo as multipart/form-data in the field "image".', {
					detail: 'invalid-image-type',
				});
			const bytes = new Uint8Array(await file.arrayBuffer());
			const photo = await addWorkoutPhoto(c.var.deps, c.var.viewer, Number(c.req.valid('param').id), bytes);
			return c.json(photo, 201);
		});
	}

	for (const path of both('/v7.1/workout/:id/photo/:photo/')) {
		app.get(
			path,
			validate('param', PhotoParamSchema),
			validate('query', v.object({ size: v.optional(WorkoutPhotoSizeSchema, 'large') })),
			async (c) => {
				const { id, photo } = c.req.valid('param');
				const found = await readWorkoutPhoto(
					c.var.deps,
					c.var.viewer,
					Number(id),
					Number(photo),
					c.req.valid('query').size,
				);
				if (!found) throw new AppError('not_found', 'No such photo');
				c.header('Content-Type', 'image/jpeg');
				c.header('Cache-Control', 'private, max-age=3600');
				return c.body(new Uint8Array(found.bytes));
			},
		);
		app.delete(path, requireViewer, validate('param', PhotoParamSchema), async (c) => {
			const { id, photo } = c.req.valid('param');
			await removeWorkoutPhoto(c.var.deps, c.var.viewer, Number(id), Number(photo));
			return c.body(null, 204);
		});
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
				c.header('Content-Disposition', file.disposition);
				c.header('Cache-Control', 'private, no-cache');
				return c.body(typeof file.body === 'string' ? file.body : new Uint8Array(file.body));
			},
		);
	}

	return app;
}
