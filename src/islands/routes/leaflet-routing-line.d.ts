// leaflet-routing-machine ships no types for its modules; the planner uses its route line alone.
declare module 'leaflet-routing-machine/src/line.js' {
	import type * as L from 'leaflet';

	export type RoutingLineRoute = { coordinates: L.LatLng[]; waypointIndices: number[] };
	export type RoutingLineOptions = {
		styles?: L.PathOptions[];
		addWaypoints?: boolean;
		extendToWaypoints?: boolean;
	};

	/** A route drawn as polylines; pressing on it fires `linetouched` with `afterIndex` and `latlng`. */
	export default class RoutingLine extends L.LayerGroup {
		constructor(route: RoutingLineRoute, options?: RoutingLineOptions);
	}
}
