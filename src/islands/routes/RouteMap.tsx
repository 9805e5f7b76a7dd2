import 'leaflet/dist/leaflet.css';
import L from 'leaflet';
import { useEffect, useId, useRef, useState } from 'react';
import {
	MAP_TYPE_LABELS,
	MAP_TYPE_STORAGE_KEY,
	type MapTileLayer,
	type MapType,
	OSM_ATTRIBUTION,
} from '../../lib/core/map-types';
import { $elevationCursor } from '../../lib/routes/store';
import { rememberPreference } from '../../lib/site/cookie-choices';
import { showDistanceMarkers } from './distance-markers';
import { addBaseLayer, escapeHtml, storedMapType } from './map-layers';

export type RouteMapProps = {
	/** [lat, lng] pairs of the whole line. */
	path: [number, number][];
	/** Mile or km markers, already placed by the server (lib/routes/render.ts sets the spacing). */
	markers: { label: string; lat: number; lng: number }[];
	/** The configured map types, the default first. */
	layers: MapTileLayer[];
	name: string;
};

/**
 * The route on a Leaflet map (client-only: Leaflet needs `window`). Keyboard pan and zoom stay
 * Leaflet's defaults; the start, finish and markers are plain circle markers so no icon images load.
 * With more than one configured map type a labelled select above the map switches the tiles; the
 * choice is remembered, and OpenStreetMap is credited whatever the tiles.
 */
export default function RouteMap({ path, markers, layers, name }: RouteMapProps) {
	const element = useRef<HTMLElement>(null);
	const [leaflet, setLeaflet] = useState<L.Map | null>(null);
	const [mapType, setMapType] = useState<MapType>(() => storedMapType(layers));
	const selectId = useId();

	useEffect(() => {
		if (!element.current || path.length < 2) return;
		const created = L.map(element.current, { scrollWheelZoom: false });
		created.attributionControl.addAttribution(escapeHtml(OSM_ATTRIBUTION));
		const line = L.polyline(path, { color: '#0b5cad', weight: 4 }).addTo(created);
		const start = path[0];
		const finish = path[path.length - 1];
		L.circleMarker(finish, { radius: 8, color: '#ffffff', weight: 2, fillColor: '#b42318', fillOpacity: 1 })
			.bindTooltip('Finish')
			.addTo(created);
		L.circleMarker(start, { radius: 8, color: '#ffffff', weight: 2, fillColor: '#1a7f37', fillOpacity: 1 })
			.bindTooltip('Start')
			.addTo(created);
		// The elevation chart's cursor, shown as a ring on the line.
		const cursor = L.circleMarker(start, {
			radius: 7,
			color: '#14213d',
			weight: 3,
			fillColor: '#f2c94c',
			fillOpacity: 1,
			interactive: false,
		});
		const unlisten = $elevationCursor.subscribe((point) => {
			if (!point) cursor.remove();
			else cursor.setLatLng([point.lat, point.lng]).addTo(created);
		});
		created.fitBounds(line.getBounds(), { padding: [24, 24] });
		// Placed only once the first view is set: during it, layers are not yet projected.
		const hideMarkers = showDistanceMarkers(created, markers);
		setLeaflet(created);
		return () => {
			unlisten();
			hideMarkers();
			setLeaflet(null);
			created.remove();
		};
	}, [path, markers]);

	useEffect(() => {
		const layer = layers.find((candidate) => candidate.type === mapType) ?? layers[0];
		if (!leaflet || !layer) return;
		return addBaseLayer(leaflet, layer);
	}, [leaflet, layers, mapType]);

	const choose = (type: MapType) => {
		setMapType(type);
		// Not remembered when the visitor said no or storage is off; it still applies to this page.
		rememberPreference('local', MAP_TYPE_STORAGE_KEY, type);
	};

	return (
		<div className="route-map-frame">
			{layers.length > 1 && (
				<p className="route-map__types">
					<label htmlFor={selectId}>Map type</label>
					<select
						id={selectId}
						value={mapType}
						onChange={(event) => choose(event.target.value as MapType)}
						data-testid="map-type"
					>
						{layers.map((layer) => (
							<option key={layer.type} value={layer.type}>
								{MAP_TYPE_LABELS[layer.type]}
							</option>
						))}
					</select>
				</p>
			)}
			<section
				ref={element}
				className="route-map"
				aria-label={`Map of ${name}`}
				data-testid="route-leaflet"
				data-map-type={mapType}
			/>
		</div>
	);
}
