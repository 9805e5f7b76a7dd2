/**
 * Extracts the demo workouts' recordings from the real device files bundled as test fixtures
 * (tests/fixtures/workouts, attributed in its README): for each, the time, distance and the heart
 * rate, cadence and power the device recorded, thinned to at most about 1,200 samples. Run once
 * after the list changes: `npx tsx src/lib/workouts/server/demo/generate.ts` writes
 * demo-recordings.json beside it (then `npx biome format --write` it).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readWorkoutFileSync } from '../../../workout-files';
import { computeCumulativeDistance } from '../../../workout-files/metrics';
import type { DemoRecording } from './types';

const FIXTURES = join(import.meta.dirname, '../../../../../tests/fixtures/workouts');
const MAX_SAMPLES = 1200;

const SOURCES: Omit<DemoRecording, 't' | 'd' | 'hr' | 'cad' | 'pow'>[] = [
	{ key: 'run-tempo', file: 'tcx/multiple_running_activities.tcx.gz', kind: 'run', device: 'Garmin watch' },
	{
		key: 'run-easy',
		file: 'fit/developer-types-sample.fit',
		kind: 'run',
		device: 'Garmin watch and power pod',
	},
	{ key: 'run-long', file: 'tcx/running_activity_2.tcx.gz', kind: 'run', device: 'Garmin watch' },
	{ key: 'walk', file: 'tcx/walking_activity_1.tcx', kind: 'walk', device: 'Garmin watch' },
	{
		key: 'ride-power',
		file: 'fit/Edge810-Vector-2013-08-16-15-35-10.fit',
		kind: 'ride',
		device: 'Garmin Edge 810',
	},
	{ key: 'ride-long', file: 'fit/sample_mulitple_header.fit', kind: 'ride', device: 'Garmin bike computer' },
	{
		key: 'indoor',
		file: 'fit/sample-activity-indoor-trainer.fit',
		kind: 'indoor',
		device: 'Garmin indoor trainer',
	},
];

const recordings: DemoRecording[] = SOURCES.map((source) => {
	const workout = readWorkoutFileSync(new Uint8Array(readFileSync(join(FIXTURES, source.file))));
	const start = workout.startTime as number;
	const { cumulative } = computeCumulativeDistance(workout);
	const timed = workout.points
		.map((point, index) => ({ point, distance: cumulative[index] }))
		.filter(({ point }) => point.time !== undefined);
	const duration = ((timed.at(-1)?.point.time as number) - start) / 1000;
	const step = Math.max(1, Math.ceil(duration / MAX_SAMPLES));
	const kept: typeof timed = [];
	for (const sample of timed) {
		const last = kept.at(-1);
		if (!last || ((sample.point.time as number) - (last.point.time as number)) / 1000 >= step)
			kept.push(sample);
	}
	const channel = (read: (point: (typeof timed)[number]['point']) => number | undefined) =>
		kept.some(({ point }) => read(point) !== undefined)
			? kept.map(({ point }) => {
					const value = read(point);
					return value === undefined ? null : Math.round(value);
				})
			: undefined;
	return {
		...source,
		t: kept.map(({ point }) => Math.round(((point.time as number) - start) / 1000)),
		d: kept.map(({ distance }) => Math.round(distance * 10) / 10),
		hr: channel((point) => point.heartRate),
		cad: channel((point) => point.cadence),
		pow: channel((point) => point.power),
	};
});

writeFileSync(join(import.meta.dirname, 'demo-recordings.json'), `${JSON.stringify(recordings)}\n`);
for (const r of recordings) console.log(r.key, r.t.length, 'samples', r.t.at(-1), 's', r.d.at(-1), 'm');
