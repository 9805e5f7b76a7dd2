import 'leaflet/dist/leaflet.css';
import L from 'leaflet';
import { useEffect, useId, useRef, useState } from 'react';
import { MAP_TYPE_LABELS, type MapTileLayer, type MapType, OSM_ATTRIBUTION } from '../../lib/core/map-types';
import { $elevationCursor } from '../../lib/routes/store';

export type RouteMapProps = {
	/** [lat, lng] pairs of the whole line. */
	path: [number, number][];
	/** Mile or km markers, already placed by the server (lib/routes/render.ts sets the spacing). */
	markers: { label: string; lat: number; lng: number }[];
	/** The configured map types, the default first. */
	layers: MapTileLayer[];
	name: string;
};

/** Where the member's last map type choice is kept, across routes and visits. */
export const MAP_TYPE_STORAGE_KEY = 'mapstride:map-type';

function storedMapType(layers: MapTileLayer[]): MapType {
	try {
		const stored = window.localStorage.getItem(MAP_TYPE_STORAGE_KEY);
		const match = layers.find((layer) => layer.type === stored);
		if (match) return match.type;
	} catch {
		// Storage can be switched off; the default layer then serves.
	}
	return layers[0].type;
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
		for (const marker of markers) {
			L.circleMarker([marker.lat, marker.lng], {
				radius: 8,
				color: '#14213d',
				weight: 1.5,
				fillColor: '#ffffff',
				fillOpacity: 1,
			})
				.bindTooltip(marker.label, { permanent: true, direction: 'center', className: 'route-map__label' })
				.addTo(created);
		}
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
		try {
			window.localStorage.setItem(MAP_TYPE_STORAGE_KEY, type);
		} catch {
			// Not remembered when storage is off; the choice still applies to this page.
		}
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
