import type L from 'leaflet';
import { useCallback } from 'react';
import { trackEvent } from '../../lib/analytics/queue';
import type { MapTileLayer } from '../../lib/core/map-types';
import { $elevationCursor, $routeLinePoint } from '../../lib/routes/store';
import { showDistanceMarkers } from './distance-markers';
import TrackMap from './TrackMap';

export type RouteMapProps = {
	/** [lat, lng] pairs of the whole line. */
	path: [number, number][];
	/** Mile or km markers, already placed by the server (lib/routes/render.ts sets the spacing). */
	markers: { label: string; lat: number; lng: number }[];
	/** The configured map types, the default first. */
	layers: MapTileLayer[];
	name: string;
};

const countFullScreen = () => trackEvent('route_fullscreen_clicked', {});

/**
 * The route on its map with its mile or km markers; the elevation chart's cursor rings the line with its
 * distance and height, and pointing at the line moves the chart's cursor there.
 */
export default function RouteMap({ path, markers, layers, name }: RouteMapProps) {
	const decorate = useCallback((map: L.Map) => showDistanceMarkers(map, markers), [markers]);
	return (
		<TrackMap
			path={path}
			layers={layers}
			name={name}
			lineColor="#0b5cad"
			finishColor="#b42318"
			cursor={$elevationCursor}
			pointer={$routeLinePoint}
			decorate={decorate}
			className="route-view-map"
			testId="route-leaflet"
			onFullScreen={countFullScreen}
		/>
	);
}
