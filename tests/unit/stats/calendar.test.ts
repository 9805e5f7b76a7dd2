import { describe, expect, test } from 'vitest';
import {
	isoWeekNumber,
	localDateOf,
	monthOf,
	rollingWeekOf,
	startOfLocalDay,
	weekOf,
	yearOf,
} from '../../../src/lib/stats/calendar';

const iso = (date: Date) => date.toISOString();

describe('local days', () => {
	test('a day starts at local midnight, in UTC terms', () => {
		expect(iso(startOfLocalDay({ year: 2026, month: 1, day: 5 }, 'Europe/Ljubljana'))).toBe(
			'2026-01-04T23:00:00.000Z',
		);
		expect(iso(startOfLocalDay({ year: 2026, month: 7, day: 5 }, 'Europe/Ljubljana'))).toBe(
			'2026-07-04T22:00:00.000Z',
		);
		expect(iso(startOfLocalDay({ year: 2026, month: 7, day: 5 }, 'America/Los_Angeles'))).toBe(
			'2026-07-05T07:00:00.000Z',
		);
		expect(iso(startOfLocalDay({ year: 2026, month: 7, day: 5 }, 'Asia/Kathmandu'))).toBe(
			'2026-07-04T18:15:00.000Z',
		);
	});

	test('days either side of a daylight-saving change are 23 and 25 hours long', () => {
		// Europe moves its clocks on 29 March and 25 October 2026, at 01:00 UTC.
		const march29 = startOfLocalDay({ year: 2026, month: 3, day: 29 }, 'Europe/London');
		const march30 = startOfLocalDay({ year: 2026, month: 3, day: 30 }, 'Europe/London');
		expect(iso(march29)).toBe('2026-03-29T00:00:00.000Z');
		expect(iso(march30)).toBe('2026-03-29T23:00:00.000Z');
		expect((march30.getTime() - march29.getTime()) / 3_600_000).toBe(23);
		const october25 = startOfLocalDay({ year: 2026, month: 10, day: 25 }, 'Europe/London');
		const october26 = startOfLocalDay({ year: 2026, month: 10, day: 26 }, 'Europe/London');
		expect(iso(october25)).toBe('2026-10-24T23:00:00.000Z');
		expect((october26.getTime() - october25.getTime()) / 3_600_000).toBe(25);
	});

	test('where midnight does not exist, the day starts when the clocks jump', () => {
		// Chile springs forward at 24:00 on the first Saturday of September: 6 September 2025.
		expect(iso(startOfLocalDay({ year: 2025, month: 9, day: 7 }, 'America/Santiago'))).toBe(
			'2025-09-07T04:00:00.000Z',
		);
		// And falls back at 24:00 on the first Saturday of April: midnight happens once, an hour later.
		expect(iso(startOfLocalDay({ year: 2026, month: 4, day: 5 }, 'America/Santiago'))).toBe(
			'2026-04-05T04:00:00.000Z',
		);
	});

	test('an instant belongs to its local day, not its UTC one', () => {
		expect(localDateOf(new Date('2026-11-22T23:30:00Z'), 'Europe/Ljubljana')).toEqual({
			year: 2026,
			month: 11,
			day: 23,
		});
		expect(localDateOf(new Date('2026-11-23T05:30:00Z'), 'America/New_York')).toEqual({
			year: 2026,
			month: 11,
			day: 23,
		});
	});
});

describe('weeks', () => {
	test('a Sunday-evening run belongs to the week that started the Monday before', () => {
		// 23:30 on Sunday 22 November in Los Angeles is Monday 07:30 UTC.
		const run = new Date('2026-11-23T07:30:00Z');
		const week = weekOf(run, 'America/Los_Angeles');
		expect(week.key).toBe('2026-11-16');
		expect(iso(week.start)).toBe('2026-11-16T08:00:00.000Z');
		expect(iso(week.end)).toBe('2026-11-23T08:00:00.000Z');
		expect(weekOf(run, 'UTC').key).toBe('2026-11-23');
	});

	test('a week over a daylight-saving change is an hour short, and the next one starts at midnight', () => {
		const week = weekOf(new Date('2026-03-25T12:00:00Z'), 'Europe/Berlin');
		expect(week.key).toBe('2026-03-23');
		expect(iso(week.start)).toBe('2026-03-22T23:00:00.000Z');
		expect(iso(week.end)).toBe('2026-03-29T22:00:00.000Z');
		expect((week.end.getTime() - week.start.getTime()) / 3_600_000).toBe(7 * 24 - 1);
	});

	test('weeks may start on Sunday', () => {
		const week = weekOf(new Date('2026-11-25T12:00:00Z'), 'UTC', 0);
		expect(week.key).toBe('2026-11-22');
	});

	test('a rolling week is the seven days ending today', () => {
		const week = rollingWeekOf(new Date('2026-11-25T12:00:00Z'), 'UTC');
		expect(week.key).toBe('2026-11-19');
		expect(iso(week.end)).toBe('2026-11-26T00:00:00.000Z');
	});

	test('ISO week numbers roll over at the year end', () => {
		expect(isoWeekNumber({ year: 2026, month: 1, day: 1 })).toEqual({ year: 2026, week: 1 });
		expect(isoWeekNumber({ year: 2027, month: 1, day: 1 })).toEqual({ year: 2026, week: 53 });
		expect(isoWeekNumber({ year: 2024, month: 12, day: 30 })).toEqual({ year: 2025, week: 1 });
	});
});

describe('months and years', () => {
	test('have their real lengths', () => {
		expect(monthOf(2028, 2, 'UTC').days).toBe(29);
		expect(monthOf(2026, 12, 'UTC').days).toBe(31);
		expect(yearOf(2028, 'UTC').days).toBe(366);
		expect(iso(monthOf(2026, 11, 'Asia/Tokyo').start)).toBe('2026-10-31T15:00:00.000Z');
	});
});
