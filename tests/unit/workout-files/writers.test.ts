import { describe, expect, it } from 'vitest';
import {
	computeMetrics,
	type NormalisedWorkout,
	readWorkoutFileSync,
	type TrackPoint,
	WorkoutFileError,
	writeFit,
	writeGpx,
	writeTcx,
} from '~/lib/workout-files/index';
import { encode, listFixtures, loadFixture } from './fixtures';

const readable = listFixtures('gpx')
	.concat(listFixtures('tcx'), listFixtures('fit'))
	.filter((f) => {
		try {
			readWorkoutFileSync(loadFixture(f));
			return true;
		} catch {
			return false;
		}
	});

const positioned = (w: NormalisedWorkout) =>
	w.points.filter((p) => p.lat !== undefined && p.lng !== undefined);

describe('GPX writer', () => {
	it.each(readable)('%s → GPX → read keeps every positioned point and value exactly', (file) => {
		const w = readWorkoutFileSync(loadFixture(file));
		if (positioned(w).length === 0) {
			expect(() => writeGpx(w)).toThrow(WorkoutFileError);
			return;
		}
		const back = readWorkoutFileSync(encode(writeGpx(w)));
		expect(back.points).toEqual(positioned(w));
		expect(back.activityType).toBe(w.activityType);
		expect(back.waypoints).toEqual(w.waypoints);
		if (positioned(w).length === w.points.length) {
			expect(back.segmentStarts).toEqual(w.segmentStarts);
			expect(computeMetrics(back).distanceM).toBeCloseTo(computeMetrics(w).distanceM, 6);
		}
	});

	it('escapes names and writes the TrackPointExtension', () => {
		const gpx = writeGpx({
			format: 'fit',
			container: 'none',
			activityType: 16,
			name: 'Tom & Jerry <run>',
			segmentStarts: [0],
			points: [{ lat: 1, lng: 2, time: Date.UTC(2024, 0, 1), heartRate: 150, cadence: 88 }],
			laps: [],
			waypoints: [],
			deviceTotals: {},
			warnings: [],
		});
		expect(gpx).toContain('<name>Tom &amp; Jerry &lt;run&gt;</name>');
		expect(gpx).toContain(
			'<gpxtpx:TrackPointExtension><gpxtpx:hr>150</gpxtpx:hr><gpxtpx:cad>88</gpxtpx:cad></gpxtpx:TrackPointExtension>',
		);
		expect(gpx).toContain('<time>2024-01-01T00:00:00Z</time>');
		expect(gpx).toContain('<type>running</type>');
	});
});

/** What TCX can hold of a point: no temperature, whole cadence, heart rate from 1, whole watts. */
function asTcxKeepsIt(p: TrackPoint): TrackPoint {
	const q: TrackPoint = { ...p };
	delete q.temperature;
	if (q.cadence !== undefined) q.cadence = Math.min(254, Math.round(q.cadence));
	if (q.heartRate !== undefined && Math.round(q.heartRate) < 1) delete q.heartRate;
	if (q.power !== undefined) q.power = Math.round(q.power);
	return q;
}

describe('TCX writer', () => {
	const timed = readable.filter((f) =>
		readWorkoutFileSync(loadFixture(f)).points.every((p) => p.time !== undefined),
	);

	it.each(timed)('%s → TCX → read keeps every point, lap and segment', (file) => {
		const w = readWorkoutFileSync(loadFixture(file));
		const back = readWorkoutFileSync(encode(writeTcx(w)));
		expect(back.format).toBe('tcx');
		expect(back.points).toEqual(w.points.map(asTcxKeepsIt));
		expect(back.laps.length).toBe(Math.max(1, w.laps.length));
		if (w.laps.length > 0) {
			expect(back.laps.map((l) => l.distanceM)).toEqual(w.laps.map((l) => l.distanceM));
			expect(back.laps.map((l) => l.timerS)).toEqual(w.laps.map((l) => l.timerS));
		}
		expect(computeMetrics(back).distanceM).toBeCloseTo(computeMetrics(w).distanceM, 6);
		if ([16, 11].includes(w.activityType)) expect(back.activityType).toBe(w.activityType);
	});

	it('refuses a workout without times', () => {
		const w = readWorkoutFileSync(loadFixture('gpx/route.gpx'));
		expect(() => writeTcx(w)).toThrow(/without times/);
	});
});

describe('FIT writer (Garmin SDK encoder)', () => {
	const timed = readable.filter((f) =>
		readWorkoutFileSync(loadFixture(f)).points.every((p) => p.time !== undefined),
	);

	it.each(listFixtures('fit').filter((f) => timed.includes(f)))('%s → FIT → read is identical', (file) => {
		const w = readWorkoutFileSync(loadFixture(file));
		const back = readWorkoutFileSync(writeFit(w));
		// Compressed records carry distance in 1/16 m; the record's distance field holds 1/100 m.
		const cm = (p: TrackPoint) =>
			p.distance === undefined ? p : { ...p, distance: Math.round(p.distance * 100) / 100 };
		expect(back.points).toEqual(w.points.map(cm));
		expect(back.segmentStarts).toEqual(w.segmentStarts);
		expect(back.laps.length).toBe(Math.max(1, w.laps.length));
		expect(back.activityType).toBe(w.activityType === 1 ? 1 : w.activityType);
	});

	it('refuses times FIT cannot hold', () => {
		// 1985: after the GPS epoch, so the times are read, but before FIT's own epoch (1989-12-31).
		const text = new TextDecoder().decode(loadFixture('gpx/Mojstrovka.gpx')).replaceAll('1901-', '1985-');
		const w = readWorkoutFileSync(new TextEncoder().encode(text));
		expect(() => writeFit(w)).toThrow(/before 1990/);
	});

	it.each(timed.filter((f) => !f.startsWith('fit/') && !f.includes('Mojstrovka')))(
		'%s → FIT → read keeps every point within FIT resolution',
		(file) => {
			const w = readWorkoutFileSync(loadFixture(file));
			const back = readWorkoutFileSync(writeFit(w));
			expect(back.points).toHaveLength(w.points.length);
			back.points.forEach((p, i) => {
				const q = w.points[i];
				expect(p.time).toBe(q.time);
				for (const key of ['lat', 'lng'] as const) {
					if (q[key] === undefined) expect(p[key]).toBeUndefined();
					else expect(Math.abs((p[key] as number) - (q[key] as number))).toBeLessThan(1e-7);
				}
				if (q.elevation !== undefined)
					expect(Math.abs((p.elevation as number) - q.elevation)).toBeLessThanOrEqual(0.1 + 1e-9);
				if (q.distance !== undefined)
					expect(Math.abs((p.distance as number) - q.distance)).toBeLessThanOrEqual(0.005 + 1e-9);
				if (q.speed !== undefined)
					expect(Math.abs((p.speed as number) - q.speed)).toBeLessThanOrEqual(0.0005 + 1e-9);
				if (q.heartRate !== undefined) expect(p.heartRate).toBe(Math.round(q.heartRate));
				if (q.power !== undefined) expect(p.power).toBe(Math.round(q.power));
			});
			expect(back.segmentStarts).toEqual(w.segmentStarts);
			expect(computeMetrics(back).distanceM).toBeCloseTo(computeMetrics(w).distanceM, 1);
		},
	);
});
