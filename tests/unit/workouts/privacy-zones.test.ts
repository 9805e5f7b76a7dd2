import { describe, expect, test } from 'vitest';
import { haversineM } from '../../../src/lib/workout-files/geo';
import { placeZone, trimForViewer } from '../../../src/lib/workouts/privacy-zones';
import type { SeriesSample } from '../../../src/lib/workouts/series';

const START = { lat: 46.05, lng: 14.5 };
const M_PER_DEG_LAT = 111_195;

/** A straight run north, one sample every 10 m and 4 s, with heart rate, speed and distance. */
function runNorth(metres: number): SeriesSample[] {
	return Array.from({ length: metres / 10 + 1 }, (_, i) => ({
		offsetMs: i * 4000,
		lat: START.lat + (i * 10) / M_PER_DEG_LAT,
		lng: START.lng,
		elevation: 300,
		heartRate: 130,
		speed: 2.5,
		distance: i * 10,
	}));
}

const subject = (samples: SeriesSample[], id = 1) => ({ id, ownerId: 7, secret: 'abc', samples });
const along = (sample: SeriesSample) =>
	haversineM(START.lat, START.lng, sample.lat as number, sample.lng as number);

describe('trimForViewer', () => {
	test('the owner sees every sample whatever the settings', () => {
		const samples = runNorth(2000);
		const zone = placeZone(START, 400, () => 0.5);
		const own = trimForViewer(subject(samples), { zones: [zone], hideEndsM: 500 }, { id: 7 });
		expect(own.samples).toEqual(samples);
	});

	test('hidden ends cover the chosen distance plus up to half again, fixed per workout', () => {
		const samples = runNorth(3000);
		const settings = { zones: [], hideEndsM: 300 };
		const seen = trimForViewer(subject(samples), settings, null);
		const visible = seen.samples.filter((sample) => sample.lat !== undefined);
		const firstAlong = along(visible[0]);
		const lastAlong = 3000 - along(visible.at(-1) as SeriesSample);
		for (const hidden of [firstAlong, lastAlong]) {
			expect(hidden).toBeGreaterThanOrEqual(300);
			expect(hidden).toBeLessThanOrEqual(450 + 10);
		}
		expect(trimForViewer(subject(samples), settings, { id: 8 })).toEqual(seen);
		// Another workout hides a different length: its ends are not all at one distance.
		const lengths = new Set(
			Array.from({ length: 10 }, (_, id) => {
				const first = trimForViewer(subject(samples, id), settings, null).samples.find(
					(sample) => sample.lat !== undefined,
				);
				return Math.round(along(first as SeriesSample));
			}),
		);
		expect(lengths.size).toBeGreaterThan(5);
	});

	test('hidden samples keep time and heart rate but lose position, height, speed and distance', () => {
		const samples = runNorth(1000);
		const { samples: seen, hidden } = trimForViewer(subject(samples), { zones: [], hideEndsM: 200 }, null);
		expect(seen).toHaveLength(samples.length);
		expect(seen[0]).toEqual({ offsetMs: 0, heartRate: 130 });
		expect(hidden[0]).toBe(true);
		const firstVisible = seen.findIndex((sample) => sample.lat !== undefined);
		expect(seen[firstVisible].distance).toBe(0);
		expect(seen[firstVisible + 1].distance).toBe(10);
		expect(seen.every((sample) => sample.heartRate === 130)).toBe(true);
	});

	test('a zone in the middle hides the samples inside it and only those', () => {
		const samples = runNorth(4000);
		const middle = { lat: START.lat + 2000 / M_PER_DEG_LAT, lng: START.lng };
		const zone = placeZone(middle, 200, () => 0);
		const { samples: seen } = trimForViewer(subject(samples), { zones: [zone], hideEndsM: 0 }, null);
		for (const [i, sample] of seen.entries()) {
			const inside =
				haversineM(samples[i].lat as number, samples[i].lng as number, zone.lat, zone.lng) <= zone.radiusM;
			expect(sample.lat === undefined).toBe(inside);
		}
		expect(seen.filter((sample) => sample.lat === undefined).length).toBeGreaterThan(20);
	});

	test('a workout that never leaves a zone shows no position at all', () => {
		const samples = runNorth(300);
		const zone = placeZone(START, 1600, () => 0.3);
		const { samples: seen } = trimForViewer(subject(samples), { zones: [zone], hideEndsM: 0 }, null);
		expect(seen.some((sample) => sample.lat !== undefined || sample.distance !== undefined)).toBe(false);
	});

	test('a zone keeps its chosen radius hidden around the point in every direction', () => {
		for (const draw of [0, 0.25, 0.5, 0.99]) {
			const zone = placeZone(START, 500, () => draw);
			const offset = haversineM(START.lat, START.lng, zone.lat, zone.lng);
			expect(offset).toBeGreaterThanOrEqual(400 - 1);
			expect(zone.radiusM - offset).toBeGreaterThanOrEqual(500 - 1);
		}
	});
});
