import { instantOf, wallClockAt, wallClockDate, wallClockTime, zoneOffsetMs } from '../core/dates';
import { METRES_PER_KM, METRES_PER_MILE } from '../core/units';

/**
 * The checks and conversions of the "Log Manually" form, shared by the island and its tests. Pure:
 * no valibot (the server validates the saved workout again with the contract's schemas).
 */

export type DurationFields = { hours: string; minutes: string; seconds: string };
export type FieldErrors<K extends string> = Partial<Record<K, string>>;

export const MAX_DURATION_HOURS_DIGITS = 3;
/** A distance typed in miles or kilometres: more than any workout covers, less than the API refuses. */
export const MAX_LOGGED_DISTANCE = 10_000;
export const MAX_LOGGED_CALORIES = 100_000;
export const JOULES_PER_KCAL = 4184;

const WHOLE = /^\d+$/;

/** A blank part of the duration counts as 0, so "45 minutes" needs only the minutes. */
function part(text: string): number | null {
	const trimmed = text.trim();
	if (trimmed === '') return 0;
	return WHOLE.test(trimmed) ? Number(trimmed) : null;
}

/**
 * Hours whole from 0 with at most 3 digits, minutes and seconds 0–59; the total in seconds when
 * all three are right and the workout lasted at least a second.
 */
export function checkDuration(fields: DurationFields): {
	seconds: number | null;
	errors: FieldErrors<'hours' | 'minutes' | 'seconds' | 'duration'>;
} {
	const errors: FieldErrors<'hours' | 'minutes' | 'seconds' | 'duration'> = {};
	const hours = part(fields.hours);
	const minutes = part(fields.minutes);
	const seconds = part(fields.seconds);
	if (hours === null || fields.hours.trim().length > MAX_DURATION_HOURS_DIGITS)
		errors.hours = 'Hours must be a whole number from 0 to 999.';
	if (minutes === null || minutes > 59) errors.minutes = 'Minutes must be a whole number from 0 to 59.';
	if (seconds === null || seconds > 59) errors.seconds = 'Seconds must be a whole number from 0 to 59.';
	if (hours === null || minutes === null || seconds === null || Object.keys(errors).length > 0)
		return { seconds: null, errors };
	const total = hours * 3600 + minutes * 60 + seconds;
	if (total === 0) return { seconds: null, errors: { duration: 'Enter how long the workout lasted.' } };
	return { seconds: total, errors };
}

/** Splits seconds into the three duration fields, as a blank form or an estimate shows them. */
export function durationFields(totalSeconds: number): DurationFields {
	const whole = Math.max(0, Math.round(totalSeconds));
	return {
		hours: String(Math.floor(whole / 3600)),
		minutes: String(Math.floor((whole % 3600) / 60)),
		seconds: String(whole % 60),
	};
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The calendar day (`YYYY-MM-DD`) it is in the member's time zone at `now`. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
	return wallClockDate(wallClockAt(now, timeZone));
}

/** The wall-clock time (`HH:MM`) in the member's time zone at `now`. */
export function clockIn(timeZone: string, now: Date = new Date()): string {
	return wallClockTime(wallClockAt(now, timeZone));
}

/** A real calendar day on or before today (both `YYYY-MM-DD`); the date picker offers no later one. */
export function checkWorkoutDate(date: string, today: string): string | null {
	if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return 'Enter the date of the workout.';
	const parsed = new Date(`${date}T00:00:00Z`);
	if (Number.isNaN(parsed.getTime()) || !parsed.toISOString().startsWith(date) || date < '1900-01-01')
		return 'Enter a real date, such as 2026-05-01.';
	if (date > today) return 'The date cannot be after today.';
	return null;
}

/**
 * The instant a wall-clock date and time in a zone stand for, written as the API reads it (with
 * the zone's offset then). A time skipped by a clock change moves forward by the change; a time
 * that happens twice is the first.
 */
export function zonedDateTime(
	date: string,
	time: string,
	timeZone: string,
): { iso: string; instant: Date } | null {
	const dateMatch = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
	const timeMatch = /^(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(time);
	if (!dateMatch || !timeMatch) return null;
	const [hour, minute, second] = [Number(timeMatch[1]), Number(timeMatch[2]), Number(timeMatch[3] ?? 0)];
	if (hour > 23 || minute > 59 || second > 59) return null;
	const instant = instantOf(
		{
			year: Number(dateMatch[1]),
			month: Number(dateMatch[2]),
			day: Number(dateMatch[3]),
			hour,
			minute,
			second,
		},
		timeZone,
	);
	// Written with the clock as it then read, so a skipped time shows the hour it moved to.
	const wall = wallClockAt(instant, timeZone);
	const offset = Math.round(zoneOffsetMs(instant, timeZone) / 60_000);
	const sign = offset < 0 ? '-' : '+';
	const abs = Math.abs(offset);
	const iso = `${wallClockDate(wall)}T${wallClockTime(wall)}:${pad(wall.second)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
	return { iso, instant };
}

/** The start: a real date and time, not later than now. */
export function checkStartTime(
	date: string,
	time: string,
	timeZone: string,
	now: Date = new Date(),
): { iso: string | null; error: string | null } {
	const start = zonedDateTime(date, time, timeZone);
	if (!start) return { iso: null, error: 'Enter the start time, such as 07:30.' };
	if (start.instant.getTime() > now.getTime() + 60_000)
		return { iso: null, error: 'The start time cannot be later than now.' };
	return { iso: start.iso, error: null };
}

/** A non-negative number with at most 3 decimals; blank is "not given". */
function amount(text: string, max: number): number | null | 'invalid' {
	const trimmed = text.trim().replace(',', '.');
	if (trimmed === '') return null;
	if (!/^\d{1,6}(\.\d{1,3})?$/.test(trimmed)) return 'invalid';
	const value = Number(trimmed);
	return value > max ? 'invalid' : value;
}

/** The distance typed in the member's unit, in metres; null when left blank. */
export function checkDistance(
	text: string,
	unit: 'mi' | 'km',
): { metres: number | null; error: string | null } {
	const value = amount(text, MAX_LOGGED_DISTANCE);
	if (value === 'invalid')
		return {
			metres: null,
			error: `Distance must be a number of ${unit === 'mi' ? 'miles' : 'kilometres'} from 0 to ${MAX_LOGGED_DISTANCE}.`,
		};
	if (value === null) return { metres: null, error: null };
	return { metres: value * (unit === 'mi' ? METRES_PER_MILE : METRES_PER_KM), error: null };
}

/** Calories (kcal) typed or estimated, in joules as the API stores them; null when blank. */
export function checkCalories(text: string): { joules: number | null; error: string | null } {
	const value = amount(text, MAX_LOGGED_CALORIES);
	if (value === 'invalid')
		return { joules: null, error: `Calories must be a number from 0 to ${MAX_LOGGED_CALORIES}.` };
	return { joules: value === null ? null : Math.round(value * JOULES_PER_KCAL), error: null };
}
