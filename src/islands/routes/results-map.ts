import 'leaflet/dist/leaflet.css';
import L from 'leaflet';
import { escapeHtml } from '../../lib/core/html';
import { type MapTileLayer, OSM_ATTRIBUTION } from '../../lib/core/map-types';
import { decodePreviewLine, type RouteListItem } from '../../lib/routes/contract';
import { storedMapType } from '../../lib/site/map-memory';
import { addBaseLayer } from './map-layers';

/**
 * The route search's results on a Leaflet map: each result's simplified line and a start marker.
 * Loaded on its own by the search island once it runs, so Leaflet never weighs on the page's first load.
 */
export type ResultsMap = {
	show(routes: readonly RouteListItem[]): void;
	highlight(routeId: number | null): void;
	remove(): void;
};

export type ResultsMapEvents = {
	/** The pointer is over a result's line or marker (null: it left). */
	onHover(routeId: number | null): void;
	/** A result's marker or line was clicked, or its marker activated from the keyboard. */
	onChoose(routeId: number): void;
};

const LINE = { color: '#0b5cad', weight: 3, opacity: 0.65 };
const HIGHLIGHTED_LINE = { color: '#c2410c', weight: 6, opacity: 1 };

export function createResultsMap(
	element: HTMLElement,
	layers: readonly MapTileLayer[],
	events: ResultsMapEvents,
): ResultsMap {
	const map = L.map(element, { scrollWheelZoom: false });
	map.attributionControl.addAttribution(escapeHtml(OSM_ATTRIBUTION));
	const type = storedMapType(layers);
	const tiles = layers.find((layer) => layer.type === type);
	const removeBaseLayer = tiles ? addBaseLayer(map, tiles) : () => {};
	const group = L.layerGroup().addTo(map);
	let drawn = new Map<number, { line: L.Polyline | null; marker: L.Marker }>();

	const listen = (layer: L.Layer, routeId: number) => {
		layer.on('click', () => events.onChoose(routeId));
		// A focused marker answers Enter with a keypress, not a click.
		layer.on('keypress', (event) => {
			const key = (event as L.LeafletKeyboardEvent).originalEvent.key;
			if (key === 'Enter' || key === ' ') events.onChoose(routeId);
		});
		layer.on('mouseover', () => events.onHover(routeId));
		layer.on('mouseout', () => events.onHover(null));
	};

	return {
		show(routes) {
			group.clearLayers();
			drawn = new Map();
			const bounds = L.latLngBounds([]);
			for (const route of routes) {
				const points = decodePreviewLine(route.previewLine);
				const line =
					points.length >= 2
						? L.polyline(points, { ...LINE, className: 'route-results-map__line' }).addTo(group)
						: null;
				// A div icon: no marker images to load, and Leaflet makes it a focusable button named by its title.
				const marker = L.marker(route.start, {
					icon: L.divIcon({ className: 'route-results-map__marker', iconSize: [18, 18] }),
					title: route.name,
					keyboard: true,
				}).addTo(group);
				if (line) listen(line, route.id);
				listen(marker, route.id);
				drawn.set(route.id, { line, marker });
				for (const point of points.length >= 2 ? points : [route.start]) bounds.extend(point);
			}
			if (bounds.isValid()) map.fitBounds(bounds, { padding: [24, 24], maxZoom: 15 });
			// Leaflet makes the elements once the map has a view; they name their route for the page's styles and tests.
			for (const [id, { line, marker }] of drawn) {
				marker.getElement()?.setAttribute('data-route-id', String(id));
				line?.getElement()?.setAttribute('data-route-id', String(id));
			}
		},
		highlight(routeId) {
			for (const [id, { line, marker }] of drawn) {
				const on = id === routeId;
				line?.setStyle(on ? HIGHLIGHTED_LINE : LINE);
				line?.getElement()?.classList.toggle('is-highlighted', on);
				if (on) line?.bringToFront();
				marker.getElement()?.classList.toggle('is-highlighted', on);
				marker.setZIndexOffset(on ? 1000 : 0);
			}
		},
		remove() {
			removeBaseLayer();
			map.remove();
		},
	};
}
