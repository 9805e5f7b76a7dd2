import { ActivityTypeId, type NormalisedWorkout, type TrackPoint } from './contract';
import { WorkoutFileError } from './errors';
import { computeCumulativeDistance } from './metrics';

function escapeXml(s: string): string {
	return s.replace(
		/[<>&"']/g,
		(c) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', '"': 'quot', "'": 'apos' }[c]};`,
	);
}

/** XML Schema dateTime in UTC; "Z" because every GPX and TCX consumer reads it. */
function formatXmlTime(ms: number): string {
	const iso = new Date(ms).toISOString();
	return ms % 1000 === 0 ? `${iso.slice(0, 19)}Z` : iso;
}

/** Numbers are written with JavaScript's shortest round-trip form, so reading the file back gives the same double. */
const num = (n: number) => String(n);

const sportNameByType: Record<number, string> = {
	[ActivityTypeId.run]: 'running',
	[ActivityTypeId.ride]: 'cycling',
	[ActivityTypeId.walk]: 'walking',
	[ActivityTypeId.hike]: 'hiking',
	[ActivityTypeId.swim]: 'swimming',
};

/**
 * GPX 1.1 with Garmin's TrackPointExtension v2 (temperature, heart rate, cadence, speed), Garmin's
 * PowerExtension for watts and Cluetrust gpxdata for the recorded distance, so a read → write → read
 * keeps every value. GPX has no laps, and a point needs a position: points without one are left
 * out (GPX cannot hold them).
 */
export function writeGpx(w: NormalisedWorkout): string {
	const out: string[] = [];
	out.push(
		'<?xml version="1.0" encoding="UTF-8"?>\n',
		'<gpx version="1.1" creator="Mapstride" xmlns="http://www.topografix.com/GPX/1/1"',
		' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"',
		' xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2"',
		' xmlns:pwr="http://www.garmin.com/xmlschemas/PowerExtension/v1"',
		' xmlns:gpxdata="http://www.cluetrust.com/XML/GPXDATA/1/0"',
		' xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd',
		' http://www.garmin.com/xmlschemas/TrackPointExtension/v2 https://www8.garmin.com/xmlschemas/TrackPointExtensionv2.xsd">\n',
	);
	out.push('<metadata>');
	if (w.name) out.push(`<name>${escapeXml(w.name)}</name>`);
	if (w.startTime !== undefined) out.push(`<time>${formatXmlTime(w.startTime)}</time>`);
	out.push('</metadata>\n');
	for (const wp of w.waypoints) {
		out.push(`<wpt lat="${num(wp.lat)}" lon="${num(wp.lng)}">`);
		if (wp.elevation !== undefined) out.push(`<ele>${num(wp.elevation)}</ele>`);
		if (wp.time !== undefined) out.push(`<time>${formatXmlTime(wp.time)}</time>`);
		if (wp.name) out.push(`<name>${escapeXml(wp.name)}</name>`);
		out.push('</wpt>\n');
	}
	out.push('<trk>');
	if (w.name) out.push(`<name>${escapeXml(w.name)}</name>`);
	const type = w.sport ?? sportNameByType[w.activityType];
	if (type) out.push(`<type>${escapeXml(type)}</type>`);
	out.push('\n');
	let written = 0;
	const starts = new Set(w.segmentStarts);
	let open = false;
	for (let i = 0; i < w.points.length; i++) {
		const p = w.points[i];
		if (starts.has(i) || !open) {
			if (open) out.push('</trkseg>\n');
			out.push('<trkseg>\n');
			open = true;
		}
		if (p.lat === undefined || p.lng === undefined) continue;
		written++;
		out.push(`<trkpt lat="${num(p.lat)}" lon="${num(p.lng)}">`);
		if (p.elevation !== undefined) out.push(`<ele>${num(p.elevation)}</ele>`);
		if (p.time !== undefined) out.push(`<time>${formatXmlTime(p.time)}</time>`);
		const tpx =
			p.temperature !== undefined ||
			p.heartRate !== undefined ||
			p.cadence !== undefined ||
			p.speed !== undefined;
		if (tpx || p.power !== undefined || p.distance !== undefined) {
			out.push('<extensions>');
			if (p.power !== undefined) out.push(`<pwr:PowerInWatts>${num(p.power)}</pwr:PowerInWatts>`);
			if (tpx) {
				out.push('<gpxtpx:TrackPointExtension>');
				if (p.temperature !== undefined) out.push(`<gpxtpx:atemp>${num(p.temperature)}</gpxtpx:atemp>`);
				if (p.heartRate !== undefined) out.push(`<gpxtpx:hr>${num(p.heartRate)}</gpxtpx:hr>`);
				if (p.cadence !== undefined) out.push(`<gpxtpx:cad>${num(p.cadence)}</gpxtpx:cad>`);
				if (p.speed !== undefined) out.push(`<gpxtpx:speed>${num(p.speed)}</gpxtpx:speed>`);
				out.push('</gpxtpx:TrackPointExtension>');
			}
			if (p.distance !== undefined) out.push(`<gpxdata:distance>${num(p.distance)}</gpxdata:distance>`);
			out.push('</extensions>');
		}
		out.push('</trkpt>\n');
	}
	if (open) out.push('</trkseg>\n');
	out.push('</trk>\n</gpx>\n');
	if (written === 0) {
		throw new WorkoutFileError(
			'cannot_write',
			'This workout has no positions, so it cannot be saved as GPX. Try TCX or FIT.',
		);
	}
	return out.join('');
}

const tcxSport: Record<number, string> = { [ActivityTypeId.run]: 'Running', [ActivityTypeId.ride]: 'Biking' };

/**
 * TCX (Training Center v2) with the ActivityExtension v2 for speed and watts. Laps are kept; a
 * workout without laps gets one. TCX has no temperature field, its cadence and heart rate are whole
 * numbers from 1 (so fractional cadence is rounded and a heart rate of 0 is left out), and every
 * trackpoint needs a time: a workout without times cannot be written as TCX.
 */
export function writeTcx(w: NormalisedWorkout): string {
	const points = w.points;
	if (points.some((p) => p.time === undefined)) {
		throw new WorkoutFileError(
			'cannot_write',
			'This workout has points without times, so it cannot be saved as TCX. Try GPX.',
		);
	}
	const { cumulative } = computeCumulativeDistance(w);
	const ranges: Array<{ first: number; end: number; lap?: NormalisedWorkout['laps'][number] }> = [];
	if (w.laps.length === 0) ranges.push({ first: 0, end: points.length });
	else {
		for (let k = 0; k < w.laps.length; k++) {
			const first = k === 0 ? 0 : w.laps[k].firstPoint;
			const end = k + 1 < w.laps.length ? w.laps[k + 1].firstPoint : points.length;
			ranges.push({ first, end: Math.max(first, end), lap: w.laps[k] });
		}
	}
	const starts = new Set(w.segmentStarts);
	const out: string[] = [];
	out.push(
		'<?xml version="1.0" encoding="UTF-8"?>\n',
		'<TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"',
		' xmlns:ns3="http://www.garmin.com/xmlschemas/ActivityExtension/v2"',
		' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"',
		' xsi:schemaLocation="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2 http://www.garmin.com/xmlschemas/TrainingCenterDatabasev2.xsd">\n',
		`<Activities>\n<Activity Sport="${tcxSport[w.activityType] ?? 'Other'}">\n`,
		`<Id>${formatXmlTime(w.startTime ?? (points[0].time as number))}</Id>\n`,
	);
	for (const range of ranges) {
		const firstTime = points[Math.min(range.first, points.length - 1)].time as number;
		const lastTime = points[Math.max(range.first, range.end - 1)].time as number;
		const startTime = range.lap?.startTime ?? firstTime;
		const timer = range.lap?.timerS ?? (lastTime - firstTime) / 1000;
		const distance =
			range.lap?.distanceM ??
			(range.end > range.first ? cumulative[range.end - 1] - cumulative[range.first] : 0);
		out.push(`<Lap StartTime="${formatXmlTime(startTime)}">`);
		out.push(
			`<TotalTimeSeconds>${num(timer)}</TotalTimeSeconds><DistanceMeters>${num(distance)}</DistanceMeters>`,
		);
		out.push(`<Calories>${Math.round(range.lap?.calories ?? 0)}</Calories>`);
		if (range.lap?.avgHeartRate) {
			out.push(
				`<AverageHeartRateBpm><Value>${Math.round(range.lap.avgHeartRate)}</Value></AverageHeartRateBpm>`,
			);
		}
		if (range.lap?.maxHeartRate) {
			out.push(
				`<MaximumHeartRateBpm><Value>${Math.round(range.lap.maxHeartRate)}</Value></MaximumHeartRateBpm>`,
			);
		}
		out.push('<Intensity>Active</Intensity><TriggerMethod>Manual</TriggerMethod>\n<Track>\n');
		for (let i = range.first; i < range.end; i++) {
			if (i > range.first && starts.has(i)) out.push('</Track>\n<Track>\n');
			out.push(writeTrackpoint(points[i]));
		}
		out.push('</Track>\n</Lap>\n');
	}
	out.push('</Activity>\n</Activities>\n</TrainingCenterDatabase>\n');
	return out.join('');
}

function writeTrackpoint(p: TrackPoint): string {
	let s = `<Trackpoint><Time>${formatXmlTime(p.time as number)}</Time>`;
	if (p.lat !== undefined && p.lng !== undefined) {
		s += `<Position><LatitudeDegrees>${num(p.lat)}</LatitudeDegrees><LongitudeDegrees>${num(p.lng)}</LongitudeDegrees></Position>`;
	}
	if (p.elevation !== undefined) s += `<AltitudeMeters>${num(p.elevation)}</AltitudeMeters>`;
	if (p.distance !== undefined) s += `<DistanceMeters>${num(p.distance)}</DistanceMeters>`;
	if (p.heartRate !== undefined && Math.round(p.heartRate) >= 1) {
		s += `<HeartRateBpm><Value>${Math.min(255, Math.round(p.heartRate))}</Value></HeartRateBpm>`;
	}
	if (p.cadence !== undefined) s += `<Cadence>${Math.min(254, Math.round(p.cadence))}</Cadence>`;
	if (p.speed !== undefined || p.power !== undefined) {
		s += '<Extensions><ns3:TPX>';
		if (p.speed !== undefined) s += `<ns3:Speed>${num(p.speed)}</ns3:Speed>`;
		if (p.power !== undefined) s += `<ns3:Watts>${Math.round(p.power)}</ns3:Watts>`;
		s += '</ns3:TPX></Extensions>';
	}
	return `${s}</Trackpoint>\n`;
}
