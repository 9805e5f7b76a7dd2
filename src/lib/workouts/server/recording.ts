import { locationPrivacyOf } from '../../account/server/location-privacy';
import type { AppDeps } from '../../core/server/deps';
import { canEdit } from '../policy';
import { type LocationPrivacy, trimForViewer } from '../privacy-zones';
import { decodeSeries, type SeriesSample, type StoredSeries, segmentStartsOf } from '../series';
import type { WorkoutWithOwner } from './service';
import type { StoredLap } from './tables';

type Deps = Pick<AppDeps, 'db' | 'clock'>;

/** A workout's recording as one viewer may have it. */
export type ViewerRecording = {
	samples: SeriesSample[];
	/** Per sample, whether its position was taken away for this viewer. */
	hidden: boolean[];
	laps: StoredLap[];
	/** Where each segment starts (sample indices, the first 0). */
	segmentStarts: number[];
};

/**
 * The recording of a workout as `viewer` may have it, for every page, answer and download: the owner
 * gets it whole; anyone else gets it through `trimForViewer` with the owner's privacy zones and hidden
 * ends, and a lap that holds hidden samples loses its distance, which would give the hidden length.
 */
export async function recordingForViewer(
	deps: Deps,
	workout: WorkoutWithOwner,
	stored: { series: StoredSeries; laps: StoredLap[] },
	viewer: { id: number } | null,
	/** The owner's privacy when the caller read it already (for many workouts at once). */
	ownerPrivacy?: LocationPrivacy,
): Promise<ViewerRecording> {
	const owner = canEdit(viewer, workout)
		? { zones: [], hideEndsM: 0 }
		: (ownerPrivacy ?? (await locationPrivacyOf(deps, workout.ownerId)));
	const { samples, hidden } = trimForViewer(
		{
			id: workout.id,
			ownerId: workout.ownerId,
			// Never shown to anyone but the owner, so nobody else can work out the hidden length.
			secret: `${workout.contentHash ?? ''}:${workout.createdAt.getTime()}`,
			samples: decodeSeries(stored.series),
		},
		owner,
		viewer,
	);
	const laps = stored.laps.map((lap) =>
		hidden.slice(lap.first_sample, lap.end_sample).some(Boolean) ? { ...lap, distance_total: null } : lap,
	);
	return { samples, hidden, laps: laps as StoredLap[], segmentStarts: segmentStartsOf(stored.series) };
}
