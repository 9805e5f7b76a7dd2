/**
 * Calendar arithmetic in a member's time zone: local days, weeks (week, isoWeek, rolling), months
 * and years as UTC instants. Pure, for the server and islands alike.
 */

import { instantOf, wallClockAt, wallClockDate } from '../core/dates';

export type LocalDate = { year: number; month: number; day: number };

/** 0 Sunday … 6 Saturday, as Date#getUTCDay counts. */
export type WeekDay = 0 | 1 | 2 | 3 | 4 | 5 | 6;

/** The local calendar day of an instant in a zone. */
export function localDateOf(instant: Date | number, timeZone: string): LocalDate {
	const { year, month, day } = wallClockAt(instant, timeZone);
	return { year, month, day };
}

/** Day of the week of a calendar day (0 Sunday). */
export function weekDayOf(date: LocalDate): WeekDay {
	return new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay() as WeekDay;
}

/** A calendar day moved by whole days. */
export function addDays(date: LocalDate, days: number): LocalDate {
	const moved = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
	return { year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() };
}

/** Days from `a` to `b`. */
export function daysBetween(a: LocalDate, b: LocalDate): number {
	return Math.round(
		(Date.UTC(b.year, b.month - 1, b.day) - Date.UTC(a.year, a.month - 1, a.day)) / 86_400_000,
	);
}

export const dateKey: (date: LocalDate) => string = wallClockDate;

export function parseDateKey(text: string): LocalDate | null {
	const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
	if (!match) return null;
	const date = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
	return dateKey(addDays(date, 0)) === text ? date : null;
}

/**
 * The first instant of a local day. Where the day starts inside a daylight-saving gap (clocks
 * jumping from 00:00 to 01:00, as in Santiago), that is the first wall-clock time that exists.
 */
export function startOfLocalDay(date: LocalDate, timeZone: string): Date {
	return instantOf(date, timeZone);
}

export type Period = { start: Date; end: Date; first: LocalDate; days: number; key: string };

function periodOf(first: LocalDate, days: number, timeZone: string): Period {
	return {
		first,
		days,
		key: dateKey(first),
		start: startOfLocalDay(first, timeZone),
		end: startOfLocalDay(addDays(first, days), timeZone),
	};
}

/** The local week holding `instant`, starting on `weekStartDay` (1 Monday for ISO weeks). */
export function weekOf(instant: Date | number, timeZone: string, weekStartDay: WeekDay = 1): Period {
	const today = localDateOf(instant, timeZone);
	const back = (weekDayOf(today) - weekStartDay + 7) % 7;
	return periodOf(addDays(today, -back), 7, timeZone);
}

/** The week starting on a given local day. */
export function weekStarting(first: LocalDate, timeZone: string): Period {
	return periodOf(first, 7, timeZone);
}

/** The seven days ending with the local day of `instant` (a rolling week). */
export function rollingWeekOf(instant: Date | number, timeZone: string): Period {
	return periodOf(addDays(localDateOf(instant, timeZone), -6), 7, timeZone);
}

export function monthOf(year: number, month: number, timeZone: string): Period {
	const first = { year, month, day: 1 };
	const days = daysBetween(first, { year: month === 12 ? year + 1 : year, month: (month % 12) + 1, day: 1 });
	return periodOf(first, days, timeZone);
}

export function yearOf(year: number, timeZone: string): Period {
	const first = { year, month: 1, day: 1 };
	return periodOf(first, daysBetween(first, { year: year + 1, month: 1, day: 1 }), timeZone);
}

/** ISO 8601 week-numbering year and week of a calendar day. */
export function isoWeekNumber(date: LocalDate): { year: number; week: number } {
	const thursday = addDays(date, 3 - ((weekDayOf(date) + 6) % 7));
	const jan1 = { year: thursday.year, month: 1, day: 1 };
	return { year: thursday.year, week: Math.floor(daysBetween(jan1, thursday) / 7) + 1 };
}
