import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { computeMetrics, readFitWithSdk, readWorkoutFileSync } from '~/lib/workout-files';
import { fixtureDir, loadFixture } from './fixtures';

// Moving time and climb of every real recording among the fixtures, against the figures gpxpy 1.5 and a
// 5 m dead band give for the same points (scripts/workout-file-references.py wrote references.json; the
// tolerances are the ones the workout-files README promises).
const Figure = v.pipe(v.number(), v.minValue(0));
const References = v.object({
	tool: v.string(),
	files: v.record(
		v.string(),
		v.variant('kind', [
			v.object({ kind: v.literal('no_track_points') }),
			v.object({ kind: v.literal('no_positions') }),
			v.object({
				kind: v.literal('track'),
				segments: v.pipe(v.number(), v.integer(), v.minValue(1)),
				points: v.pipe(v.number(), v.integer(), v.minValue(1)),
				gpxpy_moving_s: v.nullable(Figure),
				gpxpy_moving_2d_s: v.nullable(Figure),
				gpxpy_up_m: Figure,
				gpxpy_down_m: Figure,
				hysteresis5_up_m: Figure,
				hysteresis5_down_m: Figure,
			}),
		]),
	),
});
const references = v.parse(References, JSON.parse(readFileSync(`${fixtureDir}references.json`, 'utf8')));
type TrackReference = Extract<(typeof references.files)[string], { kind: 'track' }>;
const cases = Object.entries(references.files).flatMap(([file, r]) =>
	r.kind === 'track' ? [[file, r] as [string, TrackReference]] : [],
);
const filesOfKind = (kind: 'no_track_points' | 'no_positions') =>
	Object.entries(references.files)
		.filter(([, r]) => r.kind === kind)
		.map(([file]) => file);

/** The script's 5 m dead band: the level moves, and the rise or drop counts, once a height is 5 m off it. */
function deadBand(heights: number[]): { up: number; down: number } {
	let up = 0;
	let down = 0;
	let level: number | undefined;
	for (const h of heights) {
		if (level === undefined) level = h;
		else if (h - level >= 5) {
			up += h - level;
			level = h;
		} else if (level - h >= 5) {
			down += level - h;
			level = h;
		}
	}
	return { up, down };
}

/**
 * Made-up tracks whose one-point height spike both references count in full: we smooth it away as the
 * noise it is, so here ours may fall below them, though never below the track's net rise.
 */
const SPIKED = new Set(['gpx/track-with-extremes.gpx']);

/** Moving time within this share of gpxpy's (1 km/h, intervals measured on the ground). */
const MOVING_TOLERANCE = 0.03;
/** Climb and descent may fall this share below the lower of the two references. */
const CLIMB_SLACK_BELOW = 0.02;

describe('moving time and climb against gpxpy and a 5 m dead band on real files', () => {
	it('covers every file of the shared workout data, one of them cut into segments', () => {
		const shared = `${fixtureDir}../../../../shared/data/workouts/`;
		const sharedFiles = existsSync(shared)
			? (['gpx', 'tcx', 'fit'] as const).flatMap((folder) =>
					readdirSync(`${shared}${folder}`)
						.filter((name) => !name.endsWith('.csv'))
						.map((name) => `${folder}/${name}`),
				)
			: [];
		const covered = Object.keys(references.files).map((file) => file.replace(/\.gz$/, ''));
		for (const file of sharedFiles) expect(covered, file).toContain(file);
		const files = cases.map(([file]) => file);
		for (const folder of ['gpx/', 'tcx/', 'fit/']) expect(files.some((f) => f.startsWith(folder))).toBe(true);
		expect(cases.some(([, r]) => r.segments > 1 && r.gpxpy_moving_2d_s !== null)).toBe(true);
		expect(references.tool).toMatch(/^gpxpy 1\.5/);
	});

	it.each(filesOfKind('no_track_points'))(
		'%s: gpxpy finds no track point, and it is refused as such',
		(file) => {
			expect(() => readWorkoutFileSync(loadFixture(file))).toThrow(
				expect.objectContaining({ code: 'no_track_points' }),
			);
		},
	);

	// Without positions there is nothing gpxpy can read: such files are checked against another decoder's
	// samples instead — python-fitparse's CSV where the FIT SDK cannot expand compressed timestamps.
	const otherDecoding = (file: string): Array<{ time: number; distance?: number; elevation?: number }> => {
		if (file === 'fit/compressed-speed-distance.fit') {
			return readFileSync(`${fixtureDir}fit/compressed-speed-distance-records.csv`, 'utf8')
				.trim()
				.split('\n')
				.slice(1)
				.map((line) => line.split(','))
				.map(([time, , , distance]) => ({ time: Number(time) * 1000, distance: Number(distance) }));
		}
		return readFitWithSdk(loadFixture(file), 'none').points.flatMap((p) =>
			p.time === undefined ? [] : [{ time: p.time, distance: p.distance, elevation: p.elevation }],
		);
	};

	it.each(filesOfKind('no_positions'))(
		'%s: without positions for gpxpy, its span, distance and climb agree with another decoder',
		(file) => {
			const workout = readWorkoutFileSync(loadFixture(file));
			const ours = computeMetrics(workout);
			const theirs = otherDecoding(file);
			// Both decoders date the same samples alike (the CSV leaves out a first record that holds only a time).
			const span = (times: number[]) => (Math.max(...times) - Math.min(...times)) / 1000;
			const oursWithDistance = workout.points.flatMap((p) =>
				p.time === undefined || p.distance === undefined ? [] : [p.time],
			);
			expect(span(oursWithDistance)).toBe(
				span(theirs.flatMap((p) => (p.distance === undefined ? [] : [p.time]))),
			);
			const lastDistance = theirs.findLast((p) => p.distance !== undefined)?.distance ?? 0;
			expect(Math.abs(ours.distanceM - lastDistance)).toBeLessThanOrEqual(
				Math.max(0.05, lastDistance * 0.001),
			);
			expect(ours.movingS).toBeGreaterThan(0);
			expect(ours.movingS).toBeLessThanOrEqual(ours.elapsedS);
			const band = deadBand(theirs.flatMap((p) => (p.elevation === undefined ? [] : [p.elevation])));
			expect(ours.elevationGainM).toBeCloseTo(band.up, 1);
			expect(ours.elevationLossM).toBeCloseTo(band.down, 1);
		},
	);

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
		const heights = workout.points.flatMap((p) => (p.elevation === undefined ? [] : [p.elevation]));
		const net = heights.length > 0 ? heights[heights.length - 1] - heights[0] : 0;
		const within = (ours: number, a: number, b: number, netChange: number) => {
			if (SPIKED.has(file)) expect(ours).toBeGreaterThanOrEqual(Math.max(0, netChange));
			else expect(ours).toBeGreaterThanOrEqual(Math.min(a, b) * (1 - CLIMB_SLACK_BELOW) - 0.05);
			expect(ours).toBeLessThanOrEqual(Math.max(a, b) + 0.05);
		};
		within(m.elevationGainM, reference.gpxpy_up_m, reference.hysteresis5_up_m, net);
		within(m.elevationLossM, reference.gpxpy_down_m, reference.hysteresis5_down_m, -net);
	});
});
