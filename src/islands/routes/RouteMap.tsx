import 'leaflet/dist/leaflet.css';
import L from 'leaflet';
import { useEffect, useRef } from 'react';

export type RouteMapProps = {
	/** [lat, lng] pairs of the whole line. */
	path: [number, number][];
	/** Mile or km markers, already placed at SPEC §9 spacing by the server. */
	markers: { label: string; lat: number; lng: number }[];
	tileUrl: string;
	attribution: string;
	name: string;
};

/**
 * The route on a Leaflet map (client-only: Leaflet needs `window`). Keyboard pan and zoom stay
 * Leaflet's defaults; the start, finish and markers are plain circle markers so no icon images load.
 */
export default function RouteMap({ path, markers, tileUrl, attribution, name }: RouteMapProps) {
	const element = useRef<HTMLElement>(null);
	useEffect(() => {
		if (!element.current || path.length < 2) return;
		const map = L.map(element.current, { scrollWheelZoom: false });
		L.tileLayer(tileUrl, { attribution, maxZoom: 19 }).addTo(map);
		const line = L.polyline(path, { color: '#0b5cad', weight: 4 }).addTo(map);
		for (const marker of markers) {
			L.circleMarker([marker.lat, marker.lng], {
				radius: 8,
				color: '#14213d',
				weight: 1.5,
				fillColor: '#ffffff',
				fillOpacity: 1,
			})
				.bindTooltip(marker.label, { permanent: true, direction: 'center', className: 'route-map__label' })
				.addTo(map);
		}
		const start = path[0];
		const finish = path[path.length - 1];
		L.circleMarker(finish, { radius: 8, color: '#ffffff', weight: 2, fillColor: '#b42318', fillOpacity: 1 })
			.bindTooltip('Finish')
			.addTo(map);
		L.circleMarker(start, { radius: 8, color: '#ffffff', weight: 2, fillColor: '#1a7f37', fillOpacity: 1 })
			.bindTooltip('Start')
			.addTo(map);
		map.fitBounds(line.getBounds(), { padding: [24, 24] });
		return () => {
			map.remove();
		};
	}, [path, markers, tileUrl, attribution]);
	return (
		<section ref={element} className="route-map" aria-label={`Map of ${name}`} data-testid="route-leaflet" />
	);
}
