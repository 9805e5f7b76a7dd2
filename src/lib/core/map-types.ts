/**
 * The map types a route map can offer, their names in the map type picker, and one configured tile layer.
 * No schema here: islands import this file, and the server validates layers in config.ts.
 */
export const MAP_TYPES = [
	'roadmap',
	'terrain',
	'satellite',
	'hybrid',
	'OSM',
	'USA_TOPO',
	'WORLD_TOPO',
] as const;
export type MapType = (typeof MAP_TYPES)[number];

export const MAP_TYPE_LABELS: Record<MapType, string> = {
	roadmap: 'Road map',
	terrain: 'Terrain',
	satellite: 'Satellite',
	hybrid: 'Hybrid',
	OSM: 'OpenStreetMap',
	USA_TOPO: 'USA topographic',
	WORLD_TOPO: 'World topographic',
};

export type MapTileLayer = {
	type: MapType;
	/** A Leaflet URL template: `https://…` or a path on this server, with {z}, {x} and {y}. */
	url: string;
	/** Plain text shown in the map corner, after the OpenStreetMap credit every map carries. */
	attribution: string;
	maxZoom: number;
};

/** Route lines and markers come from OpenStreetMap data, so every map credits it whatever the tiles. */
export const OSM_ATTRIBUTION = '© OpenStreetMap contributors';

/** The built-in base map (`/tiles/…`, drawn from the bundled extracts) stops at this zoom. */
export const BUILT_IN_TILES_MAX_ZOOM = 18;
