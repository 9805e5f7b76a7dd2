/**
 * The MapMyFitness v7.1 API writes datetimes as ISO 8601 with an explicit `+00:00` offset,
 * never `Z`; clients parse them that way.
 */
export function formatApiDateTime(date: Date): string {
	return date.toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/** What a clock on the wall shows: a calendar day and a time of day, with no zone attached. */
export type WallClock = {
	year: number;
	month: number;
	day: number;
	hour: number;
	minute: number;
	second: number;
};

const partFormatters = new Map<string, Intl.DateTimeFormat>();

function partFormatter(timeZone: string): Intl.DateTimeFormat {
	let formatter = partFormatters.get(timeZone);
	if (!formatter) {
		formatter = new Intl.DateTimeFormat('en-US', {
			timeZone,
			hourCycle: 'h23',
			era: 'short',
			year: 'numeric',
			month: 'numeric',
			day: 'numeric',
			hour: 'numeric',
			minute: 'numeric',
			second: 'numeric',
		});
		partFormatters.set(timeZone, formatter);
	}
	return formatter;
}

/** Milliseconds of the UTC instant whose UTC fields equal the wall clock's (years below 100 kept). */
function wallClockMs(wall: WallClock): number {
	const date = new Date(0);
	date.setUTCFullYear(wall.year, wall.month - 1, wall.day);
	date.setUTCHours(wall.hour, wall.minute, wall.second, 0);
	return date.getTime();
}

/**
 * The wall clock in a zone at an instant, to the second. Throws a RangeError for a zone the
 * runtime does not know, so a mistyped zone is never read silently as UTC.
 */
export function wallClockAt(instant: Date | number, timeZone: string): WallClock {
	const wall: WallClock = { year: 0, month: 1, day: 1, hour: 0, minute: 0, second: 0 };
	let beforeCommonEra = false;
	for (const part of partFormatter(timeZone).formatToParts(instant)) {
		if (part.type === 'era') beforeCommonEra = part.value === 'BC';
		else if (part.type in wall) wall[part.type as keyof WallClock] = Number(part.value);
	}
	if (beforeCommonEra) wall.year = 1 - wall.year;
	return wall;
}

/** Milliseconds the zone's clocks are ahead of UTC at an instant (negative west of Greenwich). */
export function zoneOffsetMs(instant: Date | number, timeZone: string): number {
	const whole = Math.floor(new Date(instant).getTime() / 1000) * 1000;
	return wallClockMs(wallClockAt(whole, timeZone)) - whole;
}

const DAY_MS = 86_400_000;

/**
 * The instant a wall-clock time names in a zone. A time the clocks skip (02:30 on a night they
 * jump from 02:00 to 03:00) moves forward by the length of the jump, as a wall clock left running
 * would show; a time that happens twice (when clocks go back) is its first occurrence.
 */
export function instantOf(
	wall: Pick<WallClock, 'year' | 'month' | 'day'> & Partial<WallClock>,
	timeZone: string,
): Date {
	const full: WallClock = { hour: 0, minute: 0, second: 0, ...wall };
	const target = wallClockMs(full);
	// Clocks change at most once within a day either side of any time, so the offsets a day
	// before and a day after are the only ones the wall clock can be read with.
	const before = zoneOffsetMs(target - DAY_MS, timeZone);
	const after = zoneOffsetMs(target + DAY_MS, timeZone);
	const readings = [target - before, target - after]
		.filter((instant) => wallClockMs(wallClockAt(instant, timeZone)) === target)
		.sort((a, b) => a - b);
	return new Date(readings[0] ?? target - before);
}

const two = (n: number) => String(n).padStart(2, '0');

/** A wall clock's day as `YYYY-MM-DD`. */
export function wallClockDate(wall: Pick<WallClock, 'year' | 'month' | 'day'>): string {
	return `${String(wall.year).padStart(4, '0')}-${two(wall.month)}-${two(wall.day)}`;
}

/** A wall clock's time of day as `HH:MM`, 24-hour. */
export function wallClockTime(wall: Pick<WallClock, 'hour' | 'minute'>): string {
	return `${two(wall.hour)}:${two(wall.minute)}`;
}

/** English month abbreviations, January first, as `en-US` writes them ("Sep", not "Sept"). */
export const MONTH_ABBREVIATIONS = [
	'Jan',
	'Feb',
	'Mar',
	'Apr',
	'May',
	'Jun',
	'Jul',
	'Aug',
	'Sep',
	'Oct',
	'Nov',
	'Dec',
] as const;

/** "May 2026" for a calendar month (month 1–12). */
export function formatCalendarMonth(year: number, month: number): string {
	return `${MONTH_ABBREVIATIONS[month - 1]} ${year}`;
}

/** "May 1, 2026" for a calendar day, with no zone to read it in: the same words `formatDay` uses. */
export function formatCalendarDay(day: Pick<WallClock, 'year' | 'month' | 'day'>): string {
	return `${MONTH_ABBREVIATIONS[day.month - 1]} ${day.day}, ${day.year}`;
}

const displayFormatters = new Map<string, Intl.DateTimeFormat>();

function displayFormatter(timeZone: string, style: 'time' | 'day' | 'moment'): Intl.DateTimeFormat {
	const key = `${style}|${timeZone}`;
	let formatter = displayFormatters.get(key);
	if (!formatter) {
		const time = { hour: 'numeric', minute: '2-digit' } as const;
		const day = { month: 'short', day: 'numeric', year: 'numeric' } as const;
		formatter = new Intl.DateTimeFormat('en-US', {
			timeZone,
			...(style === 'time'
				? time
				: style === 'day'
					? day
					: { weekday: 'short', ...day, ...time, timeZoneName: 'short' }),
		});
		displayFormatters.set(key, formatter);
	}
	return formatter;
}

/*
 * How every page writes an instant for a member to read: on the clock of one zone (the reader's,
 * or where a workout was recorded when that is what the words say), in one style, so the same
 * workout reads the same on the dashboard, its own page and anywhere else.
 */

/** "2:46 PM" on the clock of a zone. */
export function formatTimeOfDay(instant: Date, timeZone: string): string {
	return displayFormatter(timeZone, 'time').format(instant);
}

/** "May 1, 2026": the day an instant falls on in a zone. */
export function formatDay(instant: Date, timeZone: string): string {
	return displayFormatter(timeZone, 'day').format(instant);
}

/** "Fri, May 1, 2026, 2:46 PM CEST": the day and time in a zone, named so it cannot be misread. */
export function formatMoment(instant: Date, timeZone: string): string {
	return displayFormatter(timeZone, 'moment').format(instant);
}

/** "UTC", "UTC−5", "UTC+5:45": a zone's offset at an instant, as a label no abbreviation can blur. */
export function formatUtcOffset(instant: Date, timeZone: string): string {
	const minutes = Math.round(zoneOffsetMs(instant, timeZone) / 60_000);
	if (minutes === 0) return 'UTC';
	const abs = Math.abs(minutes);
	const rest = abs % 60;
	return `UTC${minutes < 0 ? '\u2212' : '+'}${Math.floor(abs / 60)}${rest ? `:${String(rest).padStart(2, '0')}` : ''}`;
}
