import {
	MAP_TYPE_STORAGE_KEY,
	MAP_VIEW_STORAGE_KEY,
	type MapTileLayer,
	type MapType,
} from '../core/map-types';
import { recallPreference } from './cookie-choices';

// What this browser remembers of maps, when the visitor lets preferences be remembered. Read by the map
// islands and by the planner's first paint, which must open the same map they will.

export type MapView = { lat: number; lng: number; zoom: number };

/** Central Harrisburg, the demo region, when the member has no last map position. */
export const DEFAULT_PLANNER_VIEW: MapView = { lat: 40.272, lng: -76.85, zoom: 15 };

/** The remembered map type, when it is one of `layers`; else the first layer's. */
export function storedMapType(layers: readonly MapTileLayer[]): MapType | undefined {
	const stored = recallPreference('local', MAP_TYPE_STORAGE_KEY);
	return (layers.find((layer) => layer.type === stored) ?? layers[0])?.type;
}

/** Where the route planner was last left, or the default view; a damaged or out-of-range value is ignored. */
export function storedPlannerView(): MapView {
	let view: { lat?: unknown; lng?: unknown; zoom?: unknown } | null = null;
	try {
		view = JSON.parse(recallPreference('local', MAP_VIEW_STORAGE_KEY) ?? 'null');
	} catch {
		view = null;
	}
	const ok = (value: unknown, limit: number) =>
		typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= limit;
	return view && ok(view.lat, 90) && ok(view.lng, 180) && ok(view.zoom, 22)
		? { lat: view.lat as number, lng: view.lng as number, zoom: view.zoom as number }
		: DEFAULT_PLANNER_VIEW;
}
