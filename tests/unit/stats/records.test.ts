import { describe, expect, test } from 'vitest';
import {
	cumulativeDistance,
	effortsInRecording,
	effortsOfWholeWorkout,
	ordinal,
	recordsFrom,
} from '../../../src/lib/stats/records';

/** A run sampled each second at `pace(s)` metres per second. */
function recording(seconds: number, speed: (second: number) => number) {
	const offsets = new Float64Array(seconds + 1);
	const distance = new Float64Array(seconds + 1);
	for (let s = 1; s <= seconds; s++) {
		offsets[s] = s * 1000;
		distance[s] = distance[s - 1] + speed(s);
	}
	return { offsets, distance };
}

describe('best efforts in a recording', () => {
	test('finds the fastest stretch at each distance the recording covers', () => {
		// 3 m/s for 20 minutes, then 5 m/s for 4 minutes (1.2 km), then 3 m/s again.
		const { offsets, distance } = recording(3600, (s) => (s > 1200 && s <= 1440 ? 5 : 3));
		const efforts = effortsInRecording(offsets, distance);
		const oneK = efforts.find((effort) => effort.key === '1km');
		expect(oneK?.seconds).toBe(198);
		expect(oneK?.startOffsetS).toBeGreaterThanOrEqual(1200);
		const fiveK = efforts.find((effort) => effort.key === '5km');
		// 990 m, 99 % of 1 km, at 5 m/s.
		// 1.2 km at 5 m/s (240 s) and 3.75 km at 3 m/s (1250 s) make 4.95 km, 99 % of 5 km.
		expect(fiveK?.seconds).toBe(1490);
		expect(fiveK?.distanceM).toBeCloseTo(4950, 5);
		expect(efforts.map((effort) => effort.key)).toEqual(['1km', '1mi', '5km', '5mi', '10km']);
	});

	test('a recording shorter than 99 % of a distance sets nothing there', () => {
		const { offsets, distance } = recording(329, () => 3);
		expect(effortsInRecording(offsets, distance)).toEqual([]);
		const { offsets: longer, distance: further } = recording(330, () => 3);
		expect(effortsInRecording(longer, further).map((effort) => effort.key)).toEqual(['1km']);
	});

	test('a 12-hour recording at one sample a second takes milliseconds', () => {
		const { offsets, distance } = recording(12 * 3600, (s) => 4 + Math.sin(s / 60));
		const started = performance.now();
		const efforts = effortsInRecording(offsets, distance);
		expect(performance.now() - started).toBeLessThan(200);
		expect(efforts.map((effort) => effort.key)).toContain('100mi');
	});

	test('distance comes from the device when recorded, else from positions', () => {
		expect([
			...cumulativeDistance([
				{ offsetMs: 0, distance: 0 },
				{ offsetMs: 1000, distance: 4 },
				{ offsetMs: 2000 },
			]),
		]).toEqual([0, 4, 4]);
		const walked = cumulativeDistance([
			{ offsetMs: 0, lat: 46, lng: 14 },
			{ offsetMs: 1000 },
			{ offsetMs: 2000, lat: 46.001, lng: 14 },
		]);
		expect(walked[1]).toBe(0);
		expect(walked[2]).toBeCloseTo(111.19, 1);
	});
});

describe('whole workouts without a recording', () => {
	test('count for a distance only inside its 99–105 % window', () => {
		expect(effortsOfWholeWorkout(5100, 1500).map((effort) => effort.key)).toEqual(['5km']);
		expect(effortsOfWholeWorkout(4949, 1500)).toEqual([]);
		expect(effortsOfWholeWorkout(5251, 1500)).toEqual([]);
		expect(effortsOfWholeWorkout(42195, 12000).map((effort) => effort.key)).toEqual(['marathon']);
		expect(effortsOfWholeWorkout(21100, null)).toEqual([]);
	});
});

describe('records and their history', () => {
	test('the best per sport and distance, and each record that fell on the way', () => {
		const at = (day: number) => new Date(Date.UTC(2026, 0, day));
		const rows = [
			{ workoutId: 1, key: '5km', group: 'run', seconds: 1500, achievedAt: at(1) },
			{ workoutId: 2, key: '5km', group: 'run', seconds: 1550, achievedAt: at(2) },
			{ workoutId: 3, key: '5km', group: 'run', seconds: 1450, achievedAt: at(3) },
			{ workoutId: 4, key: '5km', group: 'run', seconds: 1400, achievedAt: at(4) },
			{ workoutId: 5, key: '5km', group: 'ride', seconds: 600, achievedAt: at(5) },
			{ workoutId: 4, key: '1km', group: 'run', seconds: 250, achievedAt: at(4) },
		];
		const records = recordsFrom(rows);
		expect(records.map((record) => `${record.group} ${record.key}`)).toEqual([
			'ride 5km',
			'run 1km',
			'run 5km',
		]);
		const fiveK = records[2];
		expect(fiveK.best.workoutId).toBe(4);
		expect(fiveK.history.map((row) => row.workoutId)).toEqual([1, 3, 4]);
		expect(fiveK.ranked.map((row) => row.workoutId)).toEqual([4, 3, 1, 2]);
		expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 101].map(ordinal)).toEqual([
			'1st',
			'2nd',
			'3rd',
			'4th',
			'11th',
			'12th',
			'13th',
			'21st',
			'22nd',
			'101st',
		]);
	});
});
