import 'leaflet/dist/leaflet.css';
import './track-map.scss';
import L from 'leaflet';
import type { ReadableAtom, WritableAtom } from 'nanostores';
import { useEffect, useId, useRef, useState } from 'react';
import type { ChartPlace, LatLng } from '../../lib/core/chart-cursor';
import { escapeHtml } from '../../lib/core/html';
import { MAP_TYPE_LABELS, type MapTileLayer, type MapType, OSM_ATTRIBUTION } from '../../lib/core/map-types';
import { MAP_TYPE_STORAGE_KEY, rememberPreference } from '../../lib/site/cookie-choices';
import { storedMapType } from '../../lib/site/map-memory';
import { addBaseLayer } from './map-layers';

export type TrackMapProps = {
	/** [lat, lng] pairs of the whole line. */
	path: [number, number][];
	/** The configured map types, the default first. */
	layers: MapTileLayer[];
	name: string;
	lineColor: string;
	finishColor: string;
	/** A point a chart points at, shown as a ring on the line with the chart's values there (null: none). */
	cursor: ReadableAtom<ChartPlace | null>;
	/** Told the point of the line the member points at (null when away from it), for the chart to follow. */
	pointer?: WritableAtom<LatLng | null>;
	/** Extra layers placed once the first view is set; answers how to remove them. */
	decorate?: (map: L.Map) => () => void;
	className: string;
	testId: string;
	/** Told when the member opens the map full screen (the route page counts it). */
	onFullScreen?: () => void;
};

/** How near the line, in screen pixels, the mouse or a tap must be to point at it. */
const POINTER_REACH_PX = 16;
/** The map tells the charts where it is pointed at most this often. */
const POINTER_EVERY_MS = 50;

/**
 * A line on a Leaflet map (client-only: Leaflet needs `window`) with its start and finish, the
 * chart cursor as a ring labelled with the chart's values, the point of the line under the mouse (or a
 * tap) told back to the chart, a map type picker whose choice is remembered, and a full-screen button.
 * Keyboard pan and zoom stay Leaflet's defaults; markers are circle markers so no icon images load;
 * OpenStreetMap is credited whatever the tiles. Routes and workouts both show theirs this way.
 */
export default function TrackMap({
	path,
	layers,
	name,
	lineColor,
	finishColor,
	cursor,
	pointer,
	decorate,
	className,
	testId,
	onFullScreen,
}: TrackMapProps) {
	const element = useRef<HTMLElement>(null);
	const frame = useRef<HTMLDivElement>(null);
	const [full, setFull] = useState(false);
	const [leaflet, setLeaflet] = useState<L.Map | null>(null);
	const [mapType, setMapType] = useState<MapType | undefined>(() => storedMapType(layers));
	const [marked, setMarked] = useState(false);
	const selectId = useId();

	useEffect(() => {
		if (!element.current || path.length < 2) return;
		const created = L.map(element.current, { scrollWheelZoom: false });
		created.attributionControl.addAttribution(escapeHtml(OSM_ATTRIBUTION));
		const line = L.polyline(path, { color: lineColor, weight: 4, className: `${className}__line` }).addTo(
			created,
		);
		const endpoint = { radius: 8, color: '#ffffff', weight: 2, fillOpacity: 1 };
		L.circleMarker(path[path.length - 1], { ...endpoint, fillColor: finishColor })
			.bindTooltip('Finish')
			.addTo(created);
		L.circleMarker(path[0], { ...endpoint, fillColor: '#1a7f37' })
			.bindTooltip('Start')
			.addTo(created);
		const ring = L.circleMarker(path[0], {
			radius: 7,
			color: '#14213d',
			weight: 3,
			fillColor: '#f2c94c',
			fillOpacity: 1,
			interactive: false,
			className: `${className}__cursor`,
		});
		// An element, not a string: Leaflet would read a string as HTML.
		const reading = document.createElement('span');
		ring.bindTooltip(reading, {
			permanent: true,
			direction: 'top',
			offset: [0, -8],
			className: `${className}__reading`,
		});
		// The nearest point of the line to the mouse, or to a tap where there is no mouse; none when far.
		// Told at most every POINTER_EVERY_MS (the last move always), so the charts redraw at a steady pace.
		const tell = (event: L.LeafletMouseEvent) => {
			if (!pointer) return;
			const nearest = line.closestLayerPoint(event.layerPoint) as L.Point & { distance: number };
			if (!nearest || nearest.distance > POINTER_REACH_PX) pointer.set(null);
			else {
				const { lat, lng } = created.layerPointToLatLng(nearest);
				pointer.set({ lat, lng });
			}
		};
		let told = 0;
		let waiting: number | undefined;
		let latest: L.LeafletMouseEvent | null = null;
		const pointAt = (event: L.LeafletMouseEvent) => {
			latest = event;
			if (waiting !== undefined) return;
			const wait = told + POINTER_EVERY_MS - performance.now();
			const flush = () => {
				waiting = undefined;
				told = performance.now();
				if (latest) tell(latest);
			};
			if (wait <= 0) flush();
			else waiting = window.setTimeout(flush, wait);
		};
		const away = () => {
			window.clearTimeout(waiting);
			waiting = undefined;
			latest = null;
			pointer?.set(null);
		};
		created.on('mousemove', pointAt);
		created.on('click', pointAt);
		// The element's own event: Leaflet's mouseout goes to a marker instead when the mouse leaves over one.
		const host = element.current;
		host.addEventListener('mouseleave', away);
		// The settled zoom, on the element: what a test (or a stylesheet) can wait on after a zoom.
		const markZoom = () => {
			host.dataset.zoom = String(created.getZoom());
		};
		created.on('zoomend', markZoom);
		created.fitBounds(line.getBounds(), { padding: [24, 24] });
		markZoom();
		// Shown only once the first view is set: a tooltip cannot be placed before.
		const unlisten = cursor.subscribe((point) => {
			if (!point) ring.remove();
			else {
				reading.textContent = point.reading;
				ring.setLatLng([point.lat, point.lng]).addTo(created);
				ring.getTooltip()?.update();
			}
			setMarked(point !== null);
		});
		// Placed only once the first view is set: during it, layers are not yet projected.
		const undecorate = decorate?.(created);
		setLeaflet(created);
		return () => {
			unlisten();
			host.removeEventListener('mouseleave', away);
			away();
			undecorate?.();
			setLeaflet(null);
			created.remove();
		};
	}, [path, lineColor, finishColor, cursor, pointer, decorate, className]);

	useEffect(() => {
		const layer = layers.find((candidate) => candidate.type === mapType) ?? layers[0];
		if (!leaflet || !layer) return;
		return addBaseLayer(leaflet, layer);
	}, [leaflet, layers, mapType]);

	// The map fills the screen through the Fullscreen API, or, where a browser lacks it for
	// elements (iPhone Safari), by covering the page; Escape leaves either way.
	useEffect(() => {
		const follow = () =>
			setFull((now) => (document.fullscreenElement ? true : now && !document.fullscreenEnabled));
		document.addEventListener('fullscreenchange', follow);
		const leaveOnEscape = (event: KeyboardEvent) => {
			if (event.key === 'Escape' && !document.fullscreenElement) setFull(false);
		};
		document.addEventListener('keydown', leaveOnEscape);
		return () => {
			document.removeEventListener('fullscreenchange', follow);
			document.removeEventListener('keydown', leaveOnEscape);
		};
	}, []);
	// Leaflet learns of window resizes only; full screen and back resize the map element itself.
	useEffect(() => {
		const map = element.current;
		if (!leaflet || !map) return;
		const observer = new ResizeObserver(() => leaflet.invalidateSize());
		observer.observe(map);
		return () => observer.disconnect();
	}, [leaflet]);

	const toggleFullScreen = () => {
		const target = frame.current;
		if (!target) return;
		if (full) {
			if (document.fullscreenElement) void document.exitFullscreen();
			setFull(false);
			return;
		}
		onFullScreen?.();
		setFull(true);
		if (document.fullscreenEnabled && target.requestFullscreen)
			target.requestFullscreen().catch(() => {
				// Refused (no user gesture, or a policy): the page-covering view stays.
			});
	};

	const choose = (type: MapType) => {
		setMapType(type);
		// Not remembered when the visitor said no or storage is off; it still applies to this page.
		rememberPreference('local', MAP_TYPE_STORAGE_KEY, type);
	};

	return (
		<div ref={frame} className={`route-map-frame${full ? ' route-map-frame--full' : ''}`}>
			<p className="route-map__types">
				{layers.length > 1 && (
					<>
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
					</>
				)}
				<button
					type="button"
					className="route-map__full-screen"
					onClick={toggleFullScreen}
					data-testid="map-full-screen"
				>
					{full ? 'Exit full screen' : 'Full screen'}
				</button>
			</p>
			<section
				ref={element}
				className={`route-map ${className}`}
				aria-label={`Map of ${name}`}
				data-testid={testId}
				data-map-type={mapType}
				data-cursor={marked ? 'shown' : 'hidden'}
			/>
		</div>
	);
}
