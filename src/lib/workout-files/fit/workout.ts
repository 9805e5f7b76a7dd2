import type { WorkoutBuilder } from '../builder';
import type { Lap, TrackPoint } from '../contract';
import { mapFitSport, nameFitSport } from '../sport';

export interface SessionTotals {
	sport?: number;
	timer?: number;
	elapsed?: number;
	start?: number;
}

/**
 * The device clock's offset from UTC, from an activity's timestamp and local_timestamp (both FIT
 * seconds): only whole quarter hours within ±14 h count, so an unset clock (decades off) or a 0 placeholder
 * says nothing.
 */
export function clockOffsetS(utc: number, local: number): number | undefined {
	if (Number.isNaN(utc) || Number.isNaN(local) || local === 0) return undefined;
	const offset = local - utc;
	return Math.abs(offset) <= 14 * 3600 && offset % 900 === 0 ? offset : undefined;
}

export function setScaled(
	target: Lap,
	key: 'elapsedS' | 'timerS' | 'distanceM' | 'calories' | 'avgHeartRate' | 'maxHeartRate',
	raw: number,
	scale: number,
): void {
	if (!Number.isNaN(raw)) target[key] = raw / scale;
}

/** Shared by both FIT paths: sport from the longest session, laps tied to points by time. */
export function finishFit(
	b: WorkoutBuilder,
	info: { sessions: SessionTotals[]; sportFromSportMesg: number | undefined; lapEnds: number[] },
): void {
	let main: SessionTotals | undefined;
	for (const s of info.sessions) if (main === undefined || (s.timer ?? 0) > (main.timer ?? 0)) main = s;
	const sport = main?.sport ?? info.sportFromSportMesg;
	if (sport !== undefined) {
		b.sport = nameFitSport(sport);
		b.activityType = mapFitSport(sport);
	}
	if (info.sessions.length > 1) {
		const names = [
			...new Set(info.sessions.map((s) => (s.sport === undefined ? 'unknown' : nameFitSport(s.sport)))),
		];
		b.warnOnce(
			`This file holds ${info.sessions.length} sessions (${names.join(', ')}); they were read as one workout.`,
		);
	}
	const firstStart = info.sessions.find((s) => s.start !== undefined)?.start;
	if (firstStart !== undefined) b.startTime = firstStart;
	assignLapPoints(b.points, b.laps, info.lapEnds);
}

/** Ties each lap to the points recorded between its start time and its end time. */
function assignLapPoints(points: TrackPoint[], laps: Lap[], lapEnds: number[]): void {
	const firstIndexAtOrAfter = (t: number, strict: boolean): number => {
		let lo = 0;
		let hi = points.length;
		while (lo < hi) {
			const mid = (lo + hi) >>> 1;
			const pt = points[mid].time ?? Number.NEGATIVE_INFINITY;
			if (strict ? pt <= t : pt < t) lo = mid + 1;
			else hi = mid;
		}
		return lo;
	};
	let previousEnd = 0;
	for (let i = 0; i < laps.length; i++) {
		const lap = laps[i];
		const first = lap.startTime === undefined ? previousEnd : firstIndexAtOrAfter(lap.startTime, false);
		const endTime = lapEnds[i];
		const end = Number.isNaN(endTime) ? points.length : firstIndexAtOrAfter(endTime, true);
		lap.firstPoint = Math.min(first, points.length);
		lap.endPoint = Math.max(lap.firstPoint, Math.min(end, points.length));
		previousEnd = lap.endPoint;
	}
}
