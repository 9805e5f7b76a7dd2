import { Decoder, type Mesg, Profile, Stream } from '@garmin/fitsdk';
import { type Container, WorkoutBuilder } from '../builder';
import {
	defaultLimits,
	type Lap,
	type NormalisedWorkout,
	type ReadLimits,
	type TrackPoint,
	type Waypoint,
} from '../contract';
import { FIT_EPOCH_S } from '../time';
import { SEMICIRCLE_TO_DEG } from './fields';
import { checkFitIntegrity, failCorrupt } from './integrity';
import { clockOffsetS, finishFit, type SessionTotals } from './workout';

type SdkMessage = Record<string, unknown>;

function numberOf(value: unknown): number | undefined {
	return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function timeOfSdk(value: unknown): number | undefined {
	return value instanceof Date ? value.getTime() : undefined;
}

/**
 * The same workout through Garmin's official decoder. Slower, and kept as the fallback should the
 * fast decoder meet something it does not understand, and as the reference the tests compare with.
 */
export function readFitWithSdk(
	bytes: Uint8Array,
	container: Container,
	limits: ReadLimits = {},
): NormalisedWorkout {
	const trailing = { bytes: 0 };
	const files = checkFitIntegrity(bytes, trailing);
	const whole = bytes.subarray(0, files[files.length - 1].end + 2);
	const decoder = new Decoder(Stream.fromByteArray(Array.from(whole)));
	const b = new WorkoutBuilder('fit', container, limits);
	const records: SdkMessage[] = [];
	const breaksBefore = new Set<number>();
	const { messages, errors } = decoder.read({
		mergeHeartRates: false,
		expandComponents: true,
		applyScaleAndOffset: true,
		mesgListener: (mesgNum: number, mesg: Mesg) => {
			const message = mesg as SdkMessage;
			if (mesgNum === Profile.MesgNum.RECORD) records.push(message);
			else if (
				mesgNum === Profile.MesgNum.EVENT &&
				message.event === 'timer' &&
				(message.eventType === 'stop' || message.eventType === 'stopAll')
			) {
				breaksBefore.add(records.length);
			}
		},
	});
	if (errors.length > 0) failCorrupt(String((errors[0] as Error).message ?? errors[0]).slice(0, 80));
	if (trailing.bytes > 0)
		b.warnOnce(`${trailing.bytes} bytes after the end of the FIT data were not readable and were ignored.`);
	const sportIds = Profile.types.sport as Record<number, string>;
	const sportByName = new Map(Object.entries(sportIds).map(([id, name]) => [name, Number(id)]));
	for (let index = 0; index < records.length; index++) {
		const r = records[index];
		if (breaksBefore.has(index)) b.breakSegment();
		const p: TrackPoint = {};
		const t = timeOfSdk(r.timestamp);
		if (t !== undefined) p.time = t;
		const lat = numberOf(r.positionLat);
		const lng = numberOf(r.positionLong);
		if (lat !== undefined && lng !== undefined) {
			p.lat = lat * SEMICIRCLE_TO_DEG;
			p.lng = lng * SEMICIRCLE_TO_DEG;
		}
		const ele = numberOf(r.enhancedAltitude) ?? numberOf(r.altitude);
		if (ele !== undefined) p.elevation = ele;
		const distance = numberOf(r.distance);
		if (distance !== undefined) p.distance = distance;
		const speed = numberOf(r.enhancedSpeed) ?? numberOf(r.speed);
		if (speed !== undefined) p.speed = speed;
		const hr = numberOf(r.heartRate);
		if (hr !== undefined) p.heartRate = hr;
		const cadence = numberOf(r.cadence);
		if (cadence !== undefined) p.cadence = cadence + (numberOf(r.fractionalCadence) ?? 0);
		const power = numberOf(r.power);
		if (power !== undefined) p.power = power;
		const temperature = numberOf(r.temperature);
		if (temperature !== undefined) p.temperature = temperature;
		b.addPoint(p);
	}
	const lapEnds: number[] = [];
	for (const l of (messages.lapMesgs ?? []) as SdkMessage[]) {
		const lap: Lap = { firstPoint: 0, endPoint: 0 };
		const start = timeOfSdk(l.startTime);
		if (start !== undefined) lap.startTime = start;
		const assign = (
			key: 'elapsedS' | 'timerS' | 'distanceM' | 'calories' | 'avgHeartRate' | 'maxHeartRate',
			v: unknown,
		) => {
			const n = numberOf(v);
			if (n !== undefined) lap[key] = n;
		};
		assign('elapsedS', l.totalElapsedTime);
		assign('timerS', l.totalTimerTime);
		assign('distanceM', l.totalDistance);
		assign('calories', l.totalCalories);
		assign('avgHeartRate', l.avgHeartRate);
		assign('maxHeartRate', l.maxHeartRate);
		lapEnds.push(timeOfSdk(l.timestamp) ?? Number.NaN);
		b.laps.push(lap);
	}
	const sessions: SessionTotals[] = [];
	const sum = (key: string) => {
		let total = 0;
		let any = false;
		for (const s of (messages.sessionMesgs ?? []) as SdkMessage[]) {
			const n = numberOf(s[key]);
			if (n !== undefined) {
				total += n;
				any = true;
			}
		}
		return any ? total : undefined;
	};
	for (const s of (messages.sessionMesgs ?? []) as SdkMessage[]) {
		const session: SessionTotals = {};
		const sport = typeof s.sport === 'string' ? sportByName.get(s.sport) : numberOf(s.sport);
		if (sport !== undefined) session.sport = sport;
		const start = timeOfSdk(s.startTime);
		if (start !== undefined) session.start = start;
		const timer = numberOf(s.totalTimerTime);
		if (timer !== undefined) session.timer = timer;
		sessions.push(session);
	}
	const totals = b.deviceTotals;
	const set = (key: keyof typeof totals, v: number | undefined) => {
		if (v !== undefined) totals[key] = v;
	};
	set('distanceM', sum('totalDistance'));
	set('elapsedS', sum('totalElapsedTime'));
	set('timerS', sum('totalTimerTime'));
	set('ascentM', sum('totalAscent'));
	set('descentM', sum('totalDescent'));
	set('calories', sum('totalCalories'));
	const sessionMesgs = (messages.sessionMesgs ?? []) as SdkMessage[];
	const maxHr = Math.max(0, ...sessionMesgs.map((s) => numberOf(s.maxHeartRate) ?? 0));
	if (maxHr) totals.maxHeartRate = maxHr;
	const avgHr = sessionMesgs.length === 1 ? numberOf(sessionMesgs[0].avgHeartRate) : undefined;
	if (avgHr) totals.avgHeartRate = avgHr;
	const activityMesg = ((messages.activityMesgs ?? []) as SdkMessage[])[0];
	const activityTime = timeOfSdk(activityMesg?.timestamp);
	if (activityTime !== undefined)
		b.recordedUtcOffsetS = clockOffsetS(
			activityTime / 1000 - FIT_EPOCH_S,
			numberOf(activityMesg?.localTimestamp) ?? Number.NaN,
		);
	const sportMesg = ((messages.sportMesgs ?? []) as SdkMessage[])[0];
	const courseMesg = ((messages.courseMesgs ?? []) as SdkMessage[])[0];
	const sportFromSportMesg =
		typeof sportMesg?.sport === 'string'
			? sportByName.get(sportMesg.sport)
			: typeof courseMesg?.sport === 'string'
				? sportByName.get(courseMesg.sport)
				: undefined;
	if (typeof courseMesg?.name === 'string' && courseMesg.name) b.name ??= courseMesg.name;
	const maxWaypoints = limits.maxPoints ?? defaultLimits.maxPoints;
	for (const point of (messages.coursePointMesgs ?? []) as SdkMessage[]) {
		const lat = (numberOf(point.positionLat) ?? Number.NaN) * SEMICIRCLE_TO_DEG;
		const lng = (numberOf(point.positionLong) ?? Number.NaN) * SEMICIRCLE_TO_DEG;
		if (!(Math.abs(lat) <= 90 && Math.abs(lng) <= 180) || b.waypoints.length >= maxWaypoints) continue;
		const waypoint: Waypoint = { lat, lng };
		const time = timeOfSdk(point.timestamp);
		if (time !== undefined) waypoint.time = time;
		if (typeof point.name === 'string' && point.name) waypoint.name = point.name;
		b.waypoints.push(waypoint);
	}
	finishFit(b, { sessions, sportFromSportMesg, lapEnds });
	return b.finish();
}
