import * as v from 'valibot';

/** Our activity type ids: run 16, walk 9, ride 11, hike 24, swim 15, anything else generic 1. */
export const ActivityTypeId = { generic: 1, walk: 9, ride: 11, swim: 15, run: 16, hike: 24 } as const;

export const WorkoutFormatSchema = v.picklist(['gpx', 'tcx', 'fit']);
export const ContainerSchema = v.picklist(['none', 'gzip', 'zip']);

const finite = v.pipe(v.number(), v.finite());
const nonNegative = v.pipe(v.number(), v.finite(), v.minValue(0));

/**
 * One sample of the time series. Units are SI: `time` is milliseconds since the Unix epoch (UTC),
 * degrees, metres, metres per second, beats and revolutions per minute, watts, °C.
 * A value the file did not record is absent, never zero.
 */
export const TrackPointSchema = v.object({
	time: v.optional(finite),
	lat: v.optional(v.pipe(v.number(), v.minValue(-90), v.maxValue(90))),
	lng: v.optional(v.pipe(v.number(), v.minValue(-180), v.maxValue(180))),
	elevation: v.optional(finite),
	distance: v.optional(nonNegative),
	speed: v.optional(nonNegative),
	heartRate: v.optional(nonNegative),
	cadence: v.optional(nonNegative),
	power: v.optional(nonNegative),
	temperature: v.optional(finite),
});
export type TrackPoint = v.InferOutput<typeof TrackPointSchema>;

export const LapSchema = v.object({
	startTime: v.optional(finite),
	elapsedS: v.optional(nonNegative),
	timerS: v.optional(nonNegative),
	distanceM: v.optional(nonNegative),
	calories: v.optional(nonNegative),
	avgHeartRate: v.optional(nonNegative),
	maxHeartRate: v.optional(nonNegative),
	/** Index of the first point of this lap in `points` (inclusive) and one past its last. */
	firstPoint: v.pipe(v.number(), v.integer(), v.minValue(0)),
	endPoint: v.pipe(v.number(), v.integer(), v.minValue(0)),
});
export type Lap = v.InferOutput<typeof LapSchema>;

/** Totals the recording device wrote itself; shown beside ours, never instead of them. */
export const DeviceTotalsSchema = v.object({
	distanceM: v.optional(nonNegative),
	elapsedS: v.optional(nonNegative),
	timerS: v.optional(nonNegative),
	ascentM: v.optional(nonNegative),
	descentM: v.optional(nonNegative),
	calories: v.optional(nonNegative),
	avgHeartRate: v.optional(nonNegative),
	maxHeartRate: v.optional(nonNegative),
});
export type DeviceTotals = v.InferOutput<typeof DeviceTotalsSchema>;

export const WaypointSchema = v.object({
	lat: v.pipe(v.number(), v.minValue(-90), v.maxValue(90)),
	lng: v.pipe(v.number(), v.minValue(-180), v.maxValue(180)),
	elevation: v.optional(finite),
	time: v.optional(finite),
	name: v.optional(v.string()),
});
export type Waypoint = v.InferOutput<typeof WaypointSchema>;

export const NormalisedWorkoutSchema = v.object({
	format: WorkoutFormatSchema,
	container: ContainerSchema,
	/** Milliseconds since the Unix epoch, UTC; absent for files without times (planned routes). */
	startTime: v.optional(finite),
	activityType: v.picklist([1, 9, 11, 15, 16, 24]),
	/** The sport as the file names it (FIT sport name, TCX Sport attribute, GPX track type). */
	sport: v.optional(v.string()),
	name: v.optional(v.string()),
	creator: v.optional(v.string()),
	/** Indices into `points` where a new track segment starts; always begins with 0. */
	segmentStarts: v.array(v.pipe(v.number(), v.integer(), v.minValue(0))),
	points: v.array(TrackPointSchema),
	laps: v.array(LapSchema),
	waypoints: v.array(WaypointSchema),
	deviceTotals: DeviceTotalsSchema,
	/**
	 * The recording clock's offset from UTC in seconds, where the file states it (a FIT activity's
	 * local_timestamp), whole quarter hours within ±14 h; what dates a recording that has no position.
	 */
	recordedUtcOffsetS: v.optional(
		v.pipe(v.number(), v.integer(), v.minValue(-14 * 3600), v.maxValue(14 * 3600)),
	),
	/** Things we read around, in words a member understands (extra activities ignored, …). */
	warnings: v.array(v.string()),
});
export type NormalisedWorkout = v.InferOutput<typeof NormalisedWorkoutSchema>;
export type WorkoutFormat = v.InferOutput<typeof WorkoutFormatSchema>;

/** Caps enforced while reading; every one is checked before the work it guards. */
export const ReadLimitsSchema = v.object({
	maxBytes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
	maxDecompressedBytes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
	maxPoints: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
	maxZipEntries: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
});
export type ReadLimits = v.InferOutput<typeof ReadLimitsSchema>;

export const defaultLimits: Required<ReadLimits> = {
	maxBytes: 50 * 1024 * 1024,
	maxDecompressedBytes: 100 * 1024 * 1024,
	maxPoints: 500_000,
	maxZipEntries: 20,
};

const heartRateSummary = v.nullable(v.object({ min: nonNegative, avg: nonNegative, max: nonNegative }));

/** What `inspect` prints; snake_case because it is the shape the API and CLI share. */
export const WorkoutSummarySchema = v.object({
	format: WorkoutFormatSchema,
	container: ContainerSchema,
	activity_type: v.number(),
	sport: v.nullable(v.string()),
	start_time: v.nullable(v.string()),
	elapsed_s: nonNegative,
	moving_s: nonNegative,
	distance_m: nonNegative,
	device_distance_m: v.optional(nonNegative),
	point_count: v.pipe(v.number(), v.integer()),
	elevation_gain_m: nonNegative,
	elevation_loss_m: nonNegative,
	device_ascent_m: v.optional(nonNegative),
	device_descent_m: v.optional(nonNegative),
	heart_rate: heartRateSummary,
	bbox: v.nullable(v.tuple([finite, finite, finite, finite])),
});
export type WorkoutSummary = v.InferOutput<typeof WorkoutSummarySchema>;
