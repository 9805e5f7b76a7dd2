import { type Container, parseOptionalNumber, WorkoutBuilder } from './builder';
import { defaultLimits, type ReadLimits, type TrackPoint } from './contract';
import { WorkoutFileError } from './errors';
import { mapSportName } from './sport';
import { parseIsoTime } from './time';
import { decodeEntities, readAttribute, scanXml } from './xml';

const gpxNamespaces = new Set(['http://www.topografix.com/GPX/1/0', 'http://www.topografix.com/GPX/1/1']);

/** Point children we keep, by local name; extension names cover Garmin TrackPointExtension v1/v2, Cluetrust gpxdata and the bare names Strava and others write. */
type Field = 'ele' | 'time' | 'hr' | 'cad' | 'temp' | 'power' | 'speed' | 'distance' | 'name';
const pointFields: Record<string, Field> = {
	ele: 'ele',
	time: 'time',
	name: 'name',
	hr: 'hr',
	heartrate: 'hr',
	cad: 'cad',
	cadence: 'cad',
	atemp: 'temp',
	wtemp: 'temp',
	temp: 'temp',
	power: 'power',
	PowerInWatts: 'power',
	speed: 'speed',
	distance: 'distance',
};

function parseCoordinate(raw: string | undefined, what: 'lat' | 'lon', index: number): number {
	const value = raw === undefined ? Number.NaN : Number(raw.trim());
	if (raw === undefined || raw.trim() === '' || !Number.isFinite(value)) {
		throw new WorkoutFileError(
			what === 'lat' ? 'bad_latitude' : 'bad_longitude',
			`Point ${index + 1} has no readable ${what === 'lat' ? 'latitude' : 'longitude'}. The file is damaged.`,
			{ point: index },
		);
	}
	return value + 0;
}

/**
 * Reads GPX 1.0 and 1.1: every track and segment in order (a new <trkseg> or <trk> starts a new
 * segment), waypoints apart, and a route's points only when the file has no track (planners export
 * routes). Points may lack time or elevation; those values stay absent.
 */
export function readGpx(doc: string, container: Container, limits: ReadLimits = {}) {
	const b = new WorkoutBuilder('gpx', container, limits);
	let depth = 0;
	let inTrk = false;
	let trkCount = 0;
	let inMetadata = false;
	let pointKind: 'trk' | 'rte' | 'wpt' | null = null;
	let point: TrackPoint = {};
	let pointName: string | undefined;
	let pointDepth = 0;
	let field: Field | null = null;
	let fieldDepth = 0;
	let textBuf = '';
	let holder: 'trkName' | 'trkType' | 'metaName' | null = null;
	let trkType: string | undefined;
	const routePoints: TrackPoint[] = [];
	let routeCount = 0;

	scanXml(doc, {
		open(name, d, a0, a1) {
			depth++;
			if (depth === 1) {
				if (name !== 'gpx') {
					throw new WorkoutFileError('wrong_root', `This XML file is not GPX (its root is <${name}>).`);
				}
				const ns = readAttribute(d, a0, a1, 'xmlns');
				if (ns !== undefined && !gpxNamespaces.has(ns)) {
					throw new WorkoutFileError('wrong_root', 'This GPX file uses an unknown namespace.', {
						namespace: ns,
					});
				}
				b.creator = readAttribute(d, a0, a1, 'creator');
				return;
			}
			if (pointKind !== null) {
				const f = pointFields[name];
				if (f !== undefined && field === null) {
					field = f;
					fieldDepth = depth;
					textBuf = '';
				}
				return;
			}
			if (name === 'trkpt' || name === 'rtept' || name === 'wpt') {
				pointKind = name === 'trkpt' ? 'trk' : name === 'rtept' ? 'rte' : 'wpt';
				if (pointKind === 'trk' && !inTrk) pointKind = null;
				if (pointKind === null) return;
				const index = b.points.length;
				point = {
					lat: parseCoordinate(readAttribute(d, a0, a1, 'lat'), 'lat', index),
					lng: parseCoordinate(readAttribute(d, a0, a1, 'lon'), 'lon', index),
				};
				pointName = undefined;
				pointDepth = depth;
			} else if (name === 'trk') {
				inTrk = true;
				trkCount++;
				b.breakSegment();
			} else if (name === 'trkseg') {
				b.breakSegment();
			} else if (name === 'rte') {
				routeCount++;
			} else if (name === 'metadata') {
				inMetadata = true;
			} else if (name === 'name' && (depth === 2 || (inMetadata && depth === 3))) {
				holder = 'metaName';
				textBuf = '';
			} else if (inTrk && depth === 3 && (name === 'name' || name === 'type')) {
				holder = name === 'name' ? 'trkName' : 'trkType';
				textBuf = '';
			}
		},
		text(d, s, e) {
			if (field !== null || holder !== null) textBuf += d.slice(s, e);
		},
		close(name) {
			if (field !== null && depth === fieldDepth) {
				const raw = textBuf;
				switch (field) {
					case 'time': {
						const t = parseIsoTime(decodeEntities(raw));
						if (Number.isNaN(t)) {
							throw new WorkoutFileError(
								'bad_time',
								`Point ${b.points.length + 1} has a time we cannot read ("${raw.trim().slice(0, 40)}").`,
							);
						}
						point.time = t;
						break;
					}
					case 'ele':
						setNumber(point, 'elevation', raw);
						break;
					case 'hr':
						setNumber(point, 'heartRate', raw);
						break;
					case 'cad':
						setNumber(point, 'cadence', raw);
						break;
					case 'temp':
						setNumber(point, 'temperature', raw);
						break;
					case 'power':
						setNumber(point, 'power', raw);
						break;
					case 'speed':
						setNumber(point, 'speed', raw);
						break;
					case 'distance':
						setNumber(point, 'distance', raw);
						break;
					case 'name':
						pointName = decodeEntities(raw).trim();
						break;
				}
				field = null;
			} else if (pointKind !== null && depth === pointDepth) {
				if (pointKind === 'trk') b.addPoint(point);
				else if (pointKind === 'rte') {
					if (routePoints.length >= (limits.maxPoints ?? defaultLimits.maxPoints)) {
						throw new WorkoutFileError(
							'too_many_points',
							'This route has more points than we accept in one workout.',
						);
					}
					routePoints.push(point);
				} else if (point.lat !== undefined && point.lng !== undefined) {
					const w: { lat: number; lng: number; elevation?: number; time?: number; name?: string } = {
						lat: point.lat,
						lng: point.lng,
					};
					if (point.elevation !== undefined) w.elevation = point.elevation;
					if (point.time !== undefined) w.time = point.time;
					if (pointName) w.name = pointName;
					b.waypoints.push(w);
				}
				pointKind = null;
			} else if (holder !== null) {
				const value = decodeEntities(textBuf).trim();
				if (holder === 'metaName') b.name ??= value || undefined;
				else if (holder === 'trkName' && !b.name) b.name = value || undefined;
				else if (holder === 'trkType') trkType ??= value || undefined;
				holder = null;
			} else if (name === 'trk') {
				inTrk = false;
			} else if (name === 'metadata') {
				inMetadata = false;
			}
			depth--;
		},
	});

	if (b.points.length === 0 && routePoints.length > 0) {
		b.breakSegment();
		for (const p of routePoints) b.addPoint(p);
		b.warnOnce('This file holds a planned route, not a recorded track; its points were read as the track.');
	}
	if (trkCount > 1)
		b.warnOnce(`This file holds ${trkCount} tracks; they were joined as segments of one workout.`);
	if (routeCount > 0 && b.points.length > 0 && routePoints.length !== b.points.length) {
		b.warnOnce('The planned route in this file was ignored; the recorded track was read.');
	}
	b.sport = trkType;
	b.activityType = mapSportName(trkType);
	return b.finish();
}

function setNumber(p: TrackPoint, key: keyof TrackPoint, raw: string): void {
	const value = parseOptionalNumber(raw);
	if (value === undefined) return;
	if (key !== 'elevation' && key !== 'temperature' && value < 0) return;
	p[key] = value;
}
