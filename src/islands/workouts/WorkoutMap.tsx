import { useMemo } from 'react';
import type { MapTileLayer } from '../../lib/core/map-types';
import { decodePolyline } from '../../lib/routing/polyline';
import TrackMap from '../routes/TrackMap';
import { $workoutCursor } from './WorkoutMapCursor';

export type WorkoutMapProps = {
	/** The recorded track, an encoded polyline (precision 6): a fifth of the page that [lat, lng] pairs take. */
	track: string;
	/** The configured map types, the default first. */
	layers: MapTileLayer[];
	name: string;
};

/** The recorded track on its map; the charts' cursor rings the track. */
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
			className="workout-map"
			testId="workout-map"
		/>
	);
}
