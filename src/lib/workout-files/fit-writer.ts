import { Encoder, type Mesg, Profile } from '@garmin/fitsdk';
import { ActivityTypeId, type NormalisedWorkout } from './contract';
import { WorkoutFileError } from './errors';
import { computeMetrics } from './metrics';
import { FIT_EPOCH_S } from './time';

const DEG_TO_SEMICIRCLE = 2 ** 31 / 180;

const fitSportByType: Record<number, string> = {
	[ActivityTypeId.run]: 'running',
	[ActivityTypeId.ride]: 'cycling',
	[ActivityTypeId.walk]: 'walking',
	[ActivityTypeId.hike]: 'hiking',
	[ActivityTypeId.swim]: 'swimming',
};

/**
 * A FIT activity file through Garmin's official encoder: file id, records, laps, one session and the
 * activity message. FIT stores fixed-point values, so a GPX or TCX workout comes back within FIT's
 * resolution (positions ~1 cm, elevation 0.2 m, speed 1 mm/s, distance 1 cm, cadence 1/128 rpm);
 * a workout read from FIT comes back identical. Every record needs a time.
 */
export function writeFit(w: NormalisedWorkout): Uint8Array {
	if (w.points.some((p) => p.time === undefined)) {
		throw new WorkoutFileError(
			'cannot_write',
			'This workout has points without times, so it cannot be saved as FIT. Try GPX.',
		);
	}
	const firstTime = w.points[0].time as number;
	if (firstTime < FIT_EPOCH_S * 1000 || (w.startTime !== undefined && w.startTime < FIT_EPOCH_S * 1000)) {
		throw new WorkoutFileError(
			'cannot_write',
			'This workout has times before 1990, which FIT cannot hold. Try GPX or TCX.',
		);
	}
	const m = computeMetrics(w);
	const n = w.points.length;
	const start = new Date(w.startTime ?? (w.points[0].time as number));
	const end = new Date(w.points[n - 1].time as number);
	const sport = fitSportByType[w.activityType] ?? 'generic';
	const encoder = new Encoder();
	// The SDK's message types are per message; our field objects are checked by the encoder itself.
	const e = { onMesg: (num: number, fields: Record<string, unknown>) => encoder.onMesg(num, fields as Mesg) };
	const M = Profile.MesgNum;
	e.onMesg(M.FILE_ID, {
		type: 'activity',
		manufacturer: 'development',
		product: 0,
		timeCreated: start,
		serialNumber: 1,
	});
	e.onMesg(M.EVENT, { timestamp: start, event: 'timer', eventType: 'start' });
	const starts = new Set(w.segmentStarts);
	for (let i = 0; i < n; i++) {
		const p = w.points[i];
		if (i > 0 && starts.has(i)) {
			// A gap between segments is a timer pause in FIT; the reader turns it back into a segment.
			e.onMesg(M.EVENT, {
				timestamp: new Date(w.points[i - 1].time as number),
				event: 'timer',
				eventType: 'stop',
			});
			e.onMesg(M.EVENT, { timestamp: new Date(p.time as number), event: 'timer', eventType: 'start' });
		}
		const r: Record<string, unknown> = { timestamp: new Date(p.time as number) };
		if (p.lat !== undefined && p.lng !== undefined) {
			r.positionLat = Math.round(p.lat * DEG_TO_SEMICIRCLE);
			r.positionLong = Math.round(p.lng * DEG_TO_SEMICIRCLE);
		}
		if (p.elevation !== undefined) r.enhancedAltitude = p.elevation;
		if (p.distance !== undefined) r.distance = p.distance;
		if (p.speed !== undefined) r.enhancedSpeed = p.speed;
		if (p.heartRate !== undefined) r.heartRate = Math.round(p.heartRate);
		if (p.cadence !== undefined) {
			r.cadence = Math.floor(p.cadence);
			const fraction = p.cadence - Math.floor(p.cadence);
			if (fraction > 0) r.fractionalCadence = fraction;
		}
		if (p.power !== undefined) r.power = Math.round(p.power);
		if (p.temperature !== undefined) r.temperature = Math.round(p.temperature);
		e.onMesg(M.RECORD, r);
	}
	e.onMesg(M.EVENT, { timestamp: end, event: 'timer', eventType: 'stopAll' });
	const laps = w.laps.length > 0 ? w.laps : [{ firstPoint: 0, endPoint: n }];
	for (let k = 0; k < laps.length; k++) {
		const lap = laps[k];
		const first = w.points[Math.min(lap.firstPoint, n - 1)];
		const last = w.points[Math.max(lap.firstPoint, Math.min(lap.endPoint, n) - 1)];
		const lapStart = lap.startTime ?? (first.time as number);
		const lapEnd = last.time as number;
		const elapsed = lap.elapsedS ?? (lapEnd - lapStart) / 1000;
		const fields: Record<string, unknown> = {
			messageIndex: k,
			timestamp: new Date(Math.max(lapEnd, lapStart + elapsed * 1000)),
			startTime: new Date(lapStart),
			totalElapsedTime: elapsed,
			totalTimerTime: lap.timerS ?? elapsed,
			totalDistance:
				lap.distanceM ??
				m.cumulativeDistanceM[Math.max(lap.firstPoint, Math.min(lap.endPoint, n) - 1)] -
					m.cumulativeDistanceM[Math.min(lap.firstPoint, n - 1)],
			event: 'lap',
			eventType: 'stop',
			sport,
		};
		if (lap.calories !== undefined) fields.totalCalories = Math.round(lap.calories);
		if (lap.avgHeartRate !== undefined) fields.avgHeartRate = Math.round(lap.avgHeartRate);
		if (lap.maxHeartRate !== undefined) fields.maxHeartRate = Math.round(lap.maxHeartRate);
		e.onMesg(M.LAP, fields);
	}
	const session: Record<string, unknown> = {
		messageIndex: 0,
		timestamp: end,
		startTime: start,
		totalElapsedTime: w.deviceTotals.elapsedS ?? m.elapsedS,
		totalTimerTime: w.deviceTotals.timerS ?? m.movingS,
		totalDistance: w.deviceTotals.distanceM ?? m.distanceM,
		sport,
		subSport: 'generic',
		firstLapIndex: 0,
		numLaps: laps.length,
		event: 'session',
		eventType: 'stop',
		totalAscent: Math.round(w.deviceTotals.ascentM ?? m.elevationGainM),
		totalDescent: Math.round(w.deviceTotals.descentM ?? m.elevationLossM),
	};
	if (w.deviceTotals.calories !== undefined) session.totalCalories = Math.round(w.deviceTotals.calories);
	const avgHr = w.deviceTotals.avgHeartRate ?? m.heartRate?.avg;
	const maxHr = w.deviceTotals.maxHeartRate ?? m.heartRate?.max;
	if (avgHr !== undefined) session.avgHeartRate = Math.round(avgHr);
	if (maxHr !== undefined) session.maxHeartRate = Math.round(maxHr);
	e.onMesg(M.SESSION, session);
	e.onMesg(M.ACTIVITY, {
		timestamp: end,
		numSessions: 1,
		type: 'manual',
		event: 'activity',
		eventType: 'stop',
		totalTimerTime: w.deviceTotals.timerS ?? m.movingS,
	});
	return encoder.close();
}
