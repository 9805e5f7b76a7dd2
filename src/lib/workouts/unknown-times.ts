/**
 * A file workout whose device gave no real times (a clock never set writes 13 Dec 1901 on every point, and
 * the readers leave such times out; see `forgetUnsetClock` in workout-files/builder.ts): its track and
 * distance are kept, its duration is none. The import result and the workout page say so, in these words.
 */
export const UNKNOWN_TIMES_NOTICE =
	'This file gave no real times (the device’s clock was not set), so its duration, pace and splits are unknown; its track and distance are kept. Its date is the one the file was written on: change it if it is wrong.';

export function hasUnknownTimes(workout: {
	origin: string;
	sampleCount: number;
	distanceTotal: number | null;
	elapsedTimeTotal: number | null;
}): boolean {
	return (
		workout.origin === 'file' &&
		workout.sampleCount > 1 &&
		(workout.distanceTotal ?? 0) > 0 &&
		!workout.elapsedTimeTotal
	);
}
