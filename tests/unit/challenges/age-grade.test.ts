import { describe, expect, test } from 'vitest';
import { ageFactor, ageGrade, formatGrade, openStandard } from '../../../src/lib/challenges/age-grade';

/**
 * Known values from Alan Jones' 2020 road tables (MaleRoadStd2020.csv / FemaleRoadStd2020.csv):
 * M60 5 km 0.8096, M54 10 km 0.8586, F60 5 km 0.7966, F45 marathon 0.9395; open standards 5 km
 * 12:51 (men) and 14:44 (women), 10 km 26:24 (men).
 */
describe('age factors and open standards', () => {
	test('read the published factors at listed distances', () => {
		expect(ageFactor('M', 60, 5000)).toBe(0.8096);
		expect(ageFactor('M', 54, 10_000)).toBe(0.8586);
		expect(ageFactor('M', 25, 42_195)).toBe(1);
		expect(ageFactor('F', 60, 5000)).toBe(0.7966);
		expect(ageFactor('F', 45, 42_195)).toBe(0.9395);
		expect(openStandard('M', 5000)).toBe(771);
		expect(openStandard('F', 5000)).toBe(884);
		expect(openStandard('M', 10_000)).toBe(1584);
	});

	test('interpolate linearly between listed distances', () => {
		// 7.5 km lies three quarters of the way from 6.437376 km to 8 km.
		const share = (7.5 - 6.437376) / (8 - 6.437376);
		expect(ageFactor('M', 60, 7500)).toBeCloseTo(0.8108 * (1 - share) + 0.8121 * share, 10);
		expect(openStandard('M', 7500)).toBeCloseTo(1003 * (1 - share) + 1257 * share, 10);
	});

	test('clamp ages to 5–100 and distances to the tables’ ends', () => {
		expect(ageFactor('M', 104, 5000)).toBe(ageFactor('M', 100, 5000));
		expect(ageFactor('F', 3, 5000)).toBe(ageFactor('F', 5, 5000));
		expect(ageFactor('M', 60, 300_000)).toBe(ageFactor('M', 60, 200_000));
		expect(openStandard('M', 300_000)).toBe(52_800);
	});
});

describe('age grades', () => {
	test('a 60-year-old man’s 20:00 5 km: 79.4 %, age-graded to 16:11', () => {
		const graded = ageGrade('M', 60, 5000, 1200);
		expect(graded.factor).toBe(0.8096);
		expect(graded.gradedSeconds).toBeCloseTo(1200 * 0.8096, 6);
		expect(graded.grade).toBeCloseTo(771 / (1200 * 0.8096), 10);
		expect(formatGrade(graded.grade)).toBe('79.4 %');
	});

	test('the published example of a 54-year-old man’s 42:25 10 km grades 72.49 % on the 2020 tables', () => {
		expect(ageGrade('M', 54, 10_000, 42 * 60 + 25).grade).toBeCloseTo(0.7249, 4);
	});

	test('equal grades put a 60-year-old and a 25-year-old on equal terms', () => {
		const young = ageGrade('M', 25, 5000, 1200);
		const older = ageGrade('M', 60, 5000, 1200 / 0.8096);
		expect(older.grade).toBeCloseTo(young.grade, 10);
		expect(young.grade).toBeCloseTo(771 / 1200, 10);
	});

	test('women are graded on their own standards', () => {
		expect(ageGrade('F', 60, 5000, 1500).grade).toBeCloseTo(884 / (1500 * 0.7966), 10);
	});
});
