import { Hono } from 'hono';
import type { ApiEnv } from '../../api/context';
import { answerVersionedEdit, both } from '../../api/hal';
import { validate } from '../../api/validate';
import { requireViewer } from '../../auth/server/middleware';
import { GearCreateSchema, GearIdParamSchema, GearListQuerySchema, GearUpdateSchema } from '../contract';
import { createGear, deleteGear, getOwnGear, listGear, representGear, updateGear } from './service';

/** A member's shoes and bikes with their distance worn: the v7.1 usergear API, owner only. */
export function createGearApi(): Hono<ApiEnv> {
	const app = new Hono<ApiEnv>();

	for (const path of both('/v7.1/usergear/')) {
		app.get(path, requireViewer, validate('query', GearListQuerySchema), async (c) => {
			const retired = c.req.valid('query').retired;
			const gear = await listGear(c.var.deps, c.var.viewer, {
				retired: retired === undefined ? undefined : retired === 'true',
			});
			c.header('Cache-Control', 'private, no-store');
			return c.json({
				_embedded: { usergear: gear.map(representGear) },
				total_count: gear.length,
				_links: { self: [{ href: '/v7.1/usergear/' }] },
			});
		});
		app.post(path, requireViewer, validate('json', GearCreateSchema), async (c) => {
			const gear = await createGear(c.var.deps, c.var.viewer, c.req.valid('json'));
			c.header('ETag', `"${gear.version}"`);
			c.header('Location', `/api/v7.1/usergear/${gear.id}/`);
			return c.json(representGear(gear), 201);
		});
	}

	for (const path of both('/v7.1/usergear/:id/')) {
		app.get(path, requireViewer, validate('param', GearIdParamSchema), async (c) => {
			const gear = await getOwnGear(c.var.deps, c.var.viewer, Number(c.req.valid('param').id));
			c.header('ETag', `"${gear.version}"`);
			c.header('Cache-Control', 'private, no-store');
			return c.json(representGear(gear));
		});
		app.put(
			path,
			requireViewer,
			validate('param', GearIdParamSchema),
			validate('json', GearUpdateSchema),
			async (c) => {
				const input = c.req.valid('json');
				const id = Number(c.req.valid('param').id);
				return answerVersionedEdit(
					c,
					'gear',
					input.version,
					(expected) => updateGear(c.var.deps, c.var.viewer, id, input, expected),
					representGear,
				);
			},
		);
		app.delete(path, requireViewer, validate('param', GearIdParamSchema), async (c) => {
			await deleteGear(c.var.deps, c.var.viewer, Number(c.req.valid('param').id));
			return c.body(null, 204);
		});
	}

	return app;
}
