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
import { rememberPreference } from '../../lib/site/cookie-choices';
import { escapeHtml, storedMapType } from '../routes/map-layers';
import { $workoutCursor } from './WorkoutMapCursor';

export type WorkoutMapProps = {
	/** [lat, lng] pairs of the recorded track. */
	path: [number, number][];
	/** The configured map types, the default first. */
	layers: MapTileLayer[];
	name: string;
};

/**
 * The recorded track on a Leaflet map over the product's tiles, with start and finish; the charts'
 * cursor shows as a ring on the track. The map type picker and its remembered choice work as on the
 * route page.
 */
export default function WorkoutMap({ path, layers, name }: WorkoutMapProps) {
	const element = useRef<HTMLElement>(null);
	const [leaflet, setLeaflet] = useState<L.Map | null>(null);
	const [mapType, setMapType] = useState<MapType>(() => storedMapType(layers));
	const [marked, setMarked] = useState(false);
	const selectId = useId();

	useEffect(() => {
		if (!element.current || path.length < 2) return;
		const created = L.map(element.current, { scrollWheelZoom: false });
		created.attributionControl.addAttribution(escapeHtml(OSM_ATTRIBUTION));
		const line = L.polyline(path, { color: '#b42318', weight: 4 }).addTo(created);
		L.circleMarker(path[path.length - 1], {
			radius: 8,
			color: '#ffffff',
			weight: 2,
			fillColor: '#14213d',
			fillOpacity: 1,
		})
			.bindTooltip('Finish')
			.addTo(created);
		L.circleMarker(path[0], { radius: 8, color: '#ffffff', weight: 2, fillColor: '#1a7f37', fillOpacity: 1 })
			.bindTooltip('Start')
			.addTo(created);
		const cursor = L.circleMarker(path[0], {
			radius: 7,
			color: '#14213d',
			weight: 3,
			fillColor: '#f2c94c',
			fillOpacity: 1,
			interactive: false,
			className: 'workout-map__cursor',
		});
		const unlisten = $workoutCursor.subscribe((point) => {
			if (!point) cursor.remove();
			else cursor.setLatLng([point.lat, point.lng]).addTo(created);
			setMarked(point !== null);
		});
		created.fitBounds(line.getBounds(), { padding: [24, 24] });
		setLeaflet(created);
		return () => {
			unlisten();
			setLeaflet(null);
			created.remove();
		};
	}, [path]);

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
		rememberPreference('local', MAP_TYPE_STORAGE_KEY, type);
	};

	return (
		<div className="route-map-frame">
			{layers.length > 1 && (
				<p className="route-map__types">
					<label htmlFor={selectId}>Map type</label>
					<select id={selectId} value={mapType} onChange={(event) => choose(event.target.value as MapType)}>
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
				className="route-map workout-map"
				aria-label={`Map of ${name}`}
				data-testid="workout-map"
				data-cursor={marked ? 'shown' : 'hidden'}
			/>
		</div>
	);
}
