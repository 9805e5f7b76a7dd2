import './distance-markers.scss';
import L from 'leaflet';
import { chooseVisibleMarkers } from '../../lib/routes/render';

const MARKER_RADIUS_PX = 8;

/** A marker's footprint: its circle, widened for labels longer than the circle (about 7 px a digit). */
function estimateMarkerSize(label: string): { width: number; height: number } {
	return { width: Math.max(MARKER_RADIUS_PX * 2, label.length * 7 + 6), height: MARKER_RADIUS_PX * 2 };
}

const escapeLabel = (label: string) => label.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

type DistanceMarker = { label: string; lat: number; lng: number };

function makeLayer(marker: DistanceMarker): L.Marker {
	// A div icon sized by its label, not a circle with a tooltip: a tooltip measures itself in the page as it
	// opens, and dozens of those after every edit of a long route force as many layouts.
	const { width, height } = estimateMarkerSize(marker.label);
	return L.marker([marker.lat, marker.lng], {
		icon: L.divIcon({
			className: 'distance-marker',
			html: `<span class="route-map__label">${escapeLabel(marker.label)}</span>`,
			iconSize: [width, height],
		}),
		interactive: false,
		keyboard: false,
		zIndexOffset: -1000,
	});
}

export type DistanceMarkerLayer = ReturnType<typeof distanceMarkerLayer>;

/**
 * Mile or km markers on a Leaflet map as labelled circles (no icon images load). Zoomed out they would pile onto
 * each other, so after every zoom only as many are shown as have room. `update` takes the route's markers after
 * an edit and moves the ones it already shows (labels are unique along a route) instead of making them again.
 */
export function distanceMarkerLayer(map: L.Map) {
	let markers: readonly DistanceMarker[] = [];
	let layers = new Map<string, { layer: L.Marker; lat: number; lng: number; shown: boolean }>();
	const thin = () => {
		const visible = chooseVisibleMarkers(
			markers.map((marker) => {
				const at = map.latLngToContainerPoint([marker.lat, marker.lng]);
				return { x: at.x, y: at.y, ...estimateMarkerSize(marker.label) };
			}),
		);
		markers.forEach((marker, index) => {
			const drawn = layers.get(marker.label);
			if (!drawn || drawn.shown === visible[index]) return;
			drawn.shown = visible[index];
			if (drawn.shown) drawn.layer.addTo(map);
			else drawn.layer.remove();
		});
	};
	map.on('zoomend', thin);
	return {
		update(next: readonly DistanceMarker[]): void {
			const kept = new Map<string, { layer: L.Marker; lat: number; lng: number; shown: boolean }>();
			for (const marker of next) {
				const drawn = layers.get(marker.label);
				layers.delete(marker.label);
				if (!drawn) {
					kept.set(marker.label, {
						layer: makeLayer(marker),
						lat: marker.lat,
						lng: marker.lng,
						shown: false,
					});
					continue;
				}
				if (drawn.lat !== marker.lat || drawn.lng !== marker.lng) {
					drawn.layer.setLatLng([marker.lat, marker.lng]);
					drawn.lat = marker.lat;
					drawn.lng = marker.lng;
				}
				kept.set(marker.label, drawn);
			}
			for (const unused of layers.values()) unused.layer.remove();
			layers = kept;
			markers = next;
			thin();
		},
		remove(): void {
			map.off('zoomend', thin);
			for (const drawn of layers.values()) drawn.layer.remove();
			layers.clear();
			markers = [];
		},
	};
}

/** Shows a fixed set of markers; returns the function that takes them off. */
export function showDistanceMarkers(map: L.Map, markers: readonly DistanceMarker[]): () => void {
	const layer = distanceMarkerLayer(map);
	layer.update(markers);
	return () => layer.remove();
}
