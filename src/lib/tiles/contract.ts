import * as v from 'valibot';
import { BUILT_IN_TILES_MAX_ZOOM } from '../core/map-types.ts';

/** The layers of a vector tile, in the order the raster style draws them. */
export const MAP_LAYERS = [
	'earth',
	'landcover',
	'water',
	'building',
	'waterway',
	'boundary',
	'railway',
	'road',
	'place',
] as const;
export type MapLayer = (typeof MAP_LAYERS)[number];

/** What every feature of the base map carries: its layer, its class within it and maybe a name. */
export type MapFeatureProperties = {
	layer: MapLayer;
	kind: string;
	name?: string;
	structure?: 'bridge' | 'tunnel';
};

export const MIN_ZOOM = 0;
export const MAX_ZOOM = BUILT_IN_TILES_MAX_ZOOM;

/** `/tiles/{z}/{x}/{y}.png`, `…@2x.png` for high-density screens, `.pbf` or `.mvt` for vector tiles. */
export const TILE_PATH = /^\/tiles\/(\d{1,2})\/(\d{1,6})\/(\d{1,6})(@2x)?\.(png|pbf|mvt)$/;

export const TileRequestSchema = v.pipe(
	v.object({
		z: v.pipe(v.number(), v.integer(), v.minValue(MIN_ZOOM), v.maxValue(MAX_ZOOM)),
		x: v.pipe(v.number(), v.integer(), v.minValue(0)),
		y: v.pipe(v.number(), v.integer(), v.minValue(0)),
		scale: v.picklist([1, 2]),
		format: v.picklist(['png', 'pbf']),
	}),
	v.check((tile) => tile.x < 2 ** tile.z && tile.y < 2 ** tile.z, 'x and y must lie within 0 … 2^z − 1'),
);
export type TileRequest = v.InferOutput<typeof TileRequestSchema>;

/** west, south, east, north in degrees. */
export const BoundsSchema = v.tuple([v.number(), v.number(), v.number(), v.number()]);
export type Bounds = v.InferOutput<typeof BoundsSchema>;

/** `GET /tiles/regions.json`: where the built-in base map has data. */
export const TileRegionsResponseSchema = v.object({
	attribution: v.string(),
	minZoom: v.number(),
	maxZoom: v.number(),
	regions: v.array(v.object({ name: v.string(), bounds: BoundsSchema })),
});
export type TileRegionsResponse = v.InferOutput<typeof TileRegionsResponseSchema>;
