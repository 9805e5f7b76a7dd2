import L from 'leaflet';
import { escapeHtml } from '../../lib/core/html';
import type { MapTileLayer } from '../../lib/core/map-types';
import { getRolloutVariant, type Rollout } from '../../lib/site/rollouts';
import { $rollouts, loadBootup } from '../../lib/site/store';
import { addStreetDetailNote } from './street-detail-note';

/** The built-in raster base map (`/tiles/{z}/{x}/{y}.png`, maybe with `{r}`), whose vector tiles the server serves too. */
const BUILT_IN_RASTER = /^\/tiles\/\{z\}\/\{x\}\/\{y\}(?:\{r\})?\.png$/;
export const BUILT_IN_VECTOR_TILES = '/tiles/{z}/{x}/{y}.pbf';

export type BaseLayerChoice =
	| { engine: 'vector'; tiles: string }
	| { engine: 'raster'; reason: 'control' | 'no-vector-tiles' | 'no-webgl' };

/**
 * Which engine draws a base layer: MapLibre over the server's vector tiles for members in the alternate maps
 * rollout, when the layer is the built-in map and the browser has WebGL 2; raster tiles otherwise.
 */
export function chooseBaseLayer(
	layer: MapTileLayer,
	rollouts: readonly Rollout[],
	hasWebGL: () => boolean,
): BaseLayerChoice {
	if (getRolloutVariant(rollouts, 'alternate_maps_type') !== 'enabled')
		return { engine: 'raster', reason: 'control' };
	if (!BUILT_IN_RASTER.test(layer.url)) return { engine: 'raster', reason: 'no-vector-tiles' };
	if (!hasWebGL()) return { engine: 'raster', reason: 'no-webgl' };
	return { engine: 'vector', tiles: BUILT_IN_VECTOR_TILES };
}

/** MapLibre draws with WebGL 2. */
export function browserHasWebGL(): boolean {
	try {
		return document.createElement('canvas').getContext('webgl2') !== null;
	} catch {
		return false;
	}
}

/** The viewer's rollouts; the bootup configuration knows the signed-in member from the session cookie. */
async function viewerRollouts(): Promise<readonly Rollout[]> {
	await loadBootup();
	return $rollouts.get();
}

export function rasterLayer(layer: MapTileLayer): L.TileLayer {
	return L.tileLayer(layer.url, {
		attribution: layer.attribution ? escapeHtml(layer.attribution) : undefined,
		maxZoom: layer.maxZoom,
	});
}

/**
 * Puts a map's base layer under its overlays: raster tiles, or for members in the alternate maps rollout the
 * vector map drawn by MapLibre (its script loads only then). A page rendered for the member hands over their
 * `rollouts`, and the tiles are asked for at once; otherwise the bootup configuration is asked first.
 * Returns what takes the layer off again.
 */
export function addBaseLayer(map: L.Map, layer: MapTileLayer, rollouts?: readonly Rollout[]): () => void {
	let shown: L.Layer | null = null;
	let removed = false;
	// Only the built-in map knows where its street detail ends.
	const removeNote = BUILT_IN_RASTER.test(layer.url) ? addStreetDetailNote(map) : () => {};
	const showRaster = () => {
		if (removed) return;
		const tiles = rasterLayer(layer).addTo(map);
		tiles.bringToBack();
		shown = tiles;
	};
	const show = async (known: readonly Rollout[]) => {
		if (removed) return;
		const choice = chooseBaseLayer(layer, known, browserHasWebGL);
		if (choice.engine === 'raster') {
			if (choice.reason === 'no-webgl')
				console.warn('This browser has no WebGL 2: the map shows raster tiles.');
			return showRaster();
		}
		try {
			const { vectorLayer } = await import('./vector-base-layer');
			if (removed) return;
			shown = vectorLayer(layer, choice.tiles).addTo(map);
		} catch (error) {
			console.warn('The vector map could not start: the map shows raster tiles.', error);
			shown?.remove();
			showRaster();
		}
	};
	if (rollouts) void show(rollouts);
	else
		void viewerRollouts()
			.catch(() => [])
			.then(show);
	return () => {
		removed = true;
		removeNote();
		shown?.remove();
	};
}
