import { Decoder, Stream } from '@garmin/fitsdk';
import FitParser from 'fit-file-parser';
import { describe, expect, it } from 'vitest';
import { readFitWithSdk } from '~/lib/workout-files/fit';
import {
	ActivityTypeId,
	coursePointType,
	type FitCourseInput,
	readWorkoutFileSync,
	WorkoutFileError,
	writeFitCourse,
} from '~/lib/workout-files/index';

const START = Date.UTC(2026, 4, 1, 8, 0, 0);

/** A 3 km line north from Harrisburg with 31 points climbing 58 m, then dropping 8 m at the end. */
function course(overrides: Partial<FitCourseInput> = {}): FitCourseInput {
	const points = Array.from({ length: 31 }, (_, i) => ({
		lat: 40.27 + (3 / 111.195) * (i / 30),
		lng: -76.88 + i * 1e-5,
		elevation: i === 30 ? 150 : 100 + i * 2,
	}));
	return {
		name: 'River Loop',
		activityType: ActivityTypeId.run,
		points,
		cuePoints: [
			{ lat: points[0].lat, lng: points[0].lng, distance: 0, name: 'Head north on Front St' },
			{ lat: points[15].lat, lng: points[15].lng, distance: 1500, name: 'Turn left onto Market St' },
			{ lat: points[30].lat, lng: points[30].lng, distance: 3000, name: 'Water fountain' },
		],
		startTime: START,
		...overrides,
	};
}

describe('writeFitCourse', () => {
	it('reads back through our FIT reader: name, sport, every point, distances, heights and cues', () => {
		const input = course();
		const back = readWorkoutFileSync(writeFitCourse(input));
		expect(back.format).toBe('fit');
		expect(back.name).toBe('River Loop');
		expect(back.activityType).toBe(ActivityTypeId.run);
		expect(back.points).toHaveLength(31);
		back.points.forEach((point, i) => {
			expect(point.lat).toBeCloseTo(input.points[i].lat, 6);
			expect(point.lng).toBeCloseTo(input.points[i].lng, 6);
			// FIT altitude resolution is 0.2 m.
			expect(Math.abs((point.elevation ?? Number.NaN) - (input.points[i].elevation as number))).toBeLessThan(
				0.2,
			);
		});
		const total = back.points.at(-1)?.distance ?? 0;
		expect(total).toBeGreaterThan(2990);
		expect(total).toBeLessThan(3010);
		// One lap over the whole course, timed at the nominal running pace of 10 km/h.
		expect(back.laps).toEqual([
			expect.objectContaining({ firstPoint: 0, endPoint: 31, startTime: START, distanceM: total }),
		]);
		expect(back.laps[0].elapsedS).toBe(Math.round(total / (10 / 3.6)));
		expect(back.points[0].time).toBe(START);
		expect(back.points.at(-1)?.time).toBe(START + Math.round(total / (10 / 3.6)) * 1000);
		expect(back.waypoints.map((w) => w.name)).toEqual([
			'Head north on Front St',
			'Turn left onto Market St',
			'Water fountain',
		]);
		expect(back.waypoints[1].time).toBe(START + Math.round(1500 / (10 / 3.6)) * 1000);
	});

	it('is a course to Garmin’s SDK: file type, course message, lap totals and course point types', () => {
		const bytes = writeFitCourse(course({ activityType: ActivityTypeId.ride }));
		const decoder = new Decoder(Stream.fromByteArray(Array.from(bytes)));
		expect(decoder.isFIT()).toBe(true);
		expect(decoder.checkIntegrity()).toBe(true);
		const { messages, errors } = decoder.read();
		expect(errors).toEqual([]);
		expect(messages.fileIdMesgs?.[0]?.type).toBe('course');
		expect(messages.courseMesgs?.[0]).toMatchObject({ name: 'River Loop', sport: 'cycling' });
		expect(messages.lapMesgs?.[0]).toMatchObject({ totalAscent: 58, totalDescent: 8, sport: 'cycling' });
		expect(messages.recordMesgs).toHaveLength(31);
		expect(messages.coursePointMesgs?.map((p) => p.type)).toEqual(['generic', 'left', 'generic']);
		// The SDK path of our reader agrees with the fast one.
		const fast = readWorkoutFileSync(bytes);
		const sdk = readFitWithSdk(bytes, 'none');
		expect(sdk.points).toEqual(fast.points);
		expect(sdk.waypoints).toEqual(fast.waypoints);
		expect(sdk.name).toBe(fast.name);
		expect(sdk.activityType).toBe(fast.activityType);
	});

	it('parses strictly in fit-file-parser (no force), which checks the CRC', async () => {
		const bytes = writeFitCourse(course({ activityType: ActivityTypeId.walk }));
		const parsed = await new FitParser({ force: false, mode: 'list', lengthUnit: 'm' }).parseAsync(
			Buffer.from(bytes),
		);
		expect(parsed.file_ids?.[0]?.type).toBe('course');
		expect(parsed.course).toMatchObject({ name: 'River Loop', sport: 'walking' });
		expect(parsed.records).toHaveLength(31);
		expect(parsed.records?.[30]?.altitude).toBeCloseTo(150, 0);
		expect(parsed.course_points?.map((p) => p.type)).toEqual(['generic', 'left', 'generic']);
		await expect(
			new FitParser({ force: false }).parseAsync(Buffer.from(flipByte(bytes, 40))),
		).rejects.toBeTruthy();
	});

	it('has correct header and file CRCs: any flipped byte is refused as damaged', () => {
		const bytes = writeFitCourse(course());
		for (const at of [3, 20, Math.floor(bytes.length / 2), bytes.length - 3]) {
			expect(() => readWorkoutFileSync(flipByte(bytes, at))).toThrow(WorkoutFileError);
		}
	});

	it('keeps names valid UTF-8 within FIT string sizes and drops control characters', () => {
		const name = `Sant Julià ${'é'.repeat(80)}`;
		const back = readWorkoutFileSync(
			writeFitCourse(
				course({
					name,
					// 30 bytes of text, then a 3-byte character that does not fit in the 31 left before the NUL.
					cuePoints: [
						{ lat: 40.28, lng: -76.88, distance: 1000, name: 'Bear\u0000right at the old millpond☕' },
					],
				}),
			),
		);
		expect(new TextEncoder().encode(back.name).length).toBeLessThanOrEqual(98);
		expect(name.startsWith(back.name ?? '')).toBe(true);
		expect(back.name).not.toContain('\uFFFD');
		expect(back.waypoints[0].name).toBe('Bear right at the old millpond');
	});

	it('leaves heights out when the route has none, and refuses fewer than two points', () => {
		const back = readWorkoutFileSync(
			writeFitCourse(
				course({ points: course().points.map(({ lat, lng }) => ({ lat, lng })), cuePoints: [] }),
			),
		);
		expect(back.points.every((p) => p.elevation === undefined)).toBe(true);
		expect(back.waypoints).toEqual([]);
		expect(() => writeFitCourse(course({ points: [{ lat: 1, lng: 1 }] }))).toThrow(WorkoutFileError);
		expect(() => writeFitCourse(course({ startTime: Date.UTC(1980, 0, 1) }))).toThrow(WorkoutFileError);
	});
});

describe('coursePointType', () => {
	it.each([
		['Turn left onto Market St', 6],
		['Turn right onto 2nd St', 7],
		['Sharp left', 20],
		['Bear right at the fork', 21],
		['Make a U-turn', 23],
		['Continue onto Front St', 8],
		['Water fountain', 0],
		['Leftover pizza stand', 0],
	])('%s → %i', (text, type) => {
		expect(coursePointType(text)).toBe(type);
	});
});

function flipByte(bytes: Uint8Array, at: number): Uint8Array {
	const copy = bytes.slice();
	copy[at] ^= 0x5a;
	return copy;
}
