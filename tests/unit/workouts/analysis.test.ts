import { describe, expect, test } from 'vitest';
import { EARTH_RADIUS_M } from '../../../src/lib/workout-files/geo';
import {
	analyseSamples,
	chartSeries,
	fileActivityType,
	timeInZones,
	trimSamples,
	workoutFromSamples,
} from '../../../src/lib/workouts/analysis';
import {
	formatDuration,
	formatSpeed,
	fromLocalInput,
	paceOf,
	toLocalInput,
} from '../../../src/lib/workouts/detail-format';
import type { SeriesSample } from '../../../src/lib/workouts/series';

/** Degrees of latitude per metre along a meridian, on the sphere the metrics use. */
const DEG_PER_M = 180 / (Math.PI * EARTH_RADIUS_M);

/**
 * A run due north, one sample every `everyS` seconds, at `speeds[k]` m/s for `legs[k]` seconds.
 * Positions are exact, so distances and times are known to the metre and second.
 */
function runNorth(legs: { seconds: number; mps: number }[], everyS = 5): SeriesSample[] {
	const samples: SeriesSample[] = [{ offsetMs: 0, lat: 46, lng: 14, heartRate: 120 }];
	let t = 0;
	let metres = 0;
	for (const leg of legs) {
		for (let s = everyS; s <= leg.seconds; s += everyS) {
			t += everyS;
			metres += leg.mps * everyS;
			samples.push({ offsetMs: t * 1000, lat: 46 + metres * DEG_PER_M, lng: 14, heartRate: 140 });
		}
	}
	return samples;
}

const START = Date.UTC(2026, 4, 1, 7, 30);

describe('splits', () => {
	test('a steady 2.5 km run at 4 m/s has two whole km splits of 250 s and a half-km remainder', () => {
		const samples = runNorth([{ seconds: 625, mps: 4 }]);
		const { splits, metrics } = analyseSamples(samples, { startMs: START, activityType: 16, unit: 'km' });
		expect(metrics.distanceM).toBeCloseTo(2500, 0);
		expect(splits).toHaveLength(3);
		expect(splits[0].elapsedS).toBeCloseTo(250, 1);
		expect(splits[1].elapsedS).toBeCloseTo(250, 1);
		expect(splits[2].distanceM).toBeCloseTo(500, 0);
		// The pace of the partial split is per whole km.
		expect(splits[2].paceS).toBeCloseTo(250, 0);
	});

	test('splits follow the viewer unit: miles give one whole mile and a remainder', () => {
		const samples = runNorth([{ seconds: 625, mps: 4 }]);
		const { splits } = analyseSamples(samples, { startMs: START, activityType: 16, unit: 'mi' });
		expect(splits).toHaveLength(2);
		expect(splits[0].distanceM).toBeCloseTo(1609.344, 3);
		expect(splits[0].elapsedS).toBeCloseTo(1609.344 / 4, 0);
	});

	test('a faster second km shows as a faster split', () => {
		const samples = runNorth([
			{ seconds: 250, mps: 4 },
			{ seconds: 200, mps: 5 },
		]);
		const { splits } = analyseSamples(samples, { startMs: START, activityType: 16, unit: 'km' });
		expect(splits[0].elapsedS).toBeCloseTo(250, 0);
		expect(splits[1].elapsedS).toBeCloseTo(200, 0);
	});
});

describe('best efforts', () => {
	test('the fastest km is found inside a longer run, and only distances the run covers are listed', () => {
		const samples = runNorth([
			{ seconds: 500, mps: 3 },
			{ seconds: 250, mps: 5 },
			{ seconds: 500, mps: 3 },
		]);
		const { metrics } = analyseSamples(samples, { startMs: START, activityType: 16, unit: 'km' });
		expect(metrics.distanceM).toBeCloseTo(4250, 0);
		const names = metrics.bestEfforts.map((effort) => effort.name);
		expect(names).toEqual(['1 km', '1 mi']);
		const km = metrics.bestEfforts[0];
		// 1,250 m at 5 m/s sit in the middle: the best km is 200 s, and its span stays within 99–105 %.
		expect(km.timeS).toBeCloseTo(200, 0);
		expect(km.distanceM).toBeGreaterThanOrEqual(990);
		expect(km.distanceM).toBeLessThanOrEqual(1050);
	});

	test('a run shorter than 99 % of a distance has no effort for it', () => {
		const samples = runNorth([{ seconds: 245, mps: 4 }]);
		const { metrics } = analyseSamples(samples, { startMs: START, activityType: 16, unit: 'km' });
		expect(metrics.distanceM).toBeLessThan(990);
		expect(metrics.bestEfforts).toEqual([]);
	});
});

describe('cutting a recording', () => {
	test('keeps the samples between the offsets, re-timed from 0, and the distance drops', () => {
		const samples = runNorth([{ seconds: 600, mps: 4 }]);
		const cut = trimSamples(samples, [], 120, 480);
		expect(cut.shiftMs).toBe(120_000);
		expect(cut.samples[0].offsetMs).toBe(0);
		expect(cut.samples.at(-1)?.offsetMs).toBe(360_000);
		const before = analyseSamples(samples, { startMs: START, activityType: 16, unit: 'km' });
		const after = analyseSamples(cut.samples, { startMs: START, activityType: 16, unit: 'km' });
		expect(before.metrics.distanceM).toBeCloseTo(2400, 0);
		expect(after.metrics.distanceM).toBeCloseTo(1440, 0);
		expect(after.metrics.elapsedS).toBe(360);
	});

	test('keeps laps wholly inside the cut and re-numbers them; drops laps cut through', () => {
		const samples = runNorth([{ seconds: 600, mps: 4 }], 60);
		const lap = (first: number, end: number) => ({
			start_offset_s: first * 60,
			elapsed_time_total: (end - first) * 60,
			active_time_total: null,
			distance_total: null,
			metabolic_energy_total: null,
			heartrate_avg: null,
			heartrate_max: null,
			first_sample: first,
			end_sample: end,
		});
		const cut = trimSamples(samples, [lap(0, 3), lap(3, 6), lap(6, 11)], 120, 660);
		expect(cut.laps).toEqual([
			{ ...lap(3, 6), start_offset_s: 60, first_sample: 1, end_sample: 4 },
			{ ...lap(6, 11), start_offset_s: 240, first_sample: 4, end_sample: 9 },
		]);
	});

	test('keeps the breaks inside the cut, re-numbered, so nothing counts across them', () => {
		const samples = runNorth([{ seconds: 600, mps: 4 }], 60);
		const cut = trimSamples(samples, [], 120, 660, [0, 1, 5, 8]);
		expect(cut.segmentStarts).toEqual([0, 3, 6]);
		const split = analyseSamples(cut.samples, {
			startMs: START,
			activityType: 16,
			unit: 'km',
			segmentStarts: cut.segmentStarts,
		});
		const joined = analyseSamples(cut.samples, { startMs: START, activityType: 16, unit: 'km' });
		expect(split.metrics.distanceM).toBeCloseTo(joined.metrics.distanceM - 2 * 240, 0);
	});

	test('recorded distances restart from zero', () => {
		const samples: SeriesSample[] = [0, 1, 2, 3].map((k) => ({ offsetMs: k * 1000, distance: 10 + k * 3 }));
		expect(trimSamples(samples, [], 1, 3).samples.map((sample) => sample.distance)).toEqual([0, 3, 6]);
	});
});

describe('chart series', () => {
	test('pace for runs and speed for rides, in the viewer unit; absent channels are left out', () => {
		const samples = runNorth([{ seconds: 600, mps: 4 }]);
		const { metrics } = analyseSamples(samples, { startMs: START, activityType: 16, unit: 'km' });
		const run = chartSeries(samples, metrics.cumulativeDistanceM, { unit: 'km', speed: false });
		expect(run.pace?.at(-1)).toBeCloseTo(1000 / 4 / 60, 2);
		expect(run.speed).toBeUndefined();
		expect(run.heartRate?.at(-1)).toBe(140);
		expect(run.power).toBeUndefined();
		expect(run.elevation).toBeUndefined();
		const ride = chartSeries(samples, metrics.cumulativeDistanceM, { unit: 'mi', speed: true });
		expect(ride.speed?.at(-1)).toBeCloseTo((4 * 3600) / 1609.344, 1);
		expect(ride.distance.at(-1)).toBeCloseTo(2400 / 1609.344, 2);
	});

	test('the pace line spans the paces moved at: a stop is left out rather than stretching the axis', () => {
		// 5 min/km for 20 minutes, a 3-minute stop at a crossing (a crawl of 0.1 m/s), then 5 min/km again.
		const samples = runNorth([
			{ seconds: 1200, mps: 1000 / 300 },
			{ seconds: 180, mps: 0.1 },
			{ seconds: 1200, mps: 1000 / 300 },
		]);
		const { metrics } = analyseSamples(samples, { startMs: START, activityType: 16, unit: 'km' });
		const pace = chartSeries(samples, metrics.cumulativeDistanceM, { unit: 'km', speed: false }).pace ?? [];
		const drawn = pace.filter((minutes): minutes is number => minutes !== null);
		expect(Math.min(...drawn)).toBeCloseTo(5, 1);
		// The axis runs to the slowest pace drawn: within twice the moving pace, never to 30 min/km.
		expect(Math.max(...drawn)).toBeLessThanOrEqual(10);
		// The stop itself is a gap in the line.
		expect(pace.some((minutes) => minutes === null)).toBe(true);
	});

	test('a long recording is thinned, keeping its last sample', () => {
		const samples = runNorth([{ seconds: 20_000, mps: 3 }], 1);
		const { metrics } = analyseSamples(samples, { startMs: START, activityType: 16, unit: 'km' });
		const series = chartSeries(samples, metrics.cumulativeDistanceM, { unit: 'km', speed: false });
		expect(series.minutes.length).toBeLessThanOrEqual(1501);
		expect(series.minutes.at(-1)).toBeCloseTo(20_000 / 60, 2);
	});
});

test('the stored workout reads back as a file workout with its laps, for metrics and writers', () => {
	const workout = workoutFromSamples([{ offsetMs: 0, lat: 1, lng: 2 }, { offsetMs: 1000 }], {
		startMs: START,
		activityType: fileActivityType('ride'),
		laps: [
			{
				start_offset_s: 0,
				elapsed_time_total: 1,
				active_time_total: null,
				distance_total: 5,
				metabolic_energy_total: 4184,
				heartrate_avg: null,
				heartrate_max: null,
				first_sample: 0,
				end_sample: 2,
			},
		],
	});
	expect(workout.activityType).toBe(11);
	expect(workout.points[1]).toEqual({ time: START + 1000 });
	expect(workout.laps[0]).toEqual({
		startTime: START,
		elapsedS: 1,
		distanceM: 5,
		calories: 1,
		firstPoint: 0,
		endPoint: 2,
	});
});

describe('wording', () => {
	test('durations, paces and speeds read as members expect', () => {
		expect(formatDuration(65)).toBe('1:05');
		expect(formatDuration(3723)).toBe('1:02:03');
		expect(paceOf(5000, 1500, 'km')).toBe('5:00 /km');
		expect(paceOf(null, 1500, 'km')).toBe('—');
		expect(formatSpeed(10, 'km')).toBe('36.0 km/h');
		expect(formatSpeed(10, 'mi')).toBe('22.4 mph');
	});

	test('a local start time round-trips through the workout time zone, across daylight saving', () => {
		const summer = new Date('2026-07-01T05:30:00Z');
		expect(toLocalInput(summer, 'Europe/Ljubljana')).toBe('2026-07-01T07:30');
		expect(fromLocalInput('2026-07-01T07:30', 'Europe/Ljubljana')).toBe(summer.toISOString());
		expect(fromLocalInput('2026-01-10T07:30', 'Europe/Ljubljana')).toBe('2026-01-10T06:30:00.000Z');
		expect(fromLocalInput('2026-03-08T12:00', 'America/New_York')).toBe('2026-03-08T16:00:00.000Z');
		expect(fromLocalInput('not a time', 'UTC')).toBeNull();
	});
});

describe('time in heart-rate zones', () => {
	const zones = [
		{ name: 'zone1', start: 0, end: 108 },
		{ name: 'zone2', start: 109, end: 125 },
		{ name: 'zone3', start: 126, end: 144 },
	];
	test('each interval counts at its first sample; pauses and samples without a rate do not count', () => {
		const samples: SeriesSample[] = [
			{ offsetMs: 0, heartRate: 100 },
			{ offsetMs: 5000, heartRate: 120 },
			{ offsetMs: 10_000, heartRate: 150 },
			{ offsetMs: 15_000 },
			{ offsetMs: 20_000, heartRate: 130 },
			// A five-minute pause.
			{ offsetMs: 320_000, heartRate: 130 },
			{ offsetMs: 322_000, heartRate: 108.6 },
			{ offsetMs: 324_000, heartRate: 90 },
		];
		expect(timeInZones(samples, zones).map((zone) => zone.seconds)).toEqual([5, 5 + 2, 5 + 2]);
	});

	test('no zones, no answer; no heart rate, no time', () => {
		expect(timeInZones([{ offsetMs: 0, heartRate: 100 }], [])).toEqual([]);
		expect(
			timeInZones(
				runNorth([{ seconds: 60, mps: 3 }]).map(({ heartRate: _, ...rest }) => rest),
				zones,
			).map((zone) => zone.seconds),
		).toEqual([0, 0, 0]);
	});
});
