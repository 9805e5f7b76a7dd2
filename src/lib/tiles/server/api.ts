import { Hono } from 'hono';
import * as v from 'valibot';
import { OSM_ATTRIBUTION } from '../../core/map-types.ts';
import { MAX_ZOOM, MIN_ZOOM, TILE_PATH, type TileRegionsResponse, TileRequestSchema } from '../contract.ts';
import type { TileService } from './service.ts';

/** Browsers and proxies keep a tile a day, then revalidate with its ETag (a 304 costs no drawing). */
export const TILE_CACHE_CONTROL = 'public, max-age=86400, stale-while-revalidate=604800';

/**
 * `/tiles/{z}/{x}/{y}.png` (and `@2x.png`, `.pbf`, `.mvt`) and `/tiles/regions.json`, served
 * outside /api so the default TILE_URL is a plain path. `source` is null when the map uses
 * another tile service: every tile path then answers 404. A getter serves whichever service is
 * current when added or removed regions replace it while the server runs.
 */
export function createTilesApp(source: Promise<TileService> | (() => Promise<TileService>) | null): Hono {
	const app = new Hono();
	const getService = source === null ? null : typeof source === 'function' ? source : () => source;
	app.use(async (c, next) => {
		await next();
		c.header('X-Content-Type-Options', 'nosniff');
		// Tiles are images any page (embeds on other sites included) may draw.
		c.header('Access-Control-Allow-Origin', '*');
	});

	app.get('/tiles/regions.json', async (c) => {
		if (!getService)
			return c.json({ error: 'not_found', message: 'This server uses another tile service' }, 404);
		const tiles = await getService();
		const body: TileRegionsResponse = {
			attribution: OSM_ATTRIBUTION,
			minZoom: MIN_ZOOM,
			maxZoom: MAX_ZOOM,
			regions: tiles.listRegions(),
		};
		// Regions come and go with `npm run regions`: a browser asks again after a few minutes.
		c.header('Cache-Control', 'public, max-age=300');
		return c.json(body);
	});

	app.get('/tiles/*', async (c) => {
		if (!getService)
			return c.json({ error: 'not_found', message: 'This server uses another tile service' }, 404);
		const match = TILE_PATH.exec(c.req.path);
		if (!match) {
			return c.json(
				{ error: 'bad_request', message: 'Tile paths are /tiles/{z}/{x}/{y}.png, @2x.png, .pbf or .mvt' },
				400,
			);
		}
		const parsed = v.safeParse(TileRequestSchema, {
			z: Number(match[1]),
			x: Number(match[2]),
			y: Number(match[3]),
			scale: match[4] ? 2 : 1,
			format: match[5] === 'png' ? 'png' : 'pbf',
		});
		if (!parsed.success) {
			const message = parsed.issues.map(
				(issue) => `${issue.path?.map((p) => p.key).join('.') || 'tile'}: ${issue.message}`,
			);
			return c.json(
				{ error: 'bad_request', message: `Zoom is ${MIN_ZOOM}–${MAX_ZOOM}; ${message.join('; ')}` },
				400,
			);
		}
		const tile = await (await getService()).getTile(parsed.output);
		c.header('Cache-Control', TILE_CACHE_CONTROL);
		c.header('ETag', tile.etag);
		if (c.req.header('if-none-match') === tile.etag) return c.body(null, 304);
		c.header('Content-Type', tile.contentType);
		return c.body(new Uint8Array(tile.body));
	});

	app.all('/tiles/*', (c) =>
		c.json({ error: 'method_not_allowed', message: 'Tiles are read with GET' }, 405),
	);
	return app;
}
