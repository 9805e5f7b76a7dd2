import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { computeMetrics, readWorkoutFileSync } from '~/lib/workout-files';
import { fixtureDir, loadFixture } from './fixtures';

// Moving time and climb of every real recording among the fixtures, against the figures gpxpy 1.5 and a
// 5 m dead band give for the same points (scripts/workout-file-references.py wrote references.json; the
// tolerances are the ones the workout-files README promises).
const Figure = v.pipe(v.number(), v.minValue(0));
const References = v.object({
	tool: v.string(),
	files: v.record(
		v.string(),
		v.object({
			segments: v.pipe(v.number(), v.integer(), v.minValue(1)),
			points: v.pipe(v.number(), v.integer(), v.minValue(1)),
			gpxpy_moving_s: v.nullable(Figure),
			gpxpy_moving_2d_s: v.nullable(Figure),
			gpxpy_up_m: Figure,
			gpxpy_down_m: Figure,
			hysteresis5_up_m: Figure,
			hysteresis5_down_m: Figure,
		}),
	),
});
const references = v.parse(References, JSON.parse(readFileSync(`${fixtureDir}references.json`, 'utf8')));
const cases = Object.entries(references.files);

/** Moving time within this share of gpxpy's (1 km/h, intervals measured on the ground). */
const MOVING_TOLERANCE = 0.03;
/** Climb and descent may fall this share below the lower of the two references. */
const CLIMB_SLACK_BELOW = 0.02;

describe('moving time and climb against gpxpy and a 5 m dead band on real files', () => {
	it('covers GPX, TCX and FIT recordings, one of them cut into segments', () => {
		const files = cases.map(([file]) => file);
		for (const folder of ['gpx/', 'tcx/', 'fit/']) expect(files.some((f) => f.startsWith(folder))).toBe(true);
		expect(cases.some(([, r]) => r.segments > 1 && r.gpxpy_moving_2d_s !== null)).toBe(true);
		expect(references.tool).toMatch(/^gpxpy 1\.5/);
	});

	it.each(cases)('%s', (file, reference) => {
		const workout = readWorkoutFileSync(loadFixture(file));
		// gpxpy sees the points and segments we read (our CLI wrote them out for TCX and FIT).
		expect(workout.segmentStarts.length).toBe(reference.segments);
		const m = computeMetrics(workout);
		if (m.elapsedS > 0) {
			const expected = reference.gpxpy_moving_2d_s as number;
			expect(expected).toBeGreaterThan(0);
			expect(Math.abs(m.movingS - expected)).toBeLessThanOrEqual(expected * MOVING_TOLERANCE);
		}
		const within = (ours: number, a: number, b: number) => {
			expect(ours).toBeGreaterThanOrEqual(Math.min(a, b) * (1 - CLIMB_SLACK_BELOW) - 0.05);
			expect(ours).toBeLessThanOrEqual(Math.max(a, b) + 0.05);
		};
		within(m.elevationGainM, reference.gpxpy_up_m, reference.hysteresis5_up_m);
		within(m.elevationLossM, reference.gpxpy_down_m, reference.hysteresis5_down_m);
	});
});
