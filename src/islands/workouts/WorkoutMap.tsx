import type { MapTileLayer } from '../../lib/core/map-types';
import TrackMap from '../routes/TrackMap';
import { $workoutCursor } from './WorkoutMapCursor';

export type WorkoutMapProps = {
	/** [lat, lng] pairs of the recorded track. */
	path: [number, number][];
	/** The configured map types, the default first. */
	layers: MapTileLayer[];
	name: string;
};

/** The recorded track on its map; the charts' cursor rings the track. */
export default function WorkoutMap({ path, layers, name }: WorkoutMapProps) {
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
