import { atom } from 'nanostores';
import type { ChartPlace, LatLng } from '../../lib/core/chart-cursor';

/** The point under the workout charts' shared cursor, with the charts' values there, which the workout map marks; null when away. */
export const $workoutCursor = atom<ChartPlace | null>(null);

/** The point of the track the member points at on the map, where the charts move their cursor; null when away. */
export const $workoutLinePoint = atom<LatLng | null>(null);
