import { LRUCache } from 'lru-cache';
import { locationPrivacyOf } from '../../account/server/location-privacy';
import { getHeartRateZones } from '../../account/server/service';
import type { Viewer } from '../../auth/viewer';
import { AppError } from '../../core/errors';
import { approximateBytes } from '../../core/server/byte-size';
import type { AppDeps } from '../../core/server/deps';
import { encodePolyline } from '../../routing/polyline';
import type { BestEffort, Split } from '../../workout-files/metrics';
import { showsSpeed } from '../activity-groups';
import { analyseSamples, chartSeries, fileActivityType, type HeartRateZone, timeInZones } from '../analysis';
import { type PackedChartSeries, packChartSeries } from '../chart-series';
import { canEdit } from '../policy';
import { activityTypeGroup } from './activity-types';
import { recordingForViewer } from './recording';
import { getVisibleWorkout, getWorkoutSeries, type WorkoutWithOwner } from './service';
import type { StoredLap } from './tables';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'logger'>;

/** At most about 3,000 points for the map: enough for any screen, light on the page. */
const MAP_POINTS = 3000;

/** What the workout page draws from a recording: everything but the workout's own row. */
export type RecordingView = {
	recorded: boolean;
	elevationGainM: number | null;
	splits: Split[];
	bestEfforts: BestEffort[];
	/** The charts' data as the page hands it to their island. */
	charts: PackedChartSeries | null;
	path: [number, number][];
	/** `path` as the page hands it to the map's island: an encoded polyline (precision 6). */
	track: string;
	laps: StoredLap[];
	/** Time in each of the owner's heart-rate zones; null for anyone else or without heart rate. */
	zones: (HeartRateZone & { seconds: number })[] | null;
};

/**
 * Views already worked out, by everything they depend on: the workout (its id and creation) and version (an edit or a cut
 * makes a new one), the viewer's unit, the owner's privacy settings as applied to this viewer and the
 * owner's zones. A 12-hour recording takes tens of milliseconds to decode and analyse; a repeat view
 * of the same thing should not pay that again. Bounded in bytes: a view holds up to a few thousand
 * drawn points, a short run's far fewer.
 */
const viewsByDatabase = new WeakMap<object, LRUCache<string, RecordingView>>();

/** One cache per database: ids and creation times are only unique within one. */
function viewsOf(deps: Deps): LRUCache<string, RecordingView> {
	let views = viewsByDatabase.get(deps.db);
	if (!views) {
		views = new LRUCache<string, RecordingView>({
			maxSize: 32 * 1024 * 1024,
			sizeCalculation: (view, key) => approximateBytes(view) + key.length * 2 + 64,
		});
		viewsByDatabase.set(deps.db, views);
	}
	return views;
}

/** The workout page's data for a viewer, or null when they may not see the workout. */
export async function loadWorkoutPageView(
	deps: Deps,
	viewer: Viewer | null,
	id: number,
	unit: 'km' | 'mi',
): Promise<{ workout: WorkoutWithOwner; isOwner: boolean; view: RecordingView } | null> {
	let workout: WorkoutWithOwner;
	try {
		workout = await getVisibleWorkout(deps, viewer, id);
	} catch (error) {
		if (error instanceof AppError && error.code === 'not_found') return null;
		throw error;
	}
	const isOwner = canEdit(viewer, workout);
	// Heart-rate zones are health data: only the owner sees their zones, so only the owner sees time in them.
	const zones =
		isOwner && viewer && workout.heartrateAvg !== null
			? (await getHeartRateZones(deps, viewer, viewer.id))._embedded.heart_rate_zones[0].zones
			: null;
	const privacy = isOwner ? null : await locationPrivacyOf(deps, workout.ownerId);
	const key = JSON.stringify([
		workout.id,
		workout.createdAt.getTime(),
		workout.version,
		unit,
		privacy,
		zones,
	]);
	const views = viewsOf(deps);
	const cached = views.get(key);
	if (cached) return { workout, isOwner, view: cached };
	const view = await buildView(deps, workout, viewer, unit, zones);
	views.set(key, view);
	return { workout, isOwner, view };
}

async function buildView(
	deps: Deps,
	workout: WorkoutWithOwner,
	viewer: { id: number } | null,
	unit: 'km' | 'mi',
	zones: HeartRateZone[] | null,
): Promise<RecordingView> {
	const stored = await getWorkoutSeries(deps, workout.id);
	const recording = stored ? await recordingForViewer(deps, workout, stored, viewer) : null;
	const samples = recording?.samples ?? [];
	const laps = recording?.laps ?? [];
	if (samples.length < 2)
		return {
			recorded: false,
			elevationGainM: null,
			splits: [],
			bestEfforts: [],
			charts: null,
			path: [],
			track: '',
			laps,
			zones: null,
		};
	const group = activityTypeGroup(workout.activityTypeId);
	const analysis = analyseSamples(samples, {
		startMs: workout.startDatetime.getTime(),
		activityType: fileActivityType(group),
		unit,
		segmentStarts: recording?.segmentStarts,
	});
	const positioned = samples.filter((sample) => sample.lat !== undefined && sample.lng !== undefined);
	const pathStep = Math.max(1, Math.ceil(positioned.length / MAP_POINTS));
	const path = positioned
		.filter((_, i) => i % pathStep === 0 || i === positioned.length - 1)
		.map((sample): [number, number] => [sample.lat as number, sample.lng as number]);
	// A recording without real times (every sample at the start; see unknown-times.ts) has no splits or best
	// efforts to show: they would all read 0:00.
	const timed = samples.some((sample) => sample.offsetMs > 0);
	return {
		recorded: true,
		elevationGainM: analysis.metrics.elevationGainM,
		splits: timed ? analysis.splits : [],
		bestEfforts: timed ? analysis.metrics.bestEfforts : [],
		charts: packChartSeries(
			chartSeries(samples, analysis.metrics.cumulativeDistanceM, { unit, speed: showsSpeed(group) }),
		),
		path,
		track: encodePolyline(path),
		laps,
		zones:
			zones && samples.some((sample) => sample.heartRate !== undefined) ? timeInZones(samples, zones) : null,
	};
}
