import type { MapTileLayer } from '../core/map-types';
import { fillTileUrl } from '../tiles/tile-math';

// The planner's first paint. The planner is one large island; until its script has arrived the page shows the
// base map where the planner will open, drawn by a small inline script that runs while the page is still being
// read, so a phone sees streets long before the map can be used. The view is kept in the browser (it is where
// the member plans, and never leaves it), so only a script in the page can know it.
//
// The functions the inline script runs are written out with Function.prototype.toString: each reads nothing but
// its arguments and the browser's globals, and the planner's own code calls the same functions.

export type MapView = { lat: number; lng: number; zoom: number };

/** Central Harrisburg, the demo region, when the member has no last map position. */
export const DEFAULT_PLANNER_VIEW: MapView = { lat: 40.272, lng: -76.85, zoom: 15 };

/** A kept planner view, or null when there is none or it is damaged or out of range. Runs inline: self-contained. */
export function plannerViewFrom(text: string | null): MapView | null {
	let view: { lat?: unknown; lng?: unknown; zoom?: unknown } | null = null;
	try {
		view = JSON.parse(text ?? 'null');
	} catch {
		return null;
	}
	const ok = (value: unknown, limit: number) =>
		typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= limit;
	return view && ok(view.lat, 90) && ok(view.lng, 180) && ok(view.zoom, 22)
		? { lat: view.lat as number, lng: view.lng as number, zoom: view.zoom as number }
		: null;
}

/** One 256-pixel tile as Leaflet places it: its address and its top-left corner in the map's pixels. */
export type PlacedTile = { z: number; x: number; y: number; left: number; top: number };

/**
 * The tiles Leaflet loads when a map of `size` opens at `view` (a whole zoom), each where Leaflet puts it. This is
 * Leaflet's own arithmetic (GridLayer: the pixel origin rounded, the tile range from the floored centre, spherical
 * Mercator clamped at Leaflet's latitude limit), so the addresses are the ones Leaflet will ask for. Runs inline:
 * self-contained.
 */
export function leafletTilesAt(view: MapView, size: { width: number; height: number }): PlacedTile[] {
	const z = view.zoom;
	const n = 2 ** z;
	const limit = 85.0511287798;
	const radians = (Math.max(-limit, Math.min(limit, view.lat)) * Math.PI) / 180;
	const pixel = {
		x: ((view.lng + 180) / 360) * n * 256,
		y: ((1 - Math.log(Math.tan(radians) + 1 / Math.cos(radians)) / Math.PI) / 2) * n * 256,
	};
	const origin = { x: Math.round(pixel.x - size.width / 2), y: Math.round(pixel.y - size.height / 2) };
	const centre = { x: Math.floor(pixel.x), y: Math.floor(pixel.y) };
	const minX = Math.floor((centre.x - size.width / 2) / 256);
	const maxX = Math.ceil((centre.x + size.width / 2) / 256) - 1;
	const minY = Math.max(0, Math.floor((centre.y - size.height / 2) / 256));
	const maxY = Math.min(n - 1, Math.ceil((centre.y + size.height / 2) / 256) - 1);
	const tiles: PlacedTile[] = [];
	for (let y = minY; y <= maxY; y++)
		for (let x = minX; x <= maxX; x++)
			// Across the antimeridian the world repeats: the address wraps, the place does not.
			tiles.push({ z, x: ((x % n) + n) % n, y, left: x * 256 - origin.x, top: y * 256 - origin.y });
	return tiles;
}

/** The ground an edited or copied route covers, and how the planner frames it (Leaflet's fitBounds options). */
export type Frame = {
	south: number;
	west: number;
	north: number;
	east: number;
	padding: number;
	maxZoom: number;
};

/** The planner's framing of a route it opens: 32 pixels to spare on each side, and no closer than zoom 16. */
export const FRAME_PADDING_PX = 32;
export const FRAME_MAX_ZOOM = 16;

/**
 * The view Leaflet's fitBounds gives a map of `size` for `frame` (its getBoundsZoom with whole zooms, the padding
 * on both sides, then the bounds' middle in pixels at that zoom). Runs inline: self-contained.
 */
export function leafletFitView(frame: Frame, size: { width: number; height: number }): MapView {
	const limit = 85.0511287798;
	const pixel = (lat: number, lng: number, z: number) => {
		const radians = (Math.max(-limit, Math.min(limit, lat)) * Math.PI) / 180;
		const world = 256 * 2 ** z;
		return {
			x: ((lng + 180) / 360) * world,
			y: ((1 - Math.log(Math.tan(radians) + 1 / Math.cos(radians)) / Math.PI) / 2) * world,
		};
	};
	const northWest = pixel(frame.north, frame.west, 0);
	const southEast = pixel(frame.south, frame.east, 0);
	const scale = Math.min(
		(size.width - 2 * frame.padding) / (southEast.x - northWest.x),
		(size.height - 2 * frame.padding) / (southEast.y - northWest.y),
	);
	// Leaflet rounds to a hundredth of a zoom before flooring to a whole one; a single point fits at any zoom.
	const fitted = Math.floor(Math.round(Math.log2(scale) * 100) / 100);
	const zoom = Math.max(0, Math.min(frame.maxZoom, fitted));
	const south = pixel(frame.south, frame.west, zoom);
	const north = pixel(frame.north, frame.east, zoom);
	const middle = { x: (south.x + north.x) / 2, y: (south.y + north.y) / 2 };
	const world = 256 * 2 ** zoom;
	return {
		lat: (Math.atan(Math.sinh(Math.PI * (1 - (2 * middle.y) / world))) * 180) / Math.PI,
		lng: (middle.x / world) * 360 - 180,
		zoom,
	};
}

/** What the page tells the inline script: the layers, whether the visitor lets preferences be kept, and where. */
export type PreviewSetup = {
	layers: readonly Pick<MapTileLayer, 'type' | 'url' | 'maxZoom'>[];
	remembered: boolean;
	viewKey: string;
	typeKey: string;
	fallback: MapView;
	/** An edited or copied route, which the planner opens framed wherever the map was last left. */
	frame?: Frame;
};

type PreviewHelpers = {
	viewFrom: typeof plannerViewFrom;
	tilesAt: typeof leafletTilesAt;
	fitView: typeof leafletFitView;
	fillUrl: (template: string, tile: { z: number; x: number; y: number }, retina: boolean) => string;
};

/**
 * Puts the base map's tiles into `box`, at the view and map type the planner will open with (the kept ones, or
 * the default; a route it opens, framed). Runs inline: self-contained but for its helpers, handed in.
 */
export function placePlannerPreview(box: HTMLElement, setup: PreviewSetup, helpers: PreviewHelpers): void {
	const kept = (key: string) => {
		if (!setup.remembered) return null;
		try {
			return window.localStorage.getItem(key);
		} catch {
			return null;
		}
	};
	const type = kept(setup.typeKey);
	const layer = setup.layers.find((candidate) => candidate.type === type) ?? setup.layers[0];
	const size = { width: box.clientWidth, height: box.clientHeight };
	if (size.width === 0 || size.height === 0) return;
	const view = setup.frame
		? helpers.fitView(setup.frame, size)
		: (helpers.viewFrom(kept(setup.viewKey)) ?? setup.fallback);
	// Past the layer's last zoom Leaflet draws scaled tiles of another zoom: nothing to share then.
	if (!layer || !Number.isInteger(view.zoom) || view.zoom > layer.maxZoom) return;
	// Leaflet's own test for `{r}`: a screen denser than one pixel per CSS pixel.
	const retina = window.devicePixelRatio > 1;
	for (const tile of helpers.tilesAt(view, size)) {
		const image = document.createElement('img');
		image.alt = '';
		image.src = helpers.fillUrl(layer.url, tile, retina);
		image.style.left = `${tile.left}px`;
		image.style.top = `${tile.top}px`;
		box.append(image);
	}
}

/**
 * The inline script that fills the placeholder just before it (`document.currentScript`'s previous element). The
 * setup is JSON with `<` escaped, so no value can end the script element.
 */
export function plannerPreviewScript(setup: PreviewSetup): string {
	const data = JSON.stringify(setup).replace(/</g, '\\u003c');
	return `(${placePlannerPreview})(document.currentScript.previousElementSibling,${data},{viewFrom:${plannerViewFrom},tilesAt:${leafletTilesAt},fitView:${leafletFitView},fillUrl:${fillTileUrl}});`;
}
