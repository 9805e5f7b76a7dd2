import { Hono } from 'hono';
import * as v from 'valibot';
import type { ApiEnv } from '../../api/context';
import { validate } from '../../api/validate';
import type { Viewer } from '../../auth/contract';
import { requireViewer } from '../../auth/server/middleware';
import { AppError } from '../../core/errors';
import { searchHomeFor } from '../../routing/server/search-home';
import {
	CityTimeZoneQuerySchema,
	MemberIdText,
	PHOTO_MAX_BYTES,
	PromotionalPreferenceSchema,
	UserUpdateSchema,
} from '../contract';
import {
	getHeartRateZones,
	getSelf,
	getUser,
	setProfilePhoto,
	setPromotionalPreference,
	updateUser,
} from './service';
import { findCityTimeZones } from './time-zone-cities';

const idParam = v.object({ id: MemberIdText('id') });
const zonesQuery = v.object({ user: MemberIdText('user') });

/** The main API's member endpoints (MapMyFitness v7.1 shapes); item paths work with and without `/`. */
export function createAccountApi(): Hono<ApiEnv> {
	const app = new Hono<ApiEnv>();
	const viewerOf = (c: { var: { viewer: Viewer | null } }) => c.var.viewer as Viewer;

	for (const path of ['/v7.1/user/self/', '/v7.1/user/self']) {
		app.get(path, requireViewer, async (c) => c.json(await getSelf(c.var.deps, viewerOf(c))));
	}

	for (const path of ['/v7.1/user/:id/', '/v7.1/user/:id']) {
		app.get(path, validate('param', idParam), async (c) =>
			c.json(await getUser(c.var.deps, c.var.viewer, Number(c.req.valid('param').id))),
		);
		app.put(
			path,
			requireViewer,
			validate('param', idParam),
			validate('json', UserUpdateSchema),
			async (c) => {
				const id = Number(c.req.valid('param').id);
				const input = c.req.valid('json');
				const self = input.links?.self;
				if (self !== undefined && self !== id)
					throw new AppError('validation_failed', 'The request is not valid', {
						failures: [
							{ field: '_links.self', message: `_links.self must be /v7.1/user/${id}/, as in the path.` },
						],
					});
				return c.json(await updateUser(c.var.deps, viewerOf(c), id, input));
			},
		);
	}

	for (const path of ['/v7.1/user_profile_photo/:id/', '/v7.1/user_profile_photo/:id']) {
		app.put(path, requireViewer, validate('param', idParam), async (c) => {
			const declared = Number(c.req.header('content-length') ?? 0);
			if (declared > PHOTO_MAX_BYTES + 64 * 1024)
				throw new AppError('payload_too_large', 'The image must be at most 1,000,000 bytes.', {
					detail: 'too-big',
				});
			const form = await c.req.parseBody().catch(() => {
				throw new AppError('bad_request', 'Send the image as multipart/form-data in the field "image".', {
					detail: 'invalid-image-type',
				});
			});
			const file = form.image ?? form.file;
			if (!(file instanceof File))
				throw new AppError('bad_request', 'Send the image as multipart/form-data in the field "image".', {
					detail: 'invalid-image-type',
				});
			if (file.size > PHOTO_MAX_BYTES)
				throw new AppError('payload_too_large', 'The image must be at most 1,000,000 bytes.', {
					detail: 'too-big',
				});
			const bytes = new Uint8Array(await file.arrayBuffer());
			return c.json(await setProfilePhoto(c.var.deps, viewerOf(c), Number(c.req.valid('param').id), bytes));
		});
	}

	for (const path of ['/v7.1/heart_rate_zones/', '/v7.1/heart_rate_zones']) {
		app.get(path, requireViewer, validate('query', zonesQuery), async (c) =>
			c.json(await getHeartRateZones(c.var.deps, viewerOf(c), Number(c.req.valid('query').user))),
		);
	}

	for (const path of ['/v7.1/promotional_preference/', '/v7.1/promotional_preference']) {
		app.post(path, requireViewer, validate('json', PromotionalPreferenceSchema), async (c) =>
			c.json(await setPromotionalPreference(c.var.deps, viewerOf(c), c.req.valid('json')), 201),
		);
		app.put(path, requireViewer, validate('json', PromotionalPreferenceSchema), async (c) =>
			c.json(await setPromotionalPreference(c.var.deps, viewerOf(c), c.req.valid('json'))),
		);
	}

	// The zone picker's city search: open to visitors, as place search is (it names no member).
	for (const path of ['/_api/time_zone_search/', '/_api/time_zone_search']) {
		app.get(path, validate('query', CityTimeZoneQuerySchema), async (c) => {
			const home = await searchHomeFor(c.var.deps, c.var.viewer, c.req.header('cookie'));
			return c.json(findCityTimeZones(c.req.valid('query').term, 8, home));
		});
	}

	return app;
}
