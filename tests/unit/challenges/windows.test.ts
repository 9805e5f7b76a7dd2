import { describe, expect, test } from 'vitest';
import {
	challengeWindow,
	isImpossiblePace,
	localDay,
	recordSpeed,
	startOfLocalDay,
} from '../../../src/lib/challenges/windows';

describe('challenge windows', () => {
	test('local midnight in zones east and west of UTC, and on a clock-change day', () => {
		expect(startOfLocalDay('2026-06-01', 'Pacific/Auckland').toISOString()).toBe('2026-05-31T12:00:00.000Z');
		expect(startOfLocalDay('2026-06-01', 'America/Los_Angeles').toISOString()).toBe(
			'2026-06-01T07:00:00.000Z',
		);
		expect(startOfLocalDay('2026-03-29', 'Europe/Paris').toISOString()).toBe('2026-03-28T23:00:00.000Z');
		expect(startOfLocalDay('2026-03-30', 'Europe/Paris').toISOString()).toBe('2026-03-29T22:00:00.000Z');
		expect(startOfLocalDay('2026-01-01', 'Asia/Kolkata').toISOString()).toBe('2025-12-31T18:30:00.000Z');
	});

	test('a window covers whole local days, the last one included', () => {
		const window = challengeWindow('2025-01-01', '2025-12-31', 'UTC');
		expect(window.from.toISOString()).toBe('2025-01-01T00:00:00.000Z');
		expect(window.to.toISOString()).toBe('2026-01-01T00:00:00.000Z');
		expect(localDay(new Date('2026-06-30T12:30:00Z'), 'Pacific/Auckland')).toBe('2026-07-01');
	});
});

describe('impossible pace', () => {
	test('world-record speeds bound each sport by distance', () => {
		expect(recordSpeed('run', 42195)).toBeCloseTo(5.83, 2);
		expect(recordSpeed('run', 50)).toBeCloseTo(10.44, 2);
		expect(recordSpeed('yoga', 1000)).toBeNull();
		// A 2:01 marathon is possible; a 1:55 one is not.
		expect(isImpossiblePace('run', 42195, 7260)).toBe(false);
		expect(isImpossiblePace('run', 42195, 6900)).toBe(true);
		// 60 km in an hour on a bike beats the hour record.
		expect(isImpossiblePace('ride', 60000, 3600)).toBe(true);
		expect(isImpossiblePace('ride', 40000, 3600)).toBe(false);
		expect(isImpossiblePace('run', null, 100)).toBe(false);
	});
});
