import { Hono } from 'hono';
import * as v from 'valibot';
import { DEFAULT_BODY_LIMIT } from '../../api/body';
import type { ApiEnv } from '../../api/context';
import { answerVersionedEdit, both, pageLinks, requireOwnLink } from '../../api/hal';
import { validate } from '../../api/validate';
import { requireViewer } from '../../auth/server/middleware';
import { AppError } from '../../core/errors';
import { idText } from '../../core/integers';
import {
	BookmarkCreateSchema,
	BookmarkListQuerySchema,
	MAX_BATCH_IDS,
	PrivacyToggleQuerySchema,
	RouteIdParamSchema,
	RouteImportQuerySchema,
	RouteItemQuerySchema,
	RouteListQuerySchema,
	RouteSaveSchema,
	RouteUpdateSchema,
} from '../contract';
import { getVisibleRoute, type RouteWithOwner } from './access';
import { createBookmark, deleteBookmark, listBookmarks } from './bookmarks';
import { copyRoute } from './copy';
import { exportRoute, importRoute, ROUTE_EXPORT_FORMATS, routeFileHeaders } from './files';
import { getRoutesByIds, listRoutes } from './lists';
import { representBookmark, representRoute } from './represent';
import {
	createRoute,
	deleteRoute,
	type RouteHeightLookup,
	rotateLinkToken,
	setRoutePrivacy,
	updateRoute,
} from './saving';

const singleId = v.object({ id: idText('id must be a route id') });
const bookmarkId = v.object({ id: idText('id must be a bookmark id') });
/**
 * A copy takes nothing from the caller: owner, privacy and name are decided by the server, so any
 * field sent (owner, privacy, link token…) is refused rather than silently dropped.
 */
const RouteCopyBodySchema = v.strictObject({});
/** The API's body limit applies to uploads too; a route's GPX is far smaller. */
const IMPORT_MAX_BYTES = DEFAULT_BODY_LIMIT;

export type RoutesApiOptions = {
	/** Where a saved route's heights come from; without it they are the sender's. */
	heights?: RouteHeightLookup | null;
};

/** Routes, route search, bookmarks, the privacy toggle and GPX in and out: the v7.1 route API. */
export function createRoutesApi(options: RoutesApiOptions = {}): Hono<ApiEnv> {
	const heights = options.heights ?? null;
	const app = new Hono<ApiEnv>();

	for (const path of both('/v7.1/route/')) {
		app.get(path, validate('query', RouteListQuerySchema), async (c) => {
			const query = c.req.valid('query');
			const page = await listRoutes(c.var.deps, c.var.viewer, query);
			const params = new URL(c.req.url).searchParams;
			return c.json({
				_embedded: {
					routes: page.routes.map((route) => representRoute(route, c.var.viewer, query.field_set)),
				},
				total_count: page.totalCount,
				_links: pageLinks('/v7.1/route/', params, page),
			});
		});
		app.post(path, requireViewer, validate('json', RouteSaveSchema), async (c) => {
			const input = c.req.valid('json');
			requireOwnLink(c.var.viewer as { id: number }, input.links?.user, 'routes');
			const route = await createRoute(c.var.deps, c.var.viewer, input, { heights });
			c.header('ETag', `"${route.version}"`);
			c.header('Location', `/api/v7.1/route/${route.id}/`);
			return c.json(representRoute(route, c.var.viewer, 'detailed_internal'), 201);
		});
	}

	// GPX import: the raw file as application/octet-stream (or multipart field "file").
	for (const path of both('/v7.1/route/upload/')) {
		app.post(path, requireViewer, validate('query', RouteImportQuerySchema), async (c) => {
			const query = c.req.valid('query');
			const type = (c.req.header('content-type') ?? '').split(';')[0].trim().toLowerCase();
			let bytes: Uint8Array;
			if (type === 'multipart/form-data') {
				const form = await c.req.parseBody().catch(() => {
					throw new AppError('bad_request', 'Send the file in the multipart field "file".');
				});
				if (!(form.file instanceof File))
					throw new AppError('bad_request', 'Send the file in the multipart field "file".');
				bytes = new Uint8Array(await form.file.arrayBuffer());
			} else if (type === 'application/octet-stream') {
				bytes = new Uint8Array(await c.req.arrayBuffer());
			} else {
				throw new AppError(
					'unsupported_media_type',
					'Send the GPX file as application/octet-stream or multipart/form-data.',
				);
			}
			if (bytes.length > IMPORT_MAX_BYTES)
				throw new AppError('payload_too_large', `The file is larger than ${IMPORT_MAX_BYTES} bytes.`);
			const route = await importRoute(c.var.deps, c.var.viewer, bytes, {
				name: query.name,
				privacy: query.privacy,
				activityType: query.activity_type,
			});
			return c.json(representRoute(route, c.var.viewer, 'detailed_internal'), 201);
		});
	}

	// GPX and FIT (a course for GPS devices) downloads, for whoever may see the route.
	for (const format of ROUTE_EXPORT_FORMATS) {
		for (const path of both(`/v7.1/route/:id/${format}/`)) {
			app.get(path, validate('param', singleId), validate('query', RouteItemQuerySchema), async (c) => {
				const file = await exportRoute(
					c.var.deps,
					c.var.viewer,
					Number(c.req.valid('param').id),
					c.req.valid('query').token,
					format,
				);
				return c.body(file.body, 200, routeFileHeaders(file));
			});
		}
	}

	// Copy a route the caller can see into a new private route of theirs (a link holder passes the token).
	for (const path of both('/v7.1/route/:id/copy/')) {
		app.post(
			path,
			requireViewer,
			validate('param', singleId),
			validate('query', RouteItemQuerySchema),
			validate('json', RouteCopyBodySchema),
			async (c) => {
				const query = c.req.valid('query');
				const copy = await copyRoute(c.var.deps, c.var.viewer, Number(c.req.valid('param').id), query.token);
				c.header('ETag', `"${copy.version}"`);
				c.header('Location', `/api/v7.1/route/${copy.id}/`);
				return c.json(representRoute(copy, c.var.viewer, query.field_set ?? 'detailed_internal'), 201);
			},
		);
	}

	for (const path of both('/v7.1/route/:id/rotate_link/')) {
		app.post(path, requireViewer, validate('param', singleId), async (c) => {
			const route = await rotateLinkToken(c.var.deps, c.var.viewer, Number(c.req.valid('param').id));
			return c.json(representRoute(route, c.var.viewer));
		});
	}

	for (const path of both('/v7.1/route/:id/')) {
		app.get(
			path,
			validate('param', RouteIdParamSchema),
			validate('query', RouteItemQuerySchema),
			async (c) => {
				const { field_set: fieldSet, token } = c.req.valid('query');
				const raw = c.req.valid('param').id;
				if (raw.includes(',')) {
					const ids = [...new Set(raw.split(',').filter(Boolean).map(Number))];
					if (ids.length > MAX_BATCH_IDS)
						throw new AppError('validation_failed', 'Too many ids', {
							failures: [{ field: 'id', message: `At most ${MAX_BATCH_IDS} ids at once.` }],
						});
					const found = await getRoutesByIds(c.var.deps, c.var.viewer, ids);
					return c.json({
						_embedded: { routes: found.map((route) => representRoute(route, c.var.viewer, fieldSet)) },
						total_count: found.length,
						_links: { self: [{ href: `/v7.1/route/${ids.join(',')}/` }] },
					});
				}
				const route = await getVisibleRoute(c.var.deps, c.var.viewer, Number(raw), token);
				c.header('ETag', `"${route.version}"`);
				c.header('Cache-Control', 'private, no-cache');
				return c.json(representRoute(route, c.var.viewer, fieldSet ?? 'detailed'));
			},
		);
		app.put(
			path,
			requireViewer,
			validate('param', singleId),
			validate('json', RouteUpdateSchema),
			async (c) => {
				const input = c.req.valid('json');
				requireOwnLink(c.var.viewer as { id: number }, input.links?.user, 'routes');
				const id = Number(c.req.valid('param').id);
				return answerVersionedEdit(
					c,
					'route',
					input.version,
					(expected) => updateRoute(c.var.deps, c.var.viewer, id, input, expected, heights),
					(route: RouteWithOwner) => representRoute(route, c.var.viewer, 'detailed_internal'),
				);
			},
		);
		app.delete(path, requireViewer, validate('param', singleId), async (c) => {
			await deleteRoute(c.var.deps, c.var.viewer, Number(c.req.valid('param').id));
			return c.body(null, 204);
		});
	}

	for (const path of both('/v7.1/route_bookmark/')) {
		app.get(path, requireViewer, validate('query', BookmarkListQuerySchema), async (c) => {
			const page = await listBookmarks(c.var.deps, c.var.viewer, c.req.valid('query'));
			return c.json({
				_embedded: {
					route_bookmarks: page.bookmarks.map((bookmark) => ({
						...representBookmark(bookmark),
						route: representRoute(bookmark.route, c.var.viewer),
					})),
				},
				total_count: page.totalCount,
				_links: pageLinks('/v7.1/route_bookmark/', new URL(c.req.url).searchParams, page),
			});
		});
		app.post(path, requireViewer, validate('json', BookmarkCreateSchema), async (c) => {
			const input = c.req.valid('json');
			const { bookmark, created } = await createBookmark(
				c.var.deps,
				c.var.viewer,
				input.route,
				input.links?.user,
			);
			return c.json(representBookmark(bookmark), created ? 201 : 200);
		});
	}

	for (const path of both('/v7.1/route_bookmark/:id/')) {
		app.delete(path, requireViewer, validate('param', bookmarkId), async (c) => {
			await deleteBookmark(c.var.deps, c.var.viewer, Number(c.req.valid('param').id));
			return c.body(null, 204);
		});
	}

	// Existing clients call it with GET; it changes state, so it takes only a bearer token (never a cookie).
	for (const path of both('/_api/social/privacy_toggle/')) {
		app.get(path, requireViewer, validate('query', PrivacyToggleQuerySchema), async (c) => {
			const query = c.req.valid('query');
			const route = await setRoutePrivacy(c.var.deps, c.var.viewer, query.object_id, query.set_privacy_to);
			return c.json({
				content_type_id: 1,
				object_id: route.id,
				privacy: route.privacy,
				share_token: route.linkToken,
			});
		});
	}

	return app;
}
