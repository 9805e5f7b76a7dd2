import type { MapTileLayer, MapType } from '../core/map-types';
import { DEFAULT_PLANNER_VIEW, type MapView, plannerViewFrom } from '../routes/planner-preview';
import { MAP_TYPE_STORAGE_KEY, MAP_VIEW_STORAGE_KEY, recallPreference } from './cookie-choices';

// What this browser remembers of maps, when the visitor lets preferences be remembered. Read by the map islands;
// the planner's first paint (routes/planner-preview.ts) reads the same keys, as it must open the same map.

/** The remembered map type, when it is one of `layers`; else the first layer's. */
export function storedMapType(layers: readonly MapTileLayer[]): MapType | undefined {
	const stored = recallPreference('local', MAP_TYPE_STORAGE_KEY);
	return (layers.find((layer) => layer.type === stored) ?? layers[0])?.type;
}

/** Where the route planner was last left, or the default view; a damaged or out-of-range value is ignored. */
export function storedPlannerView(): MapView {
	return plannerViewFrom(recallPreference('local', MAP_VIEW_STORAGE_KEY)) ?? DEFAULT_PLANNER_VIEW;
}
