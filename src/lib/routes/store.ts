import { atom } from 'nanostores';
import type { ChartPlace, LatLng } from '../core/chart-cursor';

/** The point under the elevation chart's cursor, with its distance and height, which the route map marks; null when the cursor is away. */
export const $elevationCursor = atom<ChartPlace | null>(null);

/** The point of the route's line the member points at on the map, where the elevation chart moves its cursor; null when away. */
export const $routeLinePoint = atom<LatLng | null>(null);
