import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { effortsOf } from '../../../src/lib/stats/records';
import { readWorkoutFileSync } from '../../../src/lib/workout-files';
import {
	decodeSeries,
	encodeSeries,
	fromApiTimeSeries,
	PREVIEW_POINTS,
	previewSeriesOf,
	type SeriesSample,
	segmentStartsOf,
} from '../../../src/lib/workouts/series';
import { contentHashOf, deriveFromFile } from '../../../src/lib/workouts/server/derive-file';

describe('stored time series', () => {
	test('round-trips values at their stored precision, keeping gaps as gaps', () => {
		const samples: SeriesSample[] = [
			{ offsetMs: 0, lat: 46.0512345, lng: 14.5067891, elevation: 295.34, heartRate: 120 },
			{ offsetMs: 1000, lat: 46.0512999, lng: 14.5068, heartRate: 121, power: 250 },
			{ offsetMs: 2000, elevation: 296.1, speed: 3.456, distance: 12.345 },
			{ offsetMs: 4000, lat: 46.0514, lng: 14.507, elevation: 294, heartRate: 119, cadence: 88 },
		];
		const decoded = decodeSeries(encodeSeries(samples));
		expect(decoded).toHaveLength(4);
		expect(decoded[0]).toEqual({
			offsetMs: 0,
			lat: 46.051235,
			lng: 14.506789,
			elevation: 295.3,
			heartRate: 120,
		});
		expect(decoded[1]).toEqual({ offsetMs: 1000, lat: 46.0513, lng: 14.5068, heartRate: 121, power: 250 });
		expect(decoded[2]).toEqual({ offsetMs: 2000, elevation: 296.1, speed: 3.456, distance: 12.35 });
		expect(decoded[3]).toEqual({
			offsetMs: 4000,
			lat: 46.0514,
			lng: 14.507,
			elevation: 294,
			heartRate: 119,
			cadence: 88,
		});
	});

	test('a channel no sample has is left out; differences stay small', () => {
		const series = encodeSeries([
			{ offsetMs: 0, heartRate: 100 },
			{ offsetMs: 1000, heartRate: 101 },
		]);
		expect(Object.keys(series).sort()).toEqual(['hr', 't', 'v']);
		expect(series.t).toEqual([0, 1000]);
		expect(series.hr).toEqual([100, 1]);
	});

	test('JSON channels with their own times merge into one ordered series', () => {
		const samples = fromApiTimeSeries({
			heartrate: [
				[2, 130],
				[0, 120],
			],
			position: [[1, { lat: 1, lng: 2 }]],
		});
		expect(samples).toEqual([
			{ offsetMs: 0, heartRate: 120 },
			{ offsetMs: 1000, lat: 1, lng: 2 },
			{ offsetMs: 2000, heartRate: 130 },
		]);
	});

	test('a real FIT ride keeps every sample within the stored precision', () => {
		const file = readWorkoutFileSync(
			new Uint8Array(readFileSync('tests/fixtures/workouts/fit/garmin-fenix-5-bike.fit')),
		);
		const derived = deriveFromFile(file, 70);
		if (!derived) throw new Error('the file has timed samples');
		const { series } = derived;
		const decoded = decodeSeries(series);
		expect(decoded).toHaveLength(file.points.length);
		file.points.forEach((point, i) => {
			expect(decoded[i].offsetMs).toBe((point.time as number) - (file.startTime as number));
			if (point.lat !== undefined)
				expect(Math.abs((decoded[i].lat as number) - point.lat)).toBeLessThanOrEqual(5e-7);
			if (point.heartRate !== undefined) expect(decoded[i].heartRate).toBe(Math.round(point.heartRate));
		});
	});

	test('a file comes with its best efforts, the same as a later look at its stored series finds', () => {
		const file = readWorkoutFileSync(
			new Uint8Array(readFileSync('tests/fixtures/workouts/fit/compressed-speed-distance.fit')),
		);
		const derived = deriveFromFile(file, 70);
		if (!derived) throw new Error('the file has timed samples');
		expect(derived.efforts.map((effort) => effort.key)).toContain('5km');
		expect(derived.efforts).toEqual(effortsOf(derived, derived.series));
	});

	test('a file in segments keeps its breaks; one in a piece stores none and hashes as before', () => {
		const file = readWorkoutFileSync(
			new Uint8Array(readFileSync('tests/fixtures/workouts/gpx/cerknicko-jezero-with-elevations-zero.gpx')),
		);
		expect(file.segmentStarts).toHaveLength(7);
		const derived = deriveFromFile(file, 70);
		if (!derived) throw new Error('the file has timed samples');
		expect(segmentStartsOf(derived.series)).toEqual(file.segmentStarts);
		// The content hash is the samples': the same recording stored before breaks were kept is a duplicate.
		const { seg: _seg, ...samplesOnly } = derived.series;
		expect(contentHashOf(derived.startDatetime, samplesOnly)).toBe(derived.contentHash);
		const whole = encodeSeries(decodeSeries(derived.series));
		expect(whole.seg).toBeUndefined();
		expect(segmentStartsOf(whole)).toEqual([0]);
	});
});

describe('the preview line', () => {
	test('keeps at most a hundred positions, evenly spaced, with both ends', () => {
		const samples = Array.from({ length: 1001 }, (_, i) => ({
			offsetMs: i * 1000,
			lat: 46 + i / 10_000,
			lng: 14.5,
			heartRate: 140,
		}));
		const preview = decodeSeries(previewSeriesOf(encodeSeries(samples)));
		expect(preview).toHaveLength(PREVIEW_POINTS);
		expect(preview[0]).toEqual({ offsetMs: 0, lat: 46, lng: 14.5 });
		expect(preview.at(-1)).toEqual({ offsetMs: 1_000_000, lat: 46.1, lng: 14.5 });
	});

	test('is empty for a recording without positions', () => {
		expect(previewSeriesOf(encodeSeries([{ offsetMs: 0, heartRate: 120 }]))).toEqual({ v: 1, t: [] });
		expect(previewSeriesOf(null)).toEqual({ v: 1, t: [] });
	});
});
