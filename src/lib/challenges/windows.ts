import { instantOf, wallClockAt, wallClockDate } from '../core/dates';

/**
 * Challenge windows and the impossible-pace rule. A challenge runs from the start of its first day
 * to the end of its last day on each participant's own clock, so a member in Tokyo and one in
 * Honolulu both get whole local days.
 */

/** The instant a local day (YYYY-MM-DD) begins in a zone. */
export function startOfLocalDay(day: string, timeZone: string): Date {
	const [year, month, date] = day.split('-').map(Number);
	return instantOf({ year, month, day: date }, timeZone);
}

/** The day after a YYYY-MM-DD day. */
export function nextDay(day: string): string {
	const [year, month, date] = day.split('-').map(Number);
	return new Date(Date.UTC(year, month - 1, date + 1)).toISOString().slice(0, 10);
}

/** The window [from, to) a challenge covers for a participant in a zone. */
export function challengeWindow(
	startsOn: string,
	endsOn: string,
	timeZone: string,
): { from: Date; to: Date } {
	return { from: startOfLocalDay(startsOn, timeZone), to: startOfLocalDay(nextDay(endsOn), timeZone) };
}

/** Today's date (YYYY-MM-DD) in a zone. */
export function localDay(at: Date, timeZone: string): string {
	return wallClockDate(wallClockAt(at, timeZone));
}

/**
 * World-record speeds (m/s) by distance, slowest last: a workout faster than the record for its
 * distance is not believed until its owner confirms it. Running: World Athletics records (100 m
 * 9.58 s, 400 m 43.03 s, 1500 m 3:26.00, 5000 m 12:35.36, 10,000 m 26:11.00, half marathon
 * 57:30, marathon 2:00:35); walking: 20 km 1:16:36 and 50 km 3:32:33; cycling: the UCI hour
 * record (56.792 km) and, for short efforts, the flying 200 m (9.1 s); swimming: 50 m freestyle
 * 20.91 s and 1500 m 14:30.67.
 */
const RECORDS: Record<string, Array<[metres: number, seconds: number]>> = {
	run: [
		[100, 9.58],
		[400, 43.03],
		[1500, 206],
		[5000, 755.36],
		[10000, 1571],
		[21097.5, 3450],
		[42195, 7235],
	],
	walk: [
		[20000, 4596],
		[50000, 12753],
	],
	hike: [
		[20000, 4596],
		[50000, 12753],
	],
	ride: [
		[200, 9.1],
		[56792, 3600],
	],
	swim: [
		[50, 20.91],
		[1500, 870.67],
	],
};

/** The fastest believable average speed (m/s) for a distance in an activity group, or null when unbounded. */
export function recordSpeed(group: string, metres: number): number | null {
	const records = RECORDS[group];
	if (!records) return null;
	// The record at the shortest listed distance at or below this one bounds it: running farther is slower.
	let speed = records[0][0] / records[0][1];
	for (const [distance, seconds] of records) if (metres >= distance) speed = distance / seconds;
	return speed;
}

/** True when a workout's average speed beats the world record for its distance. */
export function isImpossiblePace(group: string, metres: number | null, seconds: number | null): boolean {
	if (!metres || !seconds || metres <= 0 || seconds <= 0) return false;
	const limit = recordSpeed(group, metres);
	return limit !== null && metres / seconds > limit * 1.0001;
}
