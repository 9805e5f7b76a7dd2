import { describe, expect, test } from 'vitest';
import {
	formatCalendarDay,
	formatCalendarMonth,
	formatDay,
	formatUtcOffset,
	instantOf,
	wallClockAt,
	wallClockDate,
	wallClockTime,
	zoneOffsetMs,
} from '../../../src/lib/core/dates';
import { formatOneDecimal, formatWholeNumber } from '../../../src/lib/core/numbers';
import { formatRecordedStart, fromLocalInput } from '../../../src/lib/workouts/detail-format';
import { checkStartTime, zonedDateTime } from '../../../src/lib/workouts/log-form';
import { zonedInstant } from '../../../src/lib/workouts/server/demo';

const at = (wall: string, zone: string) => {
	const [date, time] = wall.split('T');
	const [year, month, day] = date.split('-').map(Number);
	const [hour, minute] = time.split(':').map(Number);
	return instantOf({ year, month, day, hour, minute }, zone).toISOString();
};
const clock = (iso: string, zone: string) => {
	const wall = wallClockAt(new Date(iso), zone);
	return `${wallClockDate(wall)}T${wallClockTime(wall)}`;
};

describe('wall clock in a zone', () => {
	test('reads the local day and time of an instant, east and west of UTC and on half-hour zones', () => {
		expect(clock('2026-05-01T13:46:00Z', 'America/New_York')).toBe('2026-05-01T09:46');
		expect(clock('2026-01-15T13:46:00Z', 'America/New_York')).toBe('2026-01-15T08:46');
		expect(clock('2026-06-30T12:30:00Z', 'Pacific/Auckland')).toBe('2026-07-01T00:30');
		expect(clock('2026-01-15T12:00:00Z', 'Asia/Kathmandu')).toBe('2026-01-15T17:45');
		expect(wallClockAt(new Date('1901-12-13T20:45:52Z'), 'UTC')).toEqual({
			year: 1901,
			month: 12,
			day: 13,
			hour: 20,
			minute: 45,
			second: 52,
		});
	});

	test('offsets follow the clock changes, including Lord Howe Island’s half hour', () => {
		const minutes = (iso: string, zone: string) => zoneOffsetMs(new Date(iso), zone) / 60_000;
		expect(minutes('2026-01-15T12:00:00Z', 'America/New_York')).toBe(-300);
		expect(minutes('2026-07-15T12:00:00Z', 'America/New_York')).toBe(-240);
		expect(minutes('2026-07-15T12:00:00Z', 'Europe/London')).toBe(60);
		expect(minutes('2026-07-15T12:00:00Z', 'Australia/Lord_Howe')).toBe(630);
		expect(minutes('2026-01-15T12:00:00Z', 'Australia/Lord_Howe')).toBe(660);
	});

	test('an unknown zone is an error, never silently UTC', () => {
		expect(() => wallClockAt(new Date(), 'Not/AZone')).toThrow(RangeError);
	});
});

describe('the instant of a wall-clock time', () => {
	test('ordinary times round-trip', () => {
		expect(at('2026-01-15T08:46', 'America/New_York')).toBe('2026-01-15T13:46:00.000Z');
		expect(at('2026-07-15T08:46', 'America/New_York')).toBe('2026-07-15T12:46:00.000Z');
		expect(at('2026-07-01T00:00', 'Pacific/Auckland')).toBe('2026-06-30T12:00:00.000Z');
	});

	test('New York: a time skipped in spring moves forward an hour; a repeated autumn time is the first', () => {
		// 8 March 2026: 02:00 EST becomes 03:00 EDT, so 02:30 reads as 03:30 EDT.
		expect(at('2026-03-08T02:30', 'America/New_York')).toBe('2026-03-08T07:30:00.000Z');
		expect(at('2026-03-08T01:59', 'America/New_York')).toBe('2026-03-08T06:59:00.000Z');
		expect(at('2026-03-08T03:00', 'America/New_York')).toBe('2026-03-08T07:00:00.000Z');
		// 1 November 2026: 01:30 happens at EDT, then again at EST; the first is meant.
		expect(at('2026-11-01T01:30', 'America/New_York')).toBe('2026-11-01T05:30:00.000Z');
		expect(at('2026-11-01T02:00', 'America/New_York')).toBe('2026-11-01T07:00:00.000Z');
	});

	test('London: the skipped hour moves forward; the repeated hour is read as summer time', () => {
		// 29 March 2026: 01:00 GMT becomes 02:00 BST.
		expect(at('2026-03-29T01:30', 'Europe/London')).toBe('2026-03-29T01:30:00.000Z');
		expect(at('2026-03-29T00:30', 'Europe/London')).toBe('2026-03-29T00:30:00.000Z');
		// 25 October 2026: 02:00 BST becomes 01:00 GMT; 01:30 first happens at BST.
		expect(at('2026-10-25T01:30', 'Europe/London')).toBe('2026-10-25T00:30:00.000Z');
		expect(at('2026-10-25T02:30', 'Europe/London')).toBe('2026-10-25T02:30:00.000Z');
	});

	test('Lord Howe Island: the clocks move by half an hour, and so do skipped times', () => {
		// 4 October 2026: 02:00 (+10:30) becomes 02:30 (+11); 02:15 reads as 02:45.
		expect(at('2026-10-04T02:15', 'Australia/Lord_Howe')).toBe('2026-10-03T15:45:00.000Z');
		expect(clock('2026-10-03T15:45:00Z', 'Australia/Lord_Howe')).toBe('2026-10-04T02:45');
		// 5 April 2026: 02:00 (+11) becomes 01:30 (+10:30); 01:45 first happens at +11.
		expect(at('2026-04-05T01:45', 'Australia/Lord_Howe')).toBe('2026-04-04T14:45:00.000Z');
		expect(at('2026-04-05T02:00', 'Australia/Lord_Howe')).toBe('2026-04-04T15:30:00.000Z');
	});
});

describe('every form that turns a typed time into an instant agrees', () => {
	test('a workout logged at 02:30 on the spring-forward night starts at 03:30 EDT, not 01:30 EST', () => {
		expect(zonedDateTime('2026-03-08', '02:30', 'America/New_York')?.iso).toBe('2026-03-08T03:30:00-04:00');
		expect(fromLocalInput('2026-03-08T02:30', 'America/New_York')).toBe('2026-03-08T07:30:00.000Z');
		expect(zonedInstant([2026, 3, 8], 150, 'America/New_York').toISOString()).toBe(
			'2026-03-08T07:30:00.000Z',
		);
	});

	test('a workout logged at 01:30 on the night London’s clocks go back is the first 01:30', () => {
		expect(zonedDateTime('2026-10-25', '01:30', 'Europe/London')?.instant.toISOString()).toBe(
			'2026-10-25T00:30:00.000Z',
		);
		expect(fromLocalInput('2026-10-25T01:30', 'Europe/London')).toBe('2026-10-25T00:30:00.000Z');
		expect(checkStartTime('2026-10-25', '01:30', 'Europe/London', new Date('2026-10-26T00:00:00Z')).iso).toBe(
			'2026-10-25T01:30:00+01:00',
		);
	});
});

describe('a workout recorded on another clock', () => {
	const run = new Date('2026-01-15T13:46:00Z');

	test('offsets are labelled with hours and minutes, a true minus sign and no abbreviation', () => {
		expect(formatUtcOffset(run, 'America/New_York')).toBe('UTC\u22125');
		expect(formatUtcOffset(run, 'UTC')).toBe('UTC');
		expect(formatUtcOffset(run, 'Asia/Kathmandu')).toBe('UTC+5:45');
		expect(formatUtcOffset(run, 'Australia/Lord_Howe')).toBe('UTC+11');
		expect(formatUtcOffset(new Date('2026-07-15T12:00:00Z'), 'Australia/Lord_Howe')).toBe('UTC+10:30');
	});

	test('shows its start where it was recorded only when that clock differs from the reader’s', () => {
		expect(formatRecordedStart(run, 'America/New_York', 'UTC')).toBe('8:46 AM where recorded, UTC\u22125');
		expect(formatRecordedStart(run, 'America/New_York', 'America/Toronto')).toBeNull();
		expect(formatRecordedStart(run, 'Europe/London', 'UTC')).toBeNull();
		expect(formatRecordedStart(run, 'Not/AZone', 'UTC')).toBeNull();
		// A pool swim's FIT states only its clock's offset: the fixed zone reads the right way round.
		expect(formatRecordedStart(run, 'Etc/GMT+4', 'UTC')).toBe('9:46 AM where recorded, UTC\u22124');
	});
});

describe('calendar days and months written without a zone', () => {
	test('read as the zoned formatter writes them, in every month', () => {
		for (let month = 1; month <= 12; month++) {
			const noon = new Date(Date.UTC(2026, month - 1, 9, 12));
			expect(formatCalendarDay({ year: 2026, month, day: 9 })).toBe(formatDay(noon, 'UTC'));
			expect(formatCalendarMonth(2026, month)).toBe(
				noon.toLocaleDateString('en-US', { timeZone: 'UTC', month: 'short', year: 'numeric' }),
			);
		}
	});
});

describe('numbers', () => {
	test('whole numbers are rounded and grouped; one decimal at most', () => {
		expect(formatWholeNumber(1234567.6)).toBe('1,234,568');
		expect(formatWholeNumber(0)).toBe('0');
		expect(formatOneDecimal(1234.56)).toBe('1,234.6');
		expect(formatOneDecimal(3)).toBe('3');
	});
});
