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
import { chooseVisibleMarkers } from '../../lib/routes/render';
import { $elevationCursor } from '../../lib/routes/store';
import { recallPreference, rememberPreference } from '../../lib/site/cookie-choices';

export type RouteMapProps = {
	/** [lat, lng] pairs of the whole line. */
	path: [number, number][];
	/** Mile or km markers, already placed by the server (lib/routes/render.ts sets the spacing). */
	markers: { label: string; lat: number; lng: number }[];
	/** The configured map types, the default first. */
	layers: MapTileLayer[];
	name: string;
};

/** The remembered map type, when the visitor lets preferences be remembered; else the default layer. */
function storedMapType(layers: MapTileLayer[]): MapType {
	const stored = recallPreference('local', MAP_TYPE_STORAGE_KEY);
	return layers.find((layer) => layer.type === stored)?.type ?? layers[0].type;
}

const MARKER_RADIUS_PX = 8;

/** A marker's footprint: its circle, widened for labels longer than the circle (about 7 px a digit). */
function estimateMarkerSize(label: string): { width: number; height: number } {
	return { width: Math.max(MARKER_RADIUS_PX * 2, label.length * 7 + 6), height: MARKER_RADIUS_PX * 2 };
}

/** Leaflet writes attributions as HTML; ours are plain text from configuration. */
function escapeHtml(text: string): string {
	return text.replace(
		/[&<>"']/g,
		(c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
	);
}

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
		const markerLayers = markers.map((marker) =>
			L.circleMarker([marker.lat, marker.lng], {
				radius: MARKER_RADIUS_PX,
				color: '#14213d',
				weight: 1.5,
				fillColor: '#ffffff',
				fillOpacity: 1,
			}).bindTooltip(marker.label, { permanent: true, direction: 'center', className: 'route-map__label' }),
		);
		// Zoomed out, markers would pile onto each other: show only as many as have room.
		const thinMarkers = () => {
			const visible = chooseVisibleMarkers(
				markers.map((marker) => {
					const at = created.latLngToContainerPoint([marker.lat, marker.lng]);
					return { x: at.x, y: at.y, ...estimateMarkerSize(marker.label) };
				}),
			);
			markerLayers.forEach((layer, index) => {
				if (visible[index]) layer.addTo(created);
				else layer.remove();
			});
		};
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
		// Listened to only once the first view is set: during it, layers are not yet projected.
		created.on('zoomend', thinMarkers);
		thinMarkers();
		setLeaflet(created);
		return () => {
			unlisten();
			setLeaflet(null);
			created.remove();
		};
	}, [path, markers]);

	useEffect(() => {
		const layer = layers.find((candidate) => candidate.type === mapType) ?? layers[0];
		if (!leaflet || !layer) return;
		const tiles = L.tileLayer(layer.url, {
			attribution: layer.attribution ? escapeHtml(layer.attribution) : undefined,
			maxZoom: layer.maxZoom,
		}).addTo(leaflet);
		tiles.bringToBack();
		return () => {
			tiles.remove();
		};
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
