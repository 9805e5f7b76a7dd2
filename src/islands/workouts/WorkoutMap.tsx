import { useMemo } from 'react';
import type { MapTileLayer } from '../../lib/core/map-types';
import { decodePolyline } from '../../lib/routing/polyline';
import TrackMap from '../routes/TrackMap';
import { $workoutCursor, $workoutLinePoint } from './WorkoutMapCursor';

export type WorkoutMapProps = {
	/** The recorded track, an encoded polyline (precision 6): a fifth of the page that [lat, lng] pairs take. */
	track: string;
	/** The configured map types, the default first. */
	layers: MapTileLayer[];
	name: string;
};

/**
 * The recorded track on its map, as this viewer may see it; the charts' cursor rings the track with their
 * values there, and pointing at the track moves the charts' cursor there.
 */
export default function WorkoutMap({ track, layers, name }: WorkoutMapProps) {
	const path = useMemo(() => decodePolyline(track), [track]);
	return (
		<TrackMap
			path={path}
			layers={layers}
			name={name}
			lineColor="#b42318"
			finishColor="#14213d"
			cursor={$workoutCursor}
			pointer={$workoutLinePoint}
			className="workout-map"
			testId="workout-map"
		/>
	);
}
