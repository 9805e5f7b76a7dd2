import './distance-markers.scss';
import L from 'leaflet';
import { chooseVisibleMarkers } from '../../lib/routes/render';

const MARKER_RADIUS_PX = 8;

/** A marker's footprint: its circle, widened for labels longer than the circle (about 7 px a digit). */
function estimateMarkerSize(label: string): { width: number; height: number } {
	return { width: Math.max(MARKER_RADIUS_PX * 2, label.length * 7 + 6), height: MARKER_RADIUS_PX * 2 };
}

const escapeLabel = (label: string) => label.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Mile or km markers on a Leaflet map as labelled circles (no icon images load). Zoomed out they would pile onto
 * each other, so after every zoom only as many are shown as have room. Returns the function that takes them off.
 */
export function showDistanceMarkers(
	map: L.Map,
	markers: readonly { label: string; lat: number; lng: number }[],
): () => void {
	// Each is a div icon sized by its label, not a circle with a tooltip: a tooltip measures itself in
	// the page as it opens, and dozens of those after every edit of a long route force as many layouts.
	const layers = markers.map((marker) => {
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
	});
	const thin = () => {
		const visible = chooseVisibleMarkers(
			markers.map((marker) => {
				const at = map.latLngToContainerPoint([marker.lat, marker.lng]);
				return { x: at.x, y: at.y, ...estimateMarkerSize(marker.label) };
			}),
		);
		layers.forEach((layer, index) => {
			if (visible[index]) layer.addTo(map);
			else layer.remove();
		});
	};
	map.on('zoomend', thin);
	thin();
	return () => {
		map.off('zoomend', thin);
		for (const layer of layers) layer.remove();
	};
}
