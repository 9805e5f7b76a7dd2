import { createHash } from 'node:crypto';
import { timeZoneAt } from '../../core/server/time-zone-at';
import { truncateText } from '../../core/text';
import { type Effort, effortsOf } from '../../stats/records';
import { computeMetrics, type NormalisedWorkout, UNSET_CLOCK_WARNING } from '../../workout-files';
import { DEFAULT_WEIGHT_KG } from '../calories';
import { MAX_WORKOUT_SOURCE } from '../contract';
import { encodeSeries, type SeriesSample, type StoredSeries } from '../series';
import type { StoredLap } from './tables';

/** Identifies a recording: its start and its samples. */
export function contentHashOf(start: Date, series: StoredSeries): string {
	// The samples alone, so a file stored before segments were kept is still the same recording.
	const { seg: _segments, ...samples } = series;
	return createHash('sha256')
		.update(`${start.toISOString()}\n`)
		.update(JSON.stringify(samples))
		.digest('hex');
}

/**
 * The zone a recording was made in: where it starts, or without any position the clock offset the file
 * states, as the fixed zone of that offset (IANA's Etc/GMT zones, whose sign is inverted, exist for whole
 * hours only). Null when the file says neither.
 */
function recordedTimeZoneOf(samples: SeriesSample[], utcOffsetS: number | undefined): string | null {
	const first = samples.find((sample) => sample.lat != null && sample.lng != null);
	if (first) return timeZoneAt(first.lat as number, first.lng as number);
	if (utcOffsetS === undefined || utcOffsetS % 3600 !== 0) return null;
	const hours = utcOffsetS / 3600;
	return hours === 0 ? 'UTC' : `Etc/GMT${hours > 0 ? '-' : '+'}${Math.abs(hours)}`;
}

/**
 * Everything stored about a workout read from a device file, in plain data that crosses a thread
 * boundary: the pool's thread computes it so the thread answering requests only writes the row.
 */
export type DerivedFileWorkout = {
	/** The file's own name for the workout and activity type, for when the member names none. */
	name: string | undefined;
	activityType: number;
	startDatetime: Date;
	sampleCount: number;
	contentHash: string;
	source: string;
	origin: 'file';
	notes: string;
	/** What the reader noticed, for the owner (an unset clock has its own notice on the workout page). */
	fileNotes: string[];
	distanceTotal: number | null;
	metabolicEnergyTotal: number | null;
	activeTimeTotal: number | null;
	elapsedTimeTotal: number | null;
	heartrateMin: number | null;
	heartrateMax: number | null;
	heartrateAvg: number | null;
	speedMax: number | null;
	speedAvg: number | null;
	cadenceMin: number | null;
	cadenceMax: number | null;
	cadenceAvg: number | null;
	powerMin: number | null;
	powerMax: number | null;
	powerAvg: number | null;
	series: StoredSeries;
	/** The zone the recording was made in, from its first position or the file's clock offset. */
	recordedTimeZone: string | null;
	/** Its best efforts, found here on the parse pool rather than on the request's thread. */
	efforts: Effort[];
	laps: StoredLap[];
};

/**
 * Metrics, encoded series, laps and content hash of a file with timed samples; null for a file that
 * holds no workout (no timed samples, such as a planned route).
 */
export function deriveFromFile(file: NormalisedWorkout, weightKg: number | null): DerivedFileWorkout | null {
	if (file.startTime === undefined || file.points.length === 0) return null;
	const startMs = file.startTime;
	const metrics = computeMetrics(file, { weightKg: weightKg ?? DEFAULT_WEIGHT_KG });
	const samples: SeriesSample[] = file.points.map((point) => ({
		offsetMs: point.time === undefined ? 0 : point.time - startMs,
		lat: point.lat,
		lng: point.lng,
		elevation: point.elevation,
		heartRate: point.heartRate,
		cadence: point.cadence,
		power: point.power,
		speed: point.speed,
		distance: point.distance,
	}));
	// Points without a time sit at the time of the point before them.
	for (let i = 1; i < samples.length; i++) {
		if (file.points[i].time === undefined) samples[i].offsetMs = samples[i - 1].offsetMs;
	}
	const laps: StoredLap[] = file.laps.map((lap) => ({
		start_offset_s: lap.startTime === undefined ? null : (lap.startTime - startMs) / 1000,
		elapsed_time_total: lap.elapsedS ?? null,
		active_time_total: lap.timerS ?? null,
		distance_total: lap.distanceM ?? null,
		metabolic_energy_total: lap.calories === undefined ? null : lap.calories * 4184,
		heartrate_avg: lap.avgHeartRate ?? null,
		heartrate_max: lap.maxHeartRate ?? null,
		first_sample: lap.firstPoint,
		end_sample: lap.endPoint,
	}));
	const creator = [file.format.toUpperCase(), file.creator].filter(Boolean).join(' · ');
	const startDatetime = new Date(startMs);
	const series = encodeSeries(samples, file.segmentStarts);
	return {
		name: file.name,
		activityType: file.activityType,
		startDatetime,
		sampleCount: samples.length,
		contentHash: contentHashOf(startDatetime, series),
		source: truncateText(creator, MAX_WORKOUT_SOURCE),
		origin: 'file',
		notes: '',
		fileNotes: file.warnings.filter((warning) => !warning.startsWith(UNSET_CLOCK_WARNING)),
		distanceTotal: metrics.distanceM,
		metabolicEnergyTotal: metrics.calories?.joules ?? null,
		activeTimeTotal: metrics.movingS,
		elapsedTimeTotal: metrics.elapsedS,
		heartrateMin: metrics.heartRate?.min ?? null,
		heartrateMax: metrics.heartRate?.max ?? null,
		heartrateAvg: metrics.heartRate?.avg ?? null,
		speedMax: metrics.maxSpeedMps,
		speedAvg: metrics.avgSpeedMps,
		cadenceMin: metrics.cadence?.min ?? null,
		cadenceMax: metrics.cadence?.max ?? null,
		cadenceAvg: metrics.cadence?.avg ?? null,
		powerMin: metrics.power?.min ?? null,
		powerMax: metrics.power?.max ?? null,
		powerAvg: metrics.power?.avg ?? null,
		series,
		recordedTimeZone: recordedTimeZoneOf(samples, file.recordedUtcOffsetS),
		efforts: effortsOf(
			{
				distanceTotal: metrics.distanceM,
				activeTimeTotal: metrics.movingS,
				elapsedTimeTotal: metrics.elapsedS,
			},
			series,
		),
		laps,
	};
}
