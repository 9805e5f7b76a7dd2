import { type Container, parseOptionalNumber, WorkoutBuilder } from './builder';
import { defaultLimits, type Lap, type ReadLimits, type TrackPoint } from './contract';
import { WorkoutFileError } from './errors';
import { mapSportName } from './sport';
import { parseIsoTime } from './time';
import { decodeEntities, readAttribute, scanXml } from './xml';

const tcxNamespaces = new Set([
	'http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2',
	'http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v1',
]);

type PointField =
	| 'Time'
	| 'LatitudeDegrees'
	| 'LongitudeDegrees'
	| 'AltitudeMeters'
	| 'DistanceMeters'
	| 'HeartRateBpm'
	| 'Cadence'
	| 'RunCadence'
	| 'Speed'
	| 'Watts';
const pointFields = new Set<string>([
	'Time',
	'LatitudeDegrees',
	'LongitudeDegrees',
	'AltitudeMeters',
	'DistanceMeters',
	'Cadence',
	'RunCadence',
	'Speed',
	'Watts',
]);
const lapFields = new Set<string>(['TotalTimeSeconds', 'DistanceMeters', 'Calories']);

/**
 * Reads TCX: the first Activity (its Sport, Laps, Tracks, heart rate, cadence, watts and speed
 * from the ActivityExtension), or the first Course when the file has no activity. Further
 * activities are reported in `warnings`, not merged: each is its own workout.
 */
export function readTcx(doc: string, container: Container, limits: ReadLimits = {}) {
	const b = new WorkoutBuilder('tcx', container, limits);
	const path: string[] = [];
	let activityCount = 0;
	let courseCount = 0;
	let reading: 'activity' | 'course' | null = null;
	let skipping = false;
	let lap: Lap | null = null;
	let lapHrField: 'avg' | 'max' | null = null;
	let point: TrackPoint | null = null;
	let field: string | null = null;
	let fieldDepth = 0;
	let textBuf = '';
	let tracksInLap = 0;
	const maxPoints = limits.maxPoints ?? defaultLimits.maxPoints;
	let ignoredPoints = 0;

	scanXml(doc, {
		open(name, d, a0, a1) {
			path.push(name);
			const depth = path.length;
			if (depth === 1) {
				if (name !== 'TrainingCenterDatabase') {
					throw new WorkoutFileError('wrong_root', `This XML file is not TCX (its root is <${name}>).`);
				}
				const ns = readAttribute(d, a0, a1, 'xmlns');
				if (ns === undefined || !tcxNamespaces.has(ns)) {
					throw new WorkoutFileError(
						'wrong_root',
						'This TCX file does not use the Training Center namespace, so we cannot read it.',
						{ namespace: ns ?? null },
					);
				}
				return;
			}
			if (name === 'Activity' && path[depth - 2] === 'Activities') {
				activityCount++;
				skipping = reading !== null;
				if (!skipping) {
					reading = 'activity';
					const sport = readAttribute(d, a0, a1, 'Sport');
					b.sport = sport;
					b.activityType = mapSportName(sport);
				}
				return;
			}
			if (name === 'Course' && path[depth - 2] === 'Courses') {
				courseCount++;
				skipping = reading !== null;
				if (!skipping) reading = 'course';
				return;
			}
			if (reading === null || skipping) {
				if (name === 'Trackpoint') ignoredPoints++;
				if (ignoredPoints > maxPoints) {
					throw new WorkoutFileError('too_many_points', 'This file has more points than we accept.');
				}
				return;
			}
			if (point !== null) {
				if (
					field === null &&
					(pointFields.has(name) || (name === 'Value' && path[depth - 2] === 'HeartRateBpm'))
				) {
					field = name === 'Value' ? 'HeartRateBpm' : name;
					fieldDepth = depth;
					textBuf = '';
				}
				return;
			}
			switch (name) {
				case 'Lap': {
					const startTime = parseIsoTime(readAttribute(d, a0, a1, 'StartTime') ?? '');
					lap = { firstPoint: b.points.length, endPoint: b.points.length };
					tracksInLap = 0;
					if (!Number.isNaN(startTime)) lap.startTime = startTime;
					return;
				}
				case 'Track':
					// Each lap holds a Track; only a second Track inside one lap marks a pause (a new segment).
					if (tracksInLap > 0) b.breakSegment();
					tracksInLap++;
					return;
				case 'Trackpoint':
					point = {};
					return;
				case 'AverageHeartRateBpm':
					lapHrField = 'avg';
					return;
				case 'MaximumHeartRateBpm':
					lapHrField = 'max';
					return;
			}
			const parent = path[depth - 2];
			if (
				(lap !== null && parent === 'Lap' && lapFields.has(name)) ||
				(name === 'Value' && lapHrField !== null) ||
				(name === 'Id' && parent === 'Activity') ||
				(name === 'Name' && parent === 'Course')
			) {
				field = name === 'Value' ? `lap-hr-${lapHrField}` : name;
				fieldDepth = depth;
				textBuf = '';
			}
		},
		text(d, s, e) {
			if (field !== null) textBuf += d.slice(s, e);
		},
		close(name) {
			const depth = path.length;
			path.pop();
			if (field !== null && depth === fieldDepth) {
				storeField(field, textBuf);
				field = null;
				return;
			}
			if (name === 'Trackpoint' && point !== null) {
				// TCX writes a Trackpoint without Position while the GPS has no fix; keep its other values.
				b.addPoint(point);
				point = null;
			} else if (name === 'Lap' && lap !== null) {
				lap.endPoint = b.points.length;
				b.laps.push(lap);
				lap = null;
			} else if (name === 'AverageHeartRateBpm' || name === 'MaximumHeartRateBpm') {
				lapHrField = null;
			} else if ((name === 'Activity' || name === 'Course') && depth === 3) {
				skipping = false;
				if (reading !== null) skipping = true;
			}
		},
	});

	function storeField(f: string, raw: string): void {
		if (point !== null) {
			const value = f === 'Time' ? Number.NaN : parseOptionalNumber(raw);
			switch (f as PointField) {
				case 'Time': {
					const t = parseIsoTime(decodeEntities(raw));
					if (Number.isNaN(t)) {
						throw new WorkoutFileError(
							'bad_time',
							`Trackpoint ${b.points.length + 1} has a time we cannot read ("${raw.trim().slice(0, 40)}").`,
						);
					}
					point.time = t;
					return;
				}
				case 'LatitudeDegrees':
					if (value === undefined) badCoordinate('latitude');
					point.lat = value;
					return;
				case 'LongitudeDegrees':
					if (value === undefined) badCoordinate('longitude');
					point.lng = value;
					return;
				case 'AltitudeMeters':
					if (value !== undefined) point.elevation = value;
					return;
				case 'DistanceMeters':
					if (value !== undefined && value >= 0) point.distance = value;
					return;
				case 'HeartRateBpm':
					if (value !== undefined && value >= 0) point.heartRate = value;
					return;
				case 'Cadence':
				case 'RunCadence':
					if (value !== undefined && value >= 0) point.cadence = value;
					return;
				case 'Speed':
					if (value !== undefined && value >= 0) point.speed = value;
					return;
				case 'Watts':
					if (value !== undefined && value >= 0) point.power = value;
					return;
			}
			return;
		}
		if (f === 'Id') {
			const t = parseIsoTime(decodeEntities(raw));
			if (!Number.isNaN(t)) b.startTime = t;
			return;
		}
		if (f === 'Name') {
			b.name = decodeEntities(raw).trim() || undefined;
			return;
		}
		if (lap === null) return;
		const value = parseOptionalNumber(raw);
		if (value === undefined || value < 0) return;
		if (f === 'TotalTimeSeconds') lap.timerS = value;
		else if (f === 'DistanceMeters') lap.distanceM = value;
		else if (f === 'Calories') lap.calories = value;
		else if (f === 'lap-hr-avg') lap.avgHeartRate = value;
		else if (f === 'lap-hr-max') lap.maxHeartRate = value;
	}

	function badCoordinate(what: string): never {
		throw new WorkoutFileError('bad_number', `Trackpoint ${b.points.length + 1} has no readable ${what}.`);
	}

	if (activityCount > 1) {
		b.warnOnce(
			`This file holds ${activityCount} activities; only the first was read. Upload the others one by one.`,
		);
	}
	if (reading === 'course') {
		b.warnOnce(
			'This file holds a planned course, not a recorded activity; its points were read as the track.',
		);
	}
	if (courseCount > 1 && reading === 'course')
		b.warnOnce(`This file holds ${courseCount} courses; only the first was read.`);
	summariseLaps(b);
	completeLaps(b);
	return b.finish();
}

/**
 * What a TCX lap leaves out, from its own points: its elapsed time (TotalTimeSeconds is the timer's, without
 * pauses) runs from its start to the next lap's, or to its last point; and many devices write heart rate on
 * every point but none on the lap, so its average and maximum are read from those points. Runs after the
 * device totals are summed, so they stay the device's own.
 */
function completeLaps(b: WorkoutBuilder): void {
	b.laps.forEach((lap, index) => {
		const points = b.points.slice(lap.firstPoint, lap.endPoint);
		const start = lap.startTime ?? points.find((point) => point.time !== undefined)?.time;
		const end = b.laps[index + 1]?.startTime ?? points.findLast((point) => point.time !== undefined)?.time;
		if (lap.elapsedS === undefined && start !== undefined && end !== undefined && end >= start)
			lap.elapsedS = (end - start) / 1000;
		if (lap.avgHeartRate !== undefined && lap.maxHeartRate !== undefined) return;
		const rates = points.flatMap((point) => (point.heartRate ? [point.heartRate] : []));
		if (rates.length === 0) return;
		lap.avgHeartRate ??= Math.round((rates.reduce((sum, rate) => sum + rate, 0) / rates.length) * 10) / 10;
		lap.maxHeartRate ??= rates.reduce((max, rate) => Math.max(max, rate), 0);
	});
}

/** Device totals for TCX are the sums of its laps, which is how Garmin Connect reports them. */
function summariseLaps(b: WorkoutBuilder): void {
	if (b.laps.length === 0) return;
	let timer = 0;
	let distance = 0;
	let calories = 0;
	let hasTimer = false;
	let hasDistance = false;
	let hasCalories = false;
	let maxHr: number | undefined;
	for (const lap of b.laps) {
		if (lap.timerS !== undefined) {
			timer += lap.timerS;
			hasTimer = true;
		}
		if (lap.distanceM !== undefined) {
			distance += lap.distanceM;
			hasDistance = true;
		}
		if (lap.calories !== undefined) {
			calories += lap.calories;
			hasCalories = true;
		}
		if (lap.maxHeartRate !== undefined) maxHr = Math.max(maxHr ?? 0, lap.maxHeartRate);
	}
	if (hasTimer) b.deviceTotals.timerS = timer;
	if (hasDistance) b.deviceTotals.distanceM = distance;
	if (hasCalories) b.deviceTotals.calories = calories;
	if (maxHr !== undefined) b.deviceTotals.maxHeartRate = maxHr;
}
