import { MaplibreGL } from '@maplibre/maplibre-gl-leaflet';
import type L from 'leaflet';
import { setWorkerUrl } from 'maplibre-gl';
import styleSheetUrl from 'maplibre-gl/dist/maplibre-gl.css?url';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import { escapeHtml } from '../../lib/core/html';
import type { MapTileLayer } from '../../lib/core/map-types';
import { readMapFonts, readMapPalette } from '../../lib/tiles/palette';
import { buildVectorStyle } from '../../lib/tiles/vector-style';
import tokens from '../../styles/_tokens.scss?raw';

// Loaded only for members in the alternate maps rollout: MapLibre is most of this chunk.

// The bundler moves MapLibre away from its worker file; say where the worker went.
setWorkerUrl(workerUrl);

const palette = readMapPalette(tokens);
const fonts = readMapFonts(tokens);

/** MapLibre's style sheet, linked only when the vector map is shown (imported, it would join every map page's CSS). */
function linkStyleSheet() {
	if (document.querySelector(`link[href="${styleSheetUrl}"]`)) return;
	const link = document.createElement('link');
	link.rel = 'stylesheet';
	link.href = styleSheetUrl;
	document.head.append(link);
}

/** The base map as vector tiles drawn by MapLibre, as one Leaflet layer under every overlay. */
export function vectorLayer(layer: MapTileLayer, tiles: string): L.Layer {
	linkStyleSheet();
	return new MaplibreGL({
		style: buildVectorStyle({
			tiles,
			origin: window.location.origin,
			palette,
			attribution: escapeHtml(layer.attribution),
			maxZoom: layer.maxZoom,
			fonts,
		}),
		maxZoom: layer.maxZoom,
		// Leaflet keeps every gesture: clicks reach the map and its overlays as with raster tiles.
		interactive: false,
	});
}
