import { ActivityTypeId, type Lap, type NormalisedWorkout } from '../workout-files/contract';
import { computeMetrics, MAX_SAMPLE_GAP_S, type Split, type WorkoutMetrics } from '../workout-files/metrics';
import type { ActivityGroup } from './activity-groups';
import type { ChartSeries } from './chart-series';
import type { SeriesSample } from './series';

/** A stored lap, as the workout tables keep it (offsets from the start, sample indices). */
export type LapRecord = {
	start_offset_s: number | null;
	elapsed_time_total: number | null;
	active_time_total: number | null;
	distance_total: number | null;
	metabolic_energy_total: number | null;
	heartrate_avg: number | null;
	heartrate_max: number | null;
	first_sample: number;
	end_sample: number;
};

const FILE_TYPE_OF_GROUP: Partial<Record<ActivityGroup, NormalisedWorkout['activityType']>> = {
	run: ActivityTypeId.run,
	ride: ActivityTypeId.ride,
	walk: ActivityTypeId.walk,
	hike: ActivityTypeId.hike,
	swim: ActivityTypeId.swim,
};

/** The sport the metrics and file writers know for an activity group (moving threshold, calorie model). */
export function fileActivityType(group: ActivityGroup): NormalisedWorkout['activityType'] {
	return FILE_TYPE_OF_GROUP[group] ?? ActivityTypeId.generic;
}

/**
 * A stored workout as the file readers would have produced it, so the product's metrics and the
 * GPX, TCX and FIT writers work on it unchanged.
 */
export function workoutFromSamples(
	samples: readonly SeriesSample[],
	options: {
		startMs: number;
		activityType: NormalisedWorkout['activityType'];
		name?: string;
		laps?: readonly LapRecord[];
		/** Where each segment starts (sample indices, the first 0); one segment by default. */
		segmentStarts?: readonly number[];
	},
): NormalisedWorkout {
	const laps: Lap[] = (options.laps ?? []).map((lap) => ({
		...(lap.start_offset_s === null ? {} : { startTime: options.startMs + lap.start_offset_s * 1000 }),
		...(lap.elapsed_time_total === null ? {} : { elapsedS: lap.elapsed_time_total }),
		...(lap.active_time_total === null ? {} : { timerS: lap.active_time_total }),
		...(lap.distance_total === null ? {} : { distanceM: lap.distance_total }),
		...(lap.metabolic_energy_total === null ? {} : { calories: lap.metabolic_energy_total / 4184 }),
		...(lap.heartrate_avg === null ? {} : { avgHeartRate: lap.heartrate_avg }),
		...(lap.heartrate_max === null ? {} : { maxHeartRate: lap.heartrate_max }),
		firstPoint: lap.first_sample,
		endPoint: lap.end_sample,
	}));
	return {
		format: 'gpx',
		container: 'none',
		startTime: options.startMs,
		activityType: options.activityType,
		...(options.name ? { name: options.name } : {}),
		segmentStarts: options.segmentStarts ? [...options.segmentStarts] : [0],
		points: samples.map((sample) => ({
			time: options.startMs + sample.offsetMs,
			...(sample.lat === undefined || sample.lng === undefined ? {} : { lat: sample.lat, lng: sample.lng }),
			...(sample.elevation === undefined ? {} : { elevation: sample.elevation }),
			...(sample.heartRate === undefined ? {} : { heartRate: sample.heartRate }),
			...(sample.cadence === undefined ? {} : { cadence: sample.cadence }),
			...(sample.power === undefined ? {} : { power: sample.power }),
			...(sample.speed === undefined ? {} : { speed: sample.speed }),
			...(sample.distance === undefined ? {} : { distance: sample.distance }),
		})),
		laps,
		waypoints: [],
		deviceTotals: {},
		warnings: [],
	};
}

/**
 * The part of a recording between two offsets (seconds from the start, both included), re-timed so
 * it starts at 0; recorded distances restart at 0 too. Laps that lie wholly inside are kept,
 * re-numbered to the kept samples; laps cut through are dropped; segment starts inside are kept.
 */
export function trimSamples(
	samples: readonly SeriesSample[],
	laps: readonly LapRecord[],
	startS: number,
	endS: number,
	segmentStarts: readonly number[] = [0],
): { samples: SeriesSample[]; laps: LapRecord[]; shiftMs: number; segmentStarts: number[] } {
	const first = samples.findIndex((sample) => sample.offsetMs >= startS * 1000);
	if (first < 0) return { samples: [], laps: [], shiftMs: 0, segmentStarts: [0] };
	let end = first;
	while (end < samples.length && samples[end].offsetMs <= endS * 1000) end++;
	const kept = samples.slice(first, end);
	const shiftMs = kept[0]?.offsetMs ?? 0;
	const baseDistance = kept.find((sample) => sample.distance !== undefined)?.distance ?? 0;
	const trimmed = kept.map((sample) => ({
		...sample,
		offsetMs: sample.offsetMs - shiftMs,
		...(sample.distance === undefined ? {} : { distance: Math.max(0, sample.distance - baseDistance) }),
	}));
	const keptLaps = laps
		.filter((lap) => lap.first_sample >= first && lap.end_sample <= end)
		.map((lap) => ({
			...lap,
			start_offset_s: lap.start_offset_s === null ? null : lap.start_offset_s - shiftMs / 1000,
			first_sample: lap.first_sample - first,
			end_sample: lap.end_sample - first,
		}));
	// Breaks inside the kept part stay breaks.
	const keptStarts = [
		0,
		...segmentStarts.filter((start) => start > first && start < end).map((start) => start - first),
	];
	return { samples: trimmed, laps: keptLaps, shiftMs, segmentStarts: keptStarts };
}

export type WorkoutAnalysis = {
	metrics: WorkoutMetrics;
	/** Splits in the viewer's unit. */
	splits: Split[];
};

/** Distance, times, splits per km or mile and best efforts of a recording, from the product's metrics. */
export function analyseSamples(
	samples: readonly SeriesSample[],
	options: {
		startMs: number;
		activityType: NormalisedWorkout['activityType'];
		unit: 'km' | 'mi';
		segmentStarts?: readonly number[];
	},
): WorkoutAnalysis {
	const metrics = computeMetrics(workoutFromSamples(samples, options), {
		activityType: options.activityType,
	});
	return { metrics, splits: options.unit === 'mi' ? metrics.splitsMi : metrics.splitsKm };
}

/** Samples drawn per chart at most; more adds nothing a screen can show. */
export const MAX_CHART_POINTS = 1500;
/** The window pace and speed are measured over, so GPS jitter between samples does not show as spikes. */
const PACE_WINDOW_MS = 30_000;
/** Slower than this (per km) counts as standing still: no pace is drawn there. */
const SLOWEST_PACE_MIN_PER_KM = 30;
/**
 * A pace slower than this many times the workout's typical (median) moving pace is a stop, a pause or a
 * traffic light, not the pace the member moved at: it is left out, so the axis spans the paces moved at.
 */
const PAUSE_PACE_FACTOR = 2;

/** The median of the values, or null for none. */
function median(values: readonly number[]): number | null {
	if (values.length === 0) return null;
	const sorted = [...values].sort((a, b) => a - b);
	const middle = sorted.length >> 1;
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * What the workout charts draw, thinned to at most MAX_CHART_POINTS samples. `cumulativeM` is the
 * metrics' cumulative distance per sample, so charts, splits and the map agree.
 */
export function chartSeries(
	samples: readonly SeriesSample[],
	cumulativeM: Float64Array,
	options: { unit: 'km' | 'mi'; speed: boolean },
): ChartSeries {
	const unitM = options.unit === 'mi' ? 1609.344 : 1000;
	const step = Math.max(1, Math.ceil(samples.length / MAX_CHART_POINTS));
	const picked: number[] = [];
	for (let i = 0; i < samples.length; i += step) picked.push(i);
	if (samples.length > 0 && picked.at(-1) !== samples.length - 1) picked.push(samples.length - 1);
	const has = (field: keyof SeriesSample) => samples.some((sample) => sample[field] !== undefined);
	const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;
	const pick = (field: 'elevation' | 'heartRate' | 'cadence' | 'power', scale = 1) =>
		picked.map((i) => {
			const value = samples[i][field];
			return value === undefined ? null : round(value * scale, 1);
		});
	const series: ChartSeries = {
		minutes: picked.map((i) => round(samples[i].offsetMs / 60_000, 3)),
		distance: picked.map((i) => round(cumulativeM[i] / unitM, 3)),
		// A millionth of a degree is a tenth of a metre: enough for the charts' cursor on the map.
		lat: picked.map((i) => (samples[i].lat === undefined ? null : round(samples[i].lat as number, 6))),
		lng: picked.map((i) => (samples[i].lng === undefined ? null : round(samples[i].lng as number, 6))),
	};
	if (cumulativeM.length > 0 && cumulativeM[cumulativeM.length - 1] > 0) {
		// Two pointers: the sample a window's length earlier for each drawn one.
		let back = 0;
		const rate = picked.map((i) => {
			while (back < i && samples[i].offsetMs - samples[back + 1].offsetMs >= PACE_WINDOW_MS) back++;
			const seconds = (samples[i].offsetMs - samples[back].offsetMs) / 1000;
			const metres = cumulativeM[i] - cumulativeM[back];
			return seconds > 0 ? metres / seconds : null;
		});
		if (options.speed)
			series.speed = rate.map((mps) => (mps === null ? null : round((mps * 3600) / unitM, 2)));
		else {
			const slowest = SLOWEST_PACE_MIN_PER_KM * (unitM / 1000);
			const paces = rate.map((mps) => (mps === null || mps <= 0 ? null : unitM / mps / 60));
			const typical = median(
				paces.filter((minutes): minutes is number => minutes !== null && minutes <= slowest),
			);
			const limit = typical === null ? slowest : Math.min(slowest, typical * PAUSE_PACE_FACTOR);
			series.pace = paces.map((minutes) => (minutes === null || minutes > limit ? null : round(minutes, 2)));
		}
	}
	if (has('elevation')) series.elevation = pick('elevation', options.unit === 'mi' ? 1 / 0.3048 : 1);
	if (has('heartRate')) series.heartRate = pick('heartRate');
	if (has('cadence')) series.cadence = pick('cadence');
	if (has('power')) series.power = pick('power');
	return series;
}

export type HeartRateZone = { name: string; start: number; end: number };

/**
 * Seconds spent in each heart-rate zone. Each interval between two samples counts at the earlier
 * sample's heart rate (rounded to whole beats); an interval longer than MAX_SAMPLE_GAP_S is a pause
 * and does not count. Rates above the top zone count in the top zone, below the first in the first.
 */
export function timeInZones(
	samples: readonly SeriesSample[],
	zones: readonly HeartRateZone[],
): (HeartRateZone & { seconds: number })[] {
	const result = zones.map((zone) => ({ ...zone, seconds: 0 }));
	if (result.length === 0) return result;
	let previous: SeriesSample | null = null;
	for (const sample of samples) {
		if (previous?.heartRate !== undefined) {
			const seconds = (sample.offsetMs - previous.offsetMs) / 1000;
			if (seconds > 0 && seconds <= MAX_SAMPLE_GAP_S) {
				const beats = Math.round(previous.heartRate);
				const zone =
					result.find((candidate) => beats >= candidate.start && beats <= candidate.end) ??
					(beats < result[0].start ? result[0] : result[result.length - 1]);
				zone.seconds += seconds;
			}
		}
		previous = sample;
	}
	return result;
}
