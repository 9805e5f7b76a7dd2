import { describe, expect, test } from 'vitest';
import {
	checkCalories,
	checkDistance,
	checkDuration,
	checkStartTime,
	checkWorkoutDate,
	clockIn,
	durationFields,
	todayIn,
	zonedDateTime,
} from '../../../src/lib/workouts/log-form';

describe('duration', () => {
	test('hours, minutes and seconds add up; blank parts count as 0', () => {
		expect(checkDuration({ hours: '1', minutes: '05', seconds: '30' })).toEqual({
			seconds: 3930,
			errors: {},
		});
		expect(checkDuration({ hours: '', minutes: '45', seconds: '' }).seconds).toBe(2700);
		expect(checkDuration({ hours: '999', minutes: '59', seconds: '59' }).seconds).toBe(999 * 3600 + 3599);
	});

	test('minutes and seconds stay within 0–59', () => {
		const result = checkDuration({ hours: '0', minutes: '75', seconds: '60' });
		expect(result.seconds).toBeNull();
		expect(result.errors.minutes).toBe('Minutes must be a whole number from 0 to 59.');
		expect(result.errors.seconds).toBe('Seconds must be a whole number from 0 to 59.');
		expect(result.errors.hours).toBeUndefined();
	});

	test('hours are whole, not negative and at most 3 digits', () => {
		for (const hours of ['1000', '-1', '1.5', 'two']) {
			expect(checkDuration({ hours, minutes: '1', seconds: '' }).errors.hours).toBe(
				'Hours must be a whole number from 0 to 999.',
			);
		}
	});

	test('a workout of no time at all is refused', () => {
		expect(checkDuration({ hours: '', minutes: '0', seconds: '' })).toEqual({
			seconds: null,
			errors: { duration: 'Enter how long the workout lasted.' },
		});
	});

	test('seconds split back into the three fields', () => {
		expect(durationFields(3930)).toEqual({ hours: '1', minutes: '5', seconds: '30' });
	});
});

describe('date and start time in the member time zone', () => {
	// 2026-05-01 23:30 in UTC is already 2 May in Tokyo and still 1 May in Los Angeles.
	const now = new Date('2026-05-01T23:30:00Z');

	test('today is the calendar day in the zone', () => {
		expect(todayIn('Asia/Tokyo', now)).toBe('2026-05-02');
		expect(todayIn('America/Los_Angeles', now)).toBe('2026-05-01');
		expect(clockIn('Asia/Tokyo', now)).toBe('08:30');
	});

	test('only dates on or before today are accepted', () => {
		expect(checkWorkoutDate('2026-05-02', todayIn('Asia/Tokyo', now))).toBeNull();
		expect(checkWorkoutDate('2026-05-02', todayIn('America/Los_Angeles', now))).toBe(
			'The date cannot be after today.',
		);
		expect(checkWorkoutDate('2026-02-30', '2026-05-01')).toBe('Enter a real date, such as 2026-05-01.');
		expect(checkWorkoutDate('', '2026-05-01')).toBe('Enter the date of the workout.');
	});

	test('a wall-clock time becomes an instant with the zone offset of that day', () => {
		expect(zonedDateTime('2026-01-15', '07:30', 'Europe/Paris')?.iso).toBe('2026-01-15T07:30:00+01:00');
		expect(zonedDateTime('2026-07-15', '07:30', 'Europe/Paris')?.iso).toBe('2026-07-15T07:30:00+02:00');
		expect(zonedDateTime('2026-07-15', '07:30', 'America/New_York')?.instant.toISOString()).toBe(
			'2026-07-15T11:30:00.000Z',
		);
		expect(zonedDateTime('2026-07-15', '25:00', 'UTC')).toBeNull();
	});

	test('a start later than now is refused, even today', () => {
		expect(checkStartTime('2026-05-02', '08:00', 'Asia/Tokyo', now)).toEqual({
			iso: '2026-05-02T08:00:00+09:00',
			error: null,
		});
		expect(checkStartTime('2026-05-02', '09:30', 'Asia/Tokyo', now).error).toBe(
			'The start time cannot be later than now.',
		);
	});
});

describe('distance and calories', () => {
	test('distance is typed in the member unit and stored in metres', () => {
		expect(checkDistance('5', 'km')).toEqual({ metres: 5000, error: null });
		expect(checkDistance('3.1', 'mi').metres).toBeCloseTo(4988.97, 2);
		expect(checkDistance('', 'mi')).toEqual({ metres: null, error: null });
		expect(checkDistance('-2', 'km').error).toBe('Distance must be a number of kilometres from 0 to 10000.');
	});

	test('calories are kilocalories stored as joules', () => {
		expect(checkCalories('250')).toEqual({ joules: 1_046_000, error: null });
		expect(checkCalories('lots').error).toBe('Calories must be a number from 0 to 100000.');
	});
});
